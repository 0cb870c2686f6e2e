import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'utilities.myip',
  tag: 'utilities',
  method: 'GET',
  path: '/api/myip',
  summary: "The caller's IP address as the service sees it",
  params: z.object({}),
  data: z.object({ ip: z.string(), version: z.union([z.literal(4), z.literal(6)]).nullable() }),
  cache: false,
  cost: 1,
})
