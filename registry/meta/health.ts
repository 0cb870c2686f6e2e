import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'meta.health',
  tag: 'meta',
  method: 'GET',
  path: '/api/health',
  summary: 'Liveness: the process answers; version and uptime',
  params: z.object({}),
  data: z.object({
    status: z.literal('ok'),
    version: z.string(),
    uptime_seconds: z.number(),
    started_at: z.string(),
    node: z.string(),
  }),
  cache: false,
  cost: 0,
})
