import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { ReverseName } from './schemas/reverse-name.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.ptr',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/ptr/:domain',
  queryAlias: ['domain'],
  summary: 'Pointer records: the names a reverse name (or an IP address) points to',
  description:
    'Give an IP address (it is turned into its in-addr.arpa or ip6.arpa name) or the reverse name itself. The records as DNS has them, without checking that the names lead back: for forward-confirmed reverse DNS use /api/reverse-dns. ' + RECORD_ANSWERS,
  params: z.object({ domain: ReverseName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'PTR',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: '8.8.8.8' },
})
