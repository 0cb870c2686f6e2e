import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { BogonsData } from '../../plugins/data/data-schemas.ts'

export default defineEndpoint({
  name: 'data.bogons',
  tag: 'data',
  method: 'GET',
  path: '/api/data/bogons',
  summary: 'IPv4 and IPv6 bogon and special-purpose prefixes from the IANA registries, each with its bogon verdict',
  params: z.object({}),
  data: BogonsData,
  cache: { ttl: '1h' },
  cost: 1,
  lists: ['prefixes'],
  csvRows: 'prefixes',
  example: {},
})
