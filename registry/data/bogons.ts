import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { BogonsData } from './schemas/data-schemas.ts'

export default defineEndpoint({
  name: 'data.bogons',
  tag: 'data',
  method: 'GET',
  path: '/api/data/bogons',
  summary: 'IPv4 and IPv6 bogon and special-purpose prefixes from the IANA registries, each with its bogon verdict',
  description:
    'Lists the prefixes of the IANA IPv4 and IPv6 special-purpose and address-space registries, each with whether it is a bogon (never a legitimate source or destination on the public internet) and why. Built from bundled copies, no upstream; `sources` names them. The list sorts, pages and comes as CSV, one row per prefix.',
  params: z.object({}),
  data: BogonsData,
  cache: { ttl: '1h' },
  cost: 1,
  lists: ['prefixes'],
  csvRows: 'prefixes',
  example: {},
})
