import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DkimData, DkimParams } from '../../plugins/email/dkim/dkim-data.ts'

export default defineEndpoint({
  name: 'email.dkim',
  tag: 'email',
  method: 'GET',
  path: '/api/email/dkim/:domain',
  queryAlias: ['domain'],
  summary: 'DKIM keys under common selectors (and ?selectors=): key type and size read from the key, revoked, testing and weak keys flagged',
  params: DkimParams,
  data: DkimData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 3,
  lists: ['keys', 'findings'],
  csvRows: 'keys',
  example: { domain: 'example.com', selectors: 'mail2026' },
})
