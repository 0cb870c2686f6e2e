import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { queryInt } from '../../runtime/params.ts'

export default defineEndpoint({
  name: 'utilities.ulid-bulk',
  tag: 'utilities',
  method: 'GET',
  path: '/api/ulid/bulk',
  summary: 'Up to 1000 monotonic ULIDs in one call',
  description:
    "Makes count ULIDs (default 10) with the service's monotonic generator: within one millisecond each is the previous one plus one, so the list is strictly increasing and sorts in creation order. Never cached; format=csv gives one per line.",
  params: z.object({ count: queryInt({ min: 1, max: 1000, default: 10, description: 'how many ULIDs, 1-1000' }) }),
  data: z.object({ count: z.number().int(), ulids: z.array(z.string()) }),
  cache: false,
  cost: 1,
  lists: ['ulids'],
  csvRows: 'ulids',
  example: { count: '5' },
})
