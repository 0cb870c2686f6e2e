import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { HttpStatusCodesData } from './schemas/data-schemas.ts'

export default defineEndpoint({
  name: 'data.http-status-codes',
  tag: 'data',
  method: 'GET',
  path: '/api/data/http-status-codes',
  summary: 'HTTP status codes: code, reason, class and defining RFC (IANA HTTP status code registry)',
  description:
    "The IANA HTTP Status Code registry, bundled with the service: every assigned code with its reason phrase (as Node's HTTP server writes it), its class (1xx to 5xx) and the RFC that defines it. Sort, page or ask for CSV (one row per code).",
  params: z.object({}),
  data: HttpStatusCodesData,
  cache: { ttl: '1h' },
  cost: 1,
  lists: ['codes'],
  csvRows: 'codes',
  example: {},
})
