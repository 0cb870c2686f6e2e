import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DomainBlocklistData } from './schemas/blocklist-data.ts'

export default defineEndpoint({
  name: 'security.domain-blocklist',
  tag: 'security',
  method: 'GET',
  path: '/api/security/domain-blocklist/:domain',
  queryAlias: ['domain'],
  summary: 'Domain blocklists (Spamhaus DBL, URIBL, SURBL style; INFRALENS_DOMAIN_BLOCKLIST_ZONES), return codes and bitmasks decoded per list',
  description:
    'The domain is asked under each zone, and for a subdomain its registrable domain too. Refusals (Spamhaus 127.255.255.x, URIBL/SURBL 127.0.0.1) are errors in their row, not listings; every list failing is a 502.',
  params: z.object({ domain: DomainName }),
  data: DomainBlocklistData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['lists'],
  csvRows: 'lists',
  example: { domain: 'dbltest.com' },
})
