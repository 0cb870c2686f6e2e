import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'utilities.ulid',
  tag: 'utilities',
  method: 'GET',
  path: '/api/ulid',
  summary: 'One ULID (time-ordered, Crockford base32) with the time it encodes',
  params: z.object({}),
  data: z.object({ ulid: z.string(), timestamp: z.string(), time_ms: z.number().int() }),
  cache: false,
  cost: 1,
})
