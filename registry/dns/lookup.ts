import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsLookupData } from '../../plugins/dns/dns-data.ts'

export default defineEndpoint({
  name: 'dns.lookup',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/lookup/:domain',
  queryAlias: ['domain'],
  summary: 'A, AAAA, MX, TXT, NS, CNAME, SOA and CAA records, queried in parallel, in one answer',
  params: z.object({ domain: DomainName }),
  data: DnsLookupData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
