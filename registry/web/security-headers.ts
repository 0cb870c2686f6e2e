import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { SecurityHeadersData } from './schemas/security-headers-data.ts'
import { WebTargetParam } from './schemas/web-target.ts'

export default defineEndpoint({
  name: 'web.security-headers',
  tag: 'web',
  method: 'GET',
  path: '/api/web/security-headers/**:host',
  queryAlias: ['host'],
  summary: 'HSTS, CSP, framing, X-Content-Type-Options, Referrer-Policy, Permissions-Policy, COOP/COEP/CORP and cookie flags, graded A+..F with the points and reason of every check',
  description:
    'The page a browser ends up on (redirects followed) is graded: the score starts at 100 and each check takes points away with its reason; A+ is 100, A >= 90, B >= 75, C >= 60, D >= 45, E >= 30, F below. A bare host is asked over https first.',
  params: z.object({ host: WebTargetParam }),
  data: SecurityHeadersData,
  upstreams: ['web'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['checks', 'findings', 'cookies', 'redirects'],
  csvRows: 'checks',
  example: { host: 'example.net:8443' },
})
