import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { z } from 'zod'
import { BatchBody, BatchData } from './schemas/batch-data.ts'

export default defineEndpoint({
  name: 'meta.batch',
  tag: 'meta',
  method: 'POST',
  path: '/api/batch',
  summary: 'Many GET calls in one request: each answered as on its own, through the same validation, cache and coalescing, listed in order',
  description:
    'Each request runs as the single call would (its own validation, cache entry and shaping controls: fields, exclude, sort, order, limit, offset) and gets its status and data or error object; a bad request is its own error, never the batch\'s. Requests run 16 at a time, at most 4 at once on one target (domain or address), under one deadline. The batch is charged the sum of its requests\' costs before anything runs. format= applies to the whole answer (csv: one row per request); `Accept: application/x-ndjson` streams one line per request as each finishes. A batch may not hold POST endpoints (this one included) or the CPU-pool endpoints; at most INFRALENS_BATCH_LIMITS requests per tier (413 past it).',
  params: z.object({ body: BatchBody }),
  data: BatchData,
  body: { kind: 'json', maxBytes: 2 * 1024 * 1024 },
  cache: false,
  cost: 1,
  inputCost: "The sum of the requests' costs (each endpoint's x-cost; a path no endpoint answers costs 0), at least 1, charged before anything runs",
  lists: ['results'],
  csvRows: 'results',
  stream: 'results',
  example: {
    body: '["/api/dns/mx/example.com?fields=records", {"endpoint": "network.ip", "params": {"ip": "192.0.2.1", "fields": "ip,classification.class,bogon.bogon"}}, "/api/dns/a/example.com?fields=records.address", "/api/ip/192.0.2.300"]',
  },
})
