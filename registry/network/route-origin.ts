import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { CidrParam } from '../../runtime/params/cidr.ts'
import { RouteOriginData } from './schemas/route-origin-data.ts'

export default defineEndpoint({
  name: 'network.route-origin',
  tag: 'network',
  method: 'GET',
  // `**` so the prefix's "/" may arrive unencoded, as for /api/bgp/prefix.
  path: '/api/network/route-origin/**:prefix',
  queryAlias: ['prefix'],
  summary: "A prefix's BGP origin AS(es) against the registration of its allocation (RDAP holder, registered origin ASNs), the holder of each origin AS, and the VRPs: a mismatch is a hijack or leak signal, shown with its evidence",
  description:
    'Asks /api/bgp/prefix (origins, covering route, more specifics), /api/whois/ip for the allocation covering the prefix (holder, ARIN originAS list), the RDAP registration of each origin AS, and /api/rpki for each (route, origin). Findings: an RPKI-invalid origin, an origin the allocation does not register, an origin held by another organization with nothing vouching for it, a more specific announced by an unknown AS, several origins, no route. A part that fails is an entry in `errors` and its fields are null; such an answer is cached 60 seconds. Costs 6 units.',
  params: z.object({ prefix: CidrParam }),
  data: RouteOriginData,
  upstreams: ['ripestat', 'rdap', 'rpki'],
  cache: { ttl: '10m' },
  cost: 6,
  lists: ['origins', 'more_specifics', 'findings', 'errors'],
  csvRows: 'origins',
  example: { prefix: '193.0.0.0/21' },
})
