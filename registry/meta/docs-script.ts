import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'meta.docs-script',
  tag: 'meta',
  method: 'GET',
  path: '/api/docs/scalar.js',
  summary: 'The script of the API reference page: the Scalar API reference browser bundle, served from the installed npm package',
  description:
    'The JavaScript bundle of @scalar/api-reference that /api/docs loads, read from the installed npm package on first use (about 3.5 MB) and sent as-is. Browsers may keep it a day: the page asks for it with the package version in the URL, so an upgrade is fetched anew.',
  params: z.object({}),
  data: z.string(),
  contentType: 'text/javascript; charset=utf-8',
  envelope: false,
  // The cache layer's public max-age lets browsers keep the 3.5 MB bundle.
  cache: { ttl: '1d' },
  cost: 1,
})
