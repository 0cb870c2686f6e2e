import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DmarcData } from './schemas/dmarc-data.ts'

export default defineEndpoint({
  name: 'email.dmarc',
  tag: 'email',
  method: 'GET',
  path: '/api/email/dmarc/:domain',
  queryAlias: ['domain'],
  summary: 'DMARC record inspection: tags, effective policy (with organizational-domain fallback), report destinations and their authorization, findings',
  description:
    "Reads the TXT record at _dmarc.<domain> (falling back to the organizational domain's, by the Public Suffix List) and checks every tag, DMARCbis np, psd and t included. Each external rua/ruf destination is checked for its authorization record at <domain>._report._dmarc.<destination>. No record is a 200 with a finding; cached up to 5 minutes.",
  params: z.object({ domain: DomainName }),
  data: DmarcData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['tags', 'report_destinations', 'findings'],
  example: { domain: 'example.com' },
})
