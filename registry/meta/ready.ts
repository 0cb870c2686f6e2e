import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'meta.ready',
  tag: 'meta',
  method: 'GET',
  path: '/api/ready',
  summary: 'Readiness: data loaded and shared stores reachable (503 when not)',
  description:
    'Runs every readiness check the plugins register (the IP data loaded, the RPKI VRP set, shared stores such as Redis reachable) and reports each with its duration; a degraded check still counts as ready. When a check fails the answer is a 503 with every check in details.checks, so a load balancer can hold traffic back. Never cached, costs nothing.',
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
