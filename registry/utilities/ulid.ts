import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'utilities.ulid',
  tag: 'utilities',
  method: 'GET',
  path: '/api/ulid',
  summary: 'One ULID (time-ordered, Crockford base32) with the time it encodes',
  description:
    "A new ULID: 48 bits of Unix time in milliseconds and 80 random bits as 26 Crockford base32 characters, so ULIDs sort by creation time; the service's generator is monotonic within a millisecond. The answer also decodes the time it carries. Never cached.",
  params: z.object({}),
  data: z.object({ ulid: z.string(), timestamp: z.string(), time_ms: z.number().int() }),
  cache: false,
  cost: 1,
})
