import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'meta.ready',
  tag: 'meta',
  method: 'GET',
  path: '/api/ready',
  summary: 'Readiness: data loaded and shared stores reachable (503 when not)',
  params: z.object({}),
  data: z.object({
    ready: z.boolean(),
    checks: z.array(z.object({ name: z.string(), ok: z.boolean(), degraded: z.string().optional(), error: z.string().optional(), ms: z.number() })),
  }),
  cache: false,
  unavailable: 'Not ready: a readiness check failed (data not loaded yet, ...); details.checks has every check',
  cost: 0,
  lists: ['checks'],
})
