import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnsRecordsData, RECORD_ANSWERS } from './schemas/dns-data.ts'

export default defineEndpoint({
  name: 'dns.caa',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/caa/:domain',
  queryAlias: ['domain'],
  summary: 'Certification Authority Authorization records (RFC 8659): which CAs may issue for the name',
  description:
    "Each record's flags (`critical` for the issuer-critical bit), tag (issue, issuewild, iodef, ...) and value. CAs look for CAA at the name and then each parent up the tree, stopping at the first that has any; this endpoint answers for the name asked only (/api/dns/lookup and the report check the domain). " + RECORD_ANSWERS,
  params: z.object({ domain: DomainName }),
  data: DnsRecordsData,
  upstreams: ['dns'],
  dnsType: 'CAA',
  cache: { ttl: '5m' },
  cost: 1,
  lists: ['records'],
  csvRows: 'records',
  example: { domain: 'example.com' },
})
