import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'meta.docs-script',
  tag: 'meta',
  method: 'GET',
  path: '/api/docs/scalar.js',
  summary: 'The script of the API reference page: the Scalar API reference browser bundle, served from the installed npm package',
  params: z.object({}),
  data: z.string(),
  contentType: 'text/javascript; charset=utf-8',
  envelope: false,
  // The cache layer's public max-age lets browsers keep the 3.5 MB bundle.
  cache: { ttl: '1d' },
  cost: 1,
})
