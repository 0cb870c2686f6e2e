import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { NameserverComparisonData } from './schemas/domain-data.ts'

export default defineEndpoint({
  name: 'domain.nameservers',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/nameservers/:domain',
  queryAlias: ['domain'],
  summary: 'Name servers at the registry (RDAP or WHOIS) compared with the NS records in DNS; mismatches flagged',
  description:
    'Compares the name servers the registry delegates the domain to (from its RDAP record, or its WHOIS answer where the TLD has no RDAP) with the NS records the zone itself publishes (from DNS). `in_sync` is false when they differ, and each name server says on which side it appears: a lame or forgotten delegation shows here. Cached up to 5 minutes.',
  params: z.object({ domain: DomainName }),
  data: NameserverComparisonData,
  upstreams: ['rdap', 'whois', 'dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['nameservers'],
  csvRows: 'nameservers',
  example: { domain: 'google.com' },
})
