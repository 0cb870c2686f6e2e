import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { IpAddressParam } from '../../runtime/params/ip-address.ts'
import { IpData } from '../../plugins/network/network-data.ts'

export default defineEndpoint({
  name: 'network.ip',
  tag: 'network',
  method: 'GET',
  path: '/api/ip/:ip',
  queryAlias: ['ip'],
  summary: 'An IPv4 or IPv6 address: its forms, reverse-pointer name, IANA special-purpose class, bogon flag, and ASN and country from bundled offline data',
  params: z.object({ ip: IpAddressParam }),
  data: IpData,
  cache: false,
  cost: 1,
  example: { ip: '8.8.8.8' },
})
