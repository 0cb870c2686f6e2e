import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { ResolversData } from '../../plugins/data/data-schemas.ts'

export default defineEndpoint({
  name: 'data.resolvers',
  tag: 'data',
  method: 'GET',
  path: '/api/data/resolvers',
  summary: 'The public DNS resolvers /api/dns/propagation asks',
  params: z.object({}),
  data: ResolversData,
  cache: { ttl: '1h' },
  cost: 1,
  lists: ['resolvers'],
  csvRows: 'resolvers',
  example: {},
})
