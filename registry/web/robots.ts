import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { RobotsData } from './schemas/robots-data.ts'
import { WebTargetParam } from './schemas/web-target.ts'

export default defineEndpoint({
  name: 'web.robots',
  tag: 'web',
  method: 'GET',
  path: '/api/web/robots/**:host',
  queryAlias: ['host'],
  summary: 'robots.txt parsed into user-agent groups, rules and sitemaps, with its syntax problems (RFC 9309)',
  description:
    "Fetched from the host's origin (a path in host is ignored) as a crawler does: up to five redirects, 4xx = everything allowed, 5xx = everything disallowed, 500 KiB parsed.",
  params: z.object({ host: WebTargetParam }),
  data: RobotsData,
  upstreams: ['web'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['groups', 'sitemaps', 'problems', 'other_records'],
  csvRows: 'groups',
  example: { host: 'example.net:8443' },
})
