import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'meta.docs',
  tag: 'meta',
  method: 'GET',
  path: '/api/docs',
  summary: 'Interactive API reference (HTML): every endpoint by tag, its parameters, example requests and answers, and "try it"',
  description:
    'An HTML page rendering /api/openapi.json with the Scalar API reference, whose script is served by this service ' +
    '(/api/docs/scalar.js): nothing is loaded from elsewhere. "Try it" sends requests to this same server.',
  params: z.object({}),
  data: z.string(),
  contentType: 'text/html; charset=utf-8',
  envelope: false,
  cache: { ttl: '1h' },
  cost: 1,
})
