import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { queryEnum } from '../../runtime/params.ts'

export const UuidVersion = queryEnum(['4', '7'], {
  default: '4',
  description: '4: random (RFC 9562 §5.4); 7: time-ordered, sortable by creation time (RFC 9562 §5.7)',
})

export default defineEndpoint({
  name: 'utilities.uuid',
  tag: 'utilities',
  method: 'GET',
  path: '/api/uuid',
  summary: 'One UUID, version 4 (random) or 7 (time-ordered)',
  description:
    'A new UUID made by the service: version 4 carries 122 random bits; version 7 starts with the Unix time in milliseconds, so version 7 UUIDs sort by creation time (RFC 9562). Never cached.',
  params: z.object({ version: UuidVersion }),
  data: z.object({
    uuid: z.string().meta({ example: '0192f5a4-8c1e-7b3a-9f2d-4e5a6b7c8d9e' }),
    version: z.number().int(),
  }),
  cache: false,
  cost: 1,
  example: { version: '7' },
})
