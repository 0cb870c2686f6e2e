import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { WebHeadersData } from './schemas/web-data.ts'
import { WebTargetParam } from './schemas/web-target.ts'

export default defineEndpoint({
  name: 'web.headers',
  tag: 'web',
  method: 'GET',
  // `**` so a URL may arrive unencoded (/api/web/headers/https://example.com/path).
  path: '/api/web/headers/**:host',
  queryAlias: ['host'],
  summary: 'Status, final URL, HTTP version, response headers and timing (DNS, connect, TLS, first byte) of a site',
  description:
    'host is a name, name:port, IP or http(s) URL. A bare host is asked over https first and over http only when https cannot be reached (port 80: http only). Redirects are followed (at most 10 requests, each target vetted); the body is read up to 256 KiB and the connection then closed.',
  params: z.object({ host: WebTargetParam }),
  data: WebHeadersData,
  upstreams: ['web'],
  cache: { ttl: '1m' },
  cost: 2,
  lists: ['headers', 'redirects'],
  csvRows: 'headers',
  example: { host: 'example.net:8443' },
})
