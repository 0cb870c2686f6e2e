import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.txt',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/txt/:domain',
  queryAlias: ['domain'],
  summary: 'TXT records, strings unquoted and joined (RFC 7208 §3.3)',
  description:
    'Returns every TXT record of the name (SPF, domain verification tokens and the like), each as `text` with its character-strings joined without a space, the way SPF and DMARC read them, and as the separate `strings`. ' + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'TXT',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
