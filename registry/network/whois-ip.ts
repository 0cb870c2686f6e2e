import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { IpAddressParam } from '../../runtime/params/ip-address.ts'
import { IpWhoisData } from '../domain/schemas/rdap-data.ts'

export default defineEndpoint({
  name: 'network.whois-ip',
  tag: 'network',
  method: 'GET',
  path: '/api/whois/ip/:ip',
  queryAlias: ['ip'],
  summary: 'Registry data for an IP via RDAP: network range and CIDRs, name, holder, country, abuse contact, dates, registry',
  description:
    "The RIR's record of the network holding the address, via RDAP (its server found through the IANA bootstrap files): range and CIDRs, name, holder, country, abuse contact, dates and which registry answered. Special-purpose addresses are a 404 before any query; RDAP failures are a 502. Cached 6 hours.",
  params: z.object({ ip: IpAddressParam }),
  data: IpWhoisData,
  upstreams: ['rdap'],
  cache: { ttl: '6h' },
  cost: 2,
  lists: ['entities', 'events', 'cidrs', 'notices', 'remarks'],
  example: { ip: '1.1.1.1' },
})
