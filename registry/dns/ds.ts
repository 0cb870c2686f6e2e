import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.ds',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/ds/:domain',
  queryAlias: ['domain'],
  summary: "Delegation signer records (RFC 4034 §5): the parent zone's digests of a signed child zone's keys",
  description:
    "The DS RRset lives on the parent side of the zone cut, so the resolver answers it from the parent zone. Each record's key tag, algorithm, digest type (1 SHA-1, 2 SHA-256, 4 SHA-384) and digest in hex. Whether they match the child's DNSKEYs and validate: /api/dns/dnssec; as the registry holds them: /api/domain/delegation. " + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'DS',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
