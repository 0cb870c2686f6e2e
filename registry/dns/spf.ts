import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { SpfData, SpfParams } from '../email/schemas/spf-data.ts'

export default defineEndpoint({
  name: 'dns.spf',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/spf/:domain',
  queryAlias: ['domain'],
  summary: 'The SPF record parsed and validated (RFC 7208), with its include tree and lookup counts; check_host() for ?ip=',
  description:
    "Reads the SPF record and every record it includes or redirects to, and returns the terms, the include tree as a flat list, and DNS-lookup and void-lookup counts against RFC 7208's limits of 10 and 2, with findings. With ?ip= (and optionally sender= and helo=) it also runs check_host() for that address. The same check as /api/email/spf.",
  params: SpfParams,
  data: SpfData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['tree', 'findings'],
  csvRows: 'tree',
  example: { domain: 'example.com' },
})
