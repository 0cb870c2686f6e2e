import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { SpfData, SpfParams } from '../../plugins/email/spf/spf-data.ts'

export default defineEndpoint({
  name: 'dns.spf',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/spf/:domain',
  queryAlias: ['domain'],
  summary: 'The SPF record parsed and validated (RFC 7208), with its include tree and lookup counts; check_host() for ?ip=',
  params: SpfParams,
  data: SpfData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['tree', 'findings'],
  csvRows: 'tree',
  example: { domain: 'example.com' },
})
