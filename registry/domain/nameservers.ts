import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { NameserverComparisonData } from '../../plugins/domain/domain-data.ts'

export default defineEndpoint({
  name: 'domain.nameservers',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/nameservers/:domain',
  queryAlias: ['domain'],
  summary: 'Name servers at the registry (RDAP) compared with the NS records in DNS; mismatches flagged',
  params: z.object({ domain: DomainName }),
  data: NameserverComparisonData,
  upstreams: ['rdap', 'dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['nameservers'],
  csvRows: 'nameservers',
  example: { domain: 'google.com' },
})
