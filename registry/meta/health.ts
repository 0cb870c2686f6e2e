import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'meta.health',
  tag: 'meta',
  method: 'GET',
  path: '/api/health',
  summary: 'Liveness: the process answers; version and uptime',
  description:
    "Answers as long as the process runs, without asking any upstream: the version, when the process started and how long ago, and the Node.js version. Never cached and free of rate-limit cost; whether the service can answer everything is /api/ready's question.",
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
