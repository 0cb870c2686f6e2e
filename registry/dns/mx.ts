import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.mx',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/mx/:domain',
  queryAlias: ['domain'],
  summary: 'Mail exchanger records with preferences',
  description:
    'Returns the name\'s MX records as the resolver gives them, each with its preference (lower is tried first) and exchange host; a null MX (exchange ".") says the domain takes no mail. For each host resolved and checked, see /api/email/mx. ' + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'MX',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
