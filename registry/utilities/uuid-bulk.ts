import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { queryInt } from '../../runtime/params.ts'
import { UuidVersion } from './uuid.ts'

export default defineEndpoint({
  name: 'utilities.uuid-bulk',
  tag: 'utilities',
  method: 'GET',
  path: '/api/uuid/bulk',
  summary: 'Up to 1000 UUIDs in one call (version 7 ones are strictly increasing)',
  description:
    "Makes count UUIDs (default 10) of one version: random version 4, or version 7, which starts with the Unix time in milliseconds; a call's version 7 UUIDs are strictly increasing. Never cached; format=csv gives one per line.",
  params: z.object({
    count: queryInt({ min: 1, max: 1000, default: 10, description: 'how many UUIDs, 1-1000' }),
    version: UuidVersion,
  }),
  data: z.object({ version: z.number().int(), count: z.number().int(), uuids: z.array(z.string()) }),
  cache: false,
  cost: 1,
  lists: ['uuids'],
  csvRows: 'uuids',
  example: { count: '5', version: '4' },
})
