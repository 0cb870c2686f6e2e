import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DnsRecordTypesData } from './schemas/data-schemas.ts'

export default defineEndpoint({
  name: 'data.dns-record-types',
  tag: 'data',
  method: 'GET',
  path: '/api/data/dns-record-types',
  summary: 'DNS resource record TYPEs: name, number, meaning, kind, status and RFCs (IANA DNS parameters registry)',
  description:
    "The IANA DNS parameters registry of resource record TYPEs, bundled with the service: each type's mnemonic, number, meaning, kind, status (e.g. obsolete or experimental) and defining RFCs, plus the registry's reserved and private-use ranges. Sort, page or ask for CSV (one row per type).",
  params: z.object({}),
  data: DnsRecordTypesData,
  cache: { ttl: '1h' },
  cost: 1,
  lists: ['types', 'ranges'],
  csvRows: 'types',
  example: {},
})
