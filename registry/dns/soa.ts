import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.soa',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/soa/:domain',
  queryAlias: ['domain'],
  summary: "The zone's start of authority: primary server, contact, serial and timers",
  description:
    "mname (the primary name server), rname (the contact mailbox as a name), serial, refresh, retry, expire and minimum (the negative-caching TTL, RFC 2308). A name that is not a zone apex has no SOA of its own: the answer is NODATA. Each authoritative server's own serial: /api/domain/delegation. " + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'SOA',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
