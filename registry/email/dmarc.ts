import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DmarcData } from '../../plugins/email/dmarc/dmarc-data.ts'

export default defineEndpoint({
  name: 'email.dmarc',
  tag: 'email',
  method: 'GET',
  path: '/api/email/dmarc/:domain',
  queryAlias: ['domain'],
  summary: 'DMARC record inspection: tags, effective policy (with organizational-domain fallback), report destinations and their authorization, findings',
  params: z.object({ domain: DomainName }),
  data: DmarcData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['tags', 'report_destinations', 'findings'],
  example: { domain: 'example.com' },
})
