import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.a',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/a/:domain',
  queryAlias: ['domain'],
  summary: 'IPv4 address records, CNAME chain followed, with TTLs',
  description:
    "Asks the configured resolvers (INFRALENS_DNS_RESOLVERS) for the name's A records; when the name is an alias, the answer follows the CNAME chain and lists it in `chain`, with the final `canonical_name`. " + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'A',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
