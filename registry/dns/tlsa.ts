import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.tlsa',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/tlsa/:domain',
  queryAlias: ['domain'],
  summary: 'TLSA records (RFC 6698): the certificates or keys a TLS service pins for DANE',
  description:
    "Give the service's name, `_port._proto.host` (`_443._tcp.www.example.com`, `_25._tcp.mail.example.com`); each record's usage (0 PKIX-TA, 1 PKIX-EE, 2 DANE-TA, 3 DANE-EE), selector (0 the whole certificate, 1 its public key), matching type (0 exact, 1 SHA-256, 2 SHA-512) and association data in hex. Whether they are DNSSEC-secure and match the certificate the host serves: /api/dns/dane. " + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'TLSA',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: '_443._tcp.example.com' },
})
