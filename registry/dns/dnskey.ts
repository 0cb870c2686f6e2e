import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.dnskey',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/dnskey/:domain',
  queryAlias: ['domain'],
  summary: "A zone's public DNSSEC keys (RFC 4034 §2), with key tags and roles",
  description:
    "Each key's flags (`zone_key`, `secure_entry_point` for a KSK, `revoked`), protocol, algorithm, the key in base64 and its key tag (RFC 4034 Appendix B), which DS and RRSIG records refer to. Ask for the zone apex. " + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'DNSKEY',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
