import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.ns',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/ns/:domain',
  queryAlias: ['domain'],
  summary: 'Authoritative name servers',
  description:
    'Returns the NS records the zone publishes for the name, as the configured resolver sees them. To compare them with the delegation at the registry, see /api/domain/nameservers. ' + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'NS',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
