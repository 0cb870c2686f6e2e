import { z } from 'zod'

// POST /api/batch: many GET calls in one request. The items are checked one by
// one when the batch is planned (plugins/batch): a malformed item is that item's
// error, never the whole batch's, so the body schema takes any JSON values.

const SHAPE_MESSAGE =
  'expected a JSON array of requests (or {"requests": [...]}), each a path like "/api/dns/mx/example.com?fields=records" or {"endpoint": "dns.mx", "params": {"domain": "example.com"}}'

const Requests = z.array(z.unknown(), { error: () => SHAPE_MESSAGE })

/** A JSON array of requests, or {"requests": [...]} (as /api/cidr/summarize takes {"cidrs": [...]}). */
export const BatchBody = z
  .union([Requests, z.object({ requests: Requests }, { error: () => SHAPE_MESSAGE })], { error: () => SHAPE_MESSAGE })
  .transform((body, ctx) => {
    const list = Array.isArray(body) ? body : body.requests
    if (list.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'the batch is empty; send at least one request' })
      return z.NEVER
    }
    return list
  })
  .meta({
    description:
      'The requests, in order (a JSON array, or {"requests": [...]}): each a path of a GET endpoint with its query (`"/api/dns/mx/example.com?fields=records"`), or `{"endpoint": "<name>", "params": {...}}` with the endpoint\'s dotted name (as `meta.endpoint` and /api/endpoints give it) and its path and query parameters and shaping controls by name',
    example: ['/api/dns/mx/example.com?fields=records', { endpoint: 'network.ip', params: { ip: '192.0.2.1', fields: 'bogon' } }],
  })

export const BatchItemError = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
})

export const BatchPagination = z.object({
  total: z.union([z.number().int(), z.string()]),
  limit: z.number().int().optional(),
  offset: z.union([z.number().int(), z.string()]),
  totals: z.record(z.string(), z.number().int()).optional(),
})

export const BatchResult = z
  .object({
    index: z.number().int().meta({ description: 'The position of the request in the body, from 0' }),
    status: z.number().int().meta({ description: 'The HTTP status this request answers on its own' }),
    endpoint: z.string().nullable().meta({ description: 'The dotted name of the endpoint that answered; null when the item names none' }),
    cache: z.enum(['hit', 'miss']).optional().meta({ description: 'Whether the answer came from the cache (successes only), as meta.cache says for a single call' }),
    stale: z.object({ reason: z.string(), expired_at: z.string() }).optional(),
    pagination: BatchPagination.optional(),
    data: z.unknown().optional().meta({ description: "The endpoint's data, shaped by the controls in the item's own path" }),
    error: BatchItemError.optional().meta({ description: 'The error object this request answers on its own (code, message, details)' }),
  })
  .meta({ description: 'One request of the batch: its data, or its error' })

export const BatchData = z.object({
  count: z.number().int().meta({ description: 'Requests in the batch' }),
  succeeded: z.number().int(),
  failed: z.number().int(),
  cost: z.number().int().meta({ description: 'Rate-limit units charged for the batch: the sum of its requests\' costs, at least 1' }),
  results: z.array(BatchResult).meta({ description: 'One per request, in the order of the body' }),
})
