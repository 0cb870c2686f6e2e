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
  description:
    'The registry as data: for each endpoint its name, method, path, tag, summary, parameters (type, default, allowed values), query aliases, rate-limit cost, cache TTL, lists and upstreams, from the same descriptors as /api/openapi.json. The data is a list, so sort, limit and offset apply to it.',
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
