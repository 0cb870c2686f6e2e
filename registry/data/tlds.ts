import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { queryEnum } from '../../runtime/params.ts'
import { TLD_TYPES, TldsData } from './schemas/data-schemas.ts'

export default defineEndpoint({
  name: 'data.tlds',
  tag: 'data',
  method: 'GET',
  path: '/api/data/tlds',
  summary: 'Top-level domains with their IANA type (generic, country-code, sponsored, infrastructure, generic-restricted, test), from the Public Suffix List and the IANA root zone list',
  description:
    "Every top-level domain the Public Suffix List (bundled in tldts) and IANA's root-zone list know, with its type assigned by documented rules (`classification`) and whether it is in the root zone. ?type= keeps one type; the list sorts, pages and comes as CSV.",
  params: z.object({
    type: queryEnum(TLD_TYPES, { description: 'only TLDs of this type' }).optional(),
  }),
  data: TldsData,
  cache: { ttl: '1h' },
  cost: 1,
  lists: ['tlds'],
  csvRows: 'tlds',
  example: { type: 'sponsored' },
})
