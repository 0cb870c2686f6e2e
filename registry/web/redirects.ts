import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { RedirectsData } from './schemas/redirects-data.ts'
import { WebTargetParam } from './schemas/web-target.ts'

export default defineEndpoint({
  name: 'web.redirects',
  tag: 'web',
  method: 'GET',
  path: '/api/web/redirects/**:host',
  queryAlias: ['host'],
  summary: 'The redirect chain hop by hop (at most 10 requests, loops detected, HTTP -> HTTPS upgrade flagged, every hop vetted)',
  description:
    'A bare host starts at http:// (as a browser does with a typed name), so the upgrade to https shows. A hop pointing at a private, loopback or metadata address is the last hop, marked blocked: it is never connected to.',
  params: z.object({ host: WebTargetParam }),
  data: RedirectsData,
  upstreams: ['web'],
  cache: { ttl: '1m' },
  cost: 2,
  lists: ['hops'],
  csvRows: 'hops',
  example: { host: 'http://example.net:8080' },
})
