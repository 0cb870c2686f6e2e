import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { EmailDaneData } from './schemas/dane-data.ts'

export default defineEndpoint({
  name: 'email.dane',
  tag: 'email',
  method: 'GET',
  path: '/api/email/dane/:domain',
  queryAlias: ['domain'],
  summary: 'DANE for SMTP (RFC 7672) on every MX host: _25._tcp TLSA records, their DNSSEC status, and the STARTTLS certificate matched against them',
  description:
    'Reads the MX records (and validates them: DANE applies only to MX hosts learned over DNSSEC), then for each MX host (up to 5, by preference) the TLSA records at `_25._tcp.<host>` with the service\'s own DNSSEC verdict, and the certificate chain the host serves after STARTTLS, matched record by record as a DANE sender would (usages 2 and 3; 0 and 1 are unusable for SMTP). `status` sums the domain up (valid, partial, failing, not_secure, not_used, not_applicable), `score` rates it, `findings` have stable ids. Cached up to 5 minutes.',
  params: z.object({ domain: DomainName }),
  data: EmailDaneData,
  upstreams: ['dns', 'smtp'],
  cache: { ttl: '5m' },
  cost: 5,
  lists: ['hosts', 'findings'],
  csvRows: 'hosts',
  example: { domain: 'example.com' },
})
