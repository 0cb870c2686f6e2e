import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'meta.usage',
  tag: 'meta',
  method: 'GET',
  path: '/api/usage',
  summary: "The caller's tier, rate limit and what is left of it (calling it costs nothing)",
  description:
    "Says who the service takes the caller for (the API key's label, or the client IP: IPv4 address or IPv6 /64) and how much of the current rate-limit window is left, with every tier's limit. Never cached and costs nothing, so it can be polled.",
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
