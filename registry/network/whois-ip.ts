import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { IpAddressParam } from '../../runtime/params/ip-address.ts'
import { IpWhoisData } from '../../plugins/rdap/rdap-data.ts'

export default defineEndpoint({
  name: 'network.whois-ip',
  tag: 'network',
  method: 'GET',
  path: '/api/whois/ip/:ip',
  queryAlias: ['ip'],
  summary: 'Registry data for an IP via RDAP: network range and CIDRs, name, holder, country, abuse contact, dates, registry',
  params: z.object({ ip: IpAddressParam }),
  data: IpWhoisData,
  upstreams: ['rdap'],
  cache: { ttl: '6h' },
  cost: 2,
  lists: ['entities', 'events', 'cidrs', 'notices', 'remarks'],
  example: { ip: '1.1.1.1' },
})
