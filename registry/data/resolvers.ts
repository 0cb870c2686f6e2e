import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { ResolversData } from './schemas/data-schemas.ts'

export default defineEndpoint({
  name: 'data.resolvers',
  tag: 'data',
  method: 'GET',
  path: '/api/data/resolvers',
  summary: 'The public DNS resolvers /api/dns/propagation asks',
  description:
    "The name, address and port of each resolver in this deployment's INFRALENS_PROPAGATION_RESOLVERS (or the built-in public list when it is unset), i.e. who answers in /api/dns/propagation. Configuration, not a lookup: nothing is asked.",
  params: z.object({}),
  data: ResolversData,
  cache: { ttl: '1h' },
  cost: 1,
  lists: ['resolvers'],
  csvRows: 'resolvers',
  example: {},
})
