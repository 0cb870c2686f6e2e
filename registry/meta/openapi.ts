import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'meta.openapi',
  tag: 'meta',
  method: 'GET',
  path: '/api/openapi.json',
  summary: 'OpenAPI 3.1 description of every endpoint, generated from the registry',
  description: 'Served without the envelope so OpenAPI tools can read it directly; format=yaml gives the YAML form.',
  params: z.object({}),
  data: z.record(z.string(), z.unknown()),
  cache: { ttl: '1h' },
  cost: 1,
  envelope: false,
})
