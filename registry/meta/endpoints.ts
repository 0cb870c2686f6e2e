import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export const EndpointParam = z.object({
  name: z.string(),
  in: z.enum(['path', 'query', 'body']),
  required: z.boolean(),
  type: z.string(),
  description: z.string().optional(),
  default: z.unknown().optional(),
  enum: z.array(z.string()).optional(),
})

export default defineEndpoint({
  name: 'meta.endpoints',
  tag: 'meta',
  method: 'GET',
  path: '/api/endpoints',
  summary: 'Every endpoint of the service: name, method, path, tag, summary, parameters',
  params: z.object({}),
  data: z.array(
    z.object({
      name: z.string(),
      method: z.string(),
      path: z.string(),
      tag: z.string(),
      summary: z.string(),
      params: z.array(EndpointParam),
      query_alias: z.array(z.string()),
      cost: z.number(),
      cache_ttl_seconds: z.number().nullable(),
      lists: z.array(z.string()),
      upstreams: z.array(z.string()),
    }),
  ),
  cache: { ttl: '1h' },
  cost: 1,
})
