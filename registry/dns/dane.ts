import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { queryEnum, queryInt } from '../../runtime/params.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DaneHostData } from './schemas/dane-data.ts'

export default defineEndpoint({
  name: 'dns.dane',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/dane/:host',
  queryAlias: ['host'],
  summary: 'DANE for one TLS service (RFC 6698, RFC 7671): its TLSA records, their DNSSEC status, and whether the certificate the host serves matches',
  description:
    'Looks up the TLSA records at `_port._proto.host`, validates them with the service\'s own DNSSEC validator (DANE clients ignore insecure TLSA), decodes each record (usage, selector, matching type) and fetches the certificate chain the host really serves: over SMTP STARTTLS for ports 25 and 587 (RFC 7672 rules: usages 0 and 1 are unusable there), over TLS otherwise. Each record says whether it matches and, for DANE-TA and PKIX usages, whether the chain and name hold; `verdict` sums it up and `findings` have stable ids (dane.no_match, dane.tlsa_not_secure, dane.smtp_pkix_usage, dane.no_rollover_record, ...). For every MX host of a mail domain at once: /api/email/dane. Cached up to 5 minutes (the TLSA TTL).',
  params: z.object({
    host: DomainName,
    port: queryInt({ min: 1, max: 65_535, default: 443, description: 'The service\'s port (25: SMTP with STARTTLS)' }),
    proto: queryEnum(['tcp', 'udp', 'sctp'], { default: 'tcp', description: 'The transport of the TLSA name; only tcp services are probed' }),
  }),
  data: DaneHostData,
  upstreams: ['dns', 'tls'],
  cache: { ttl: '5m' },
  cost: 3,
  lists: ['tlsa.records', 'findings'],
  csvRows: 'findings',
  example: { host: 'valid.tls.test', port: '8443' },
})
