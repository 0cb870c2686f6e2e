import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { SpfData, SpfParams } from './schemas/spf-data.ts'

export default defineEndpoint({
  name: 'email.spf',
  tag: 'email',
  method: 'GET',
  path: '/api/email/spf/:domain',
  queryAlias: ['domain'],
  summary: 'SPF record inspection: every term parsed, the include/redirect tree with lookup and void-lookup counts, findings; check_host() for ?ip=',
  description:
    "Reads the domain's SPF record and follows every include and redirect: each term parsed, the tree as a flat list with the DNS-querying terms numbered in evaluation order, and findings against RFC 7208 (10 lookups, 2 void lookups, +all, ptr, loops, ...). With ?ip= (and sender= or helo=) it runs check_host() and returns the result with the matching term and a trace.",
  params: SpfParams,
  data: SpfData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['tree', 'findings'],
  csvRows: 'tree',
  example: { domain: 'example.com', ip: '192.0.2.1' },
})
