import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DkimData, DkimParams } from './schemas/dkim-data.ts'

export default defineEndpoint({
  name: 'email.dkim',
  tag: 'email',
  method: 'GET',
  path: '/api/email/dkim/:domain',
  queryAlias: ['domain'],
  summary: 'DKIM keys under common selectors (and ?selectors=): key type and size read from the key, revoked, testing and weak keys flagged',
  description:
    "Looks up <selector>._domainkey.<domain> for 42 common selectors plus up to 20 given in ?selectors=, all in parallel, and reads each key's type and size from the key itself. DNS cannot list a domain's selectors, so a key under a selector not tried is not found: the s= tag of a signed message names the one to add. Cached up to 5 minutes.",
  params: DkimParams,
  data: DkimData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 3,
  lists: ['keys', 'findings'],
  csvRows: 'keys',
  example: { domain: 'example.com', selectors: 'mail2026' },
})
