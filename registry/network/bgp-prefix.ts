import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { CidrParam } from '../../runtime/params/cidr.ts'
import { BgpPrefixData } from './schemas/routing-data.ts'

export default defineEndpoint({
  name: 'network.bgp-prefix',
  tag: 'network',
  method: 'GET',
  // `**` so the prefix's "/" may arrive unencoded (/api/bgp/prefix/193.0.0.0/21) as well as %2F.
  path: '/api/bgp/prefix/**:prefix',
  queryAlias: ['prefix'],
  summary: 'BGP routing of a prefix (RIPEstat): origin ASes with multi-origin flagged, the covering route, less and more specifics, visibility',
  description:
    'Asks RIPEstat about the prefix: whether it is announced, its origin ASes (more than one is flagged), the covering route when the prefix itself is not announced, less and more specific routes, and how many RIS peers see it. Host bits are cleared, and the prefix may be sent with its / unencoded. RIPEstat failing is a 502; cached 10 minutes.',
  params: z.object({ prefix: CidrParam }),
  data: BgpPrefixData,
  upstreams: ['ripestat'],
  cache: { ttl: '10m' },
  cost: 2,
  lists: ['origins', 'less_specifics', 'more_specifics'],
  example: { prefix: '193.0.0.0/21' },
})
