import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.https',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/https/:domain',
  queryAlias: ['domain'],
  summary: 'HTTPS service binding records (RFC 9460): ALPN, port, address hints and ECH for a site',
  description:
    'Each record\'s priority (0 is AliasMode: `target` names where to look instead), target ("." is the name itself) and SvcParams decoded: alpn, no-default-alpn, port, ipv4hint, ipv6hint, ech (base64), mandatory, dohpath. Browsers ask for HTTPS beside A/AAAA to learn HTTP/3 support and ECH keys before they connect. ' + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'HTTPS',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
