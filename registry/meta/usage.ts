import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'meta.usage',
  tag: 'meta',
  method: 'GET',
  path: '/api/usage',
  summary: "The caller's tier, rate limit and what is left of it (calling it costs nothing)",
  params: z.object({}),
  data: z.object({
    tier: z.string(),
    key_label: z.string().nullable(),
    identified_by: z.enum(['api_key', 'ip']),
    limit: z.number().int(),
    remaining: z.number().int(),
    reset_seconds: z.number().int(),
    window_seconds: z.number().int(),
    tiers: z.record(z.string(), z.number().int()),
  }),
  cache: false,
  cost: 0,
})
