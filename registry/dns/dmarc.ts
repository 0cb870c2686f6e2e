import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DmarcData } from '../email/schemas/dmarc-data.ts'

export default defineEndpoint({
  name: 'dns.dmarc',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/dmarc/:domain',
  queryAlias: ['domain'],
  summary: 'The DMARC record parsed and validated (RFC 7489, DMARCbis tags noted), with the policy that applies to the domain',
  description:
    "Reads the TXT record at _dmarc.<domain>, or the organizational domain's record when there is none, parses every tag and gives the policy receivers apply (sp from p, np from sp), the report destinations with their external authorization, and findings. The same check as /api/email/dmarc; no record is a 200 with a finding. Cached up to 5 minutes.",
  params: z.object({ domain: DomainName }),
  data: DmarcData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['tags', 'report_destinations', 'findings'],
  example: { domain: 'example.com' },
})
