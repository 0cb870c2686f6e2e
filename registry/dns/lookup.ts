import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsLookupData } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.lookup',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/lookup/:domain',
  queryAlias: ['domain'],
  summary: 'A, AAAA, MX, TXT, NS, CNAME, SOA and CAA records, queried in parallel, in one answer',
  description:
    'Asks the configured resolvers for the eight types at once and returns every record in one flat list (`records`, also the CSV rows) with a per-type summary of rcode, status and latency (`types`). A name that does not exist is a 200 with status nxdomain; answers are cached for the smallest TTL over the types, at most 5 minutes.',
  params: z.object({ domain: DomainName }),
  data: DnsLookupData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
