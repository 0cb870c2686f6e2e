import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { HttpStatusCodesData } from '../../plugins/data/data-schemas.ts'

export default defineEndpoint({
  name: 'data.http-status-codes',
  tag: 'data',
  method: 'GET',
  path: '/api/data/http-status-codes',
  summary: 'HTTP status codes: code, reason, class and defining RFC (IANA HTTP status code registry)',
  params: z.object({}),
  data: HttpStatusCodesData,
  cache: { ttl: '1h' },
  cost: 1,
  lists: ['codes'],
  csvRows: 'codes',
  example: {},
})
