import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DnsRecordTypesData } from '../../plugins/data/data-schemas.ts'

export default defineEndpoint({
  name: 'data.dns-record-types',
  tag: 'data',
  method: 'GET',
  path: '/api/data/dns-record-types',
  summary: 'DNS resource record TYPEs: name, number, meaning, kind, status and RFCs (IANA DNS parameters registry)',
  params: z.object({}),
  data: DnsRecordTypesData,
  cache: { ttl: '1h' },
  cost: 1,
  lists: ['types', 'ranges'],
  csvRows: 'types',
  example: {},
})
