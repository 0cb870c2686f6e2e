import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.srv',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/srv/:domain',
  queryAlias: ['domain'],
  summary: 'Service records (RFC 2782): priority, weight, port and target of a service',
  description:
    'Give the service\'s own name, `_service._proto.domain` (for example `_sip._tcp.example.com` or `_imaps._tcp.example.com`); each record has its priority (lower is tried first), weight (shares among equal priorities), port and target host ("." means the service is not offered). ' + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'SRV',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: '_sip._tcp.example.com' },
})
