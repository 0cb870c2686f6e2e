import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { queryEnum } from '../../runtime/params.ts'
import { TLD_TYPES, TldsData } from '../../plugins/data/data-schemas.ts'

export default defineEndpoint({
  name: 'data.tlds',
  tag: 'data',
  method: 'GET',
  path: '/api/data/tlds',
  summary: 'Top-level domains with their IANA type (generic, country-code, sponsored, infrastructure, generic-restricted, test), from the Public Suffix List and the IANA root zone list',
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
