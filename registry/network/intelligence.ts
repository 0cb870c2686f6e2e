import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { IpAddressParam } from '../../runtime/params/ip-address.ts'
import { queryBoolean } from '../../runtime/params/query-boolean.ts'
import { IntelligenceData } from './schemas/routing-data.ts'

export default defineEndpoint({
  name: 'network.intelligence',
  tag: 'network',
  method: 'GET',
  path: '/api/network/intelligence/:ip',
  queryAlias: ['ip'],
  summary: 'Everything about one IP in one call: class and bogon flag, ASN and country (offline data), PTR, covering BGP route and origins, its RPKI state, anycast flag; a failed part is null with an entry in errors',
  description:
    'Asks every source about one address at once: IANA classification and bogon verdict, ASN and country from bundled offline data, PTR names with forward confirmation, the covering BGP route and its origins (RIPEstat), their RPKI state, and the documented-anycast list. Each networked part has its own deadline; one that fails is null with an entry in `errors`, and the answer is then cached 60 seconds instead of 10 minutes. Bogons are not asked about. With `?origin_check=true` the covering route\'s origins are also checked against the registration of the allocation and the VRPs (/api/network/route-origin of the route, `origin_check`): that costs RDAP questions, so it is asked for, not done by default.',
  params: z.object({
    ip: IpAddressParam,
    origin_check: queryBoolean({ default: false, description: 'also check the route\'s origin AS(es) against the allocation\'s RDAP registration and the VRPs (origin_check)' }),
  }),
  data: IntelligenceData,
  upstreams: ['dns', 'ripestat', 'rpki'],
  cache: { ttl: '10m' },
  cost: 3,
  lists: ['errors', 'skipped'],
  example: { ip: '8.8.8.8' },
})
