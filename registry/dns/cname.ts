import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.cname',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/cname/:domain',
  queryAlias: ['domain'],
  summary: 'The CNAME record of a name (is it an alias, and of what)',
  description:
    'Asks the configured resolvers whether the name is an alias: a CNAME record names its target, and NODATA means the name is not an alias (it may still have other records). ' + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'CNAME',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'www.example.com' },
})
