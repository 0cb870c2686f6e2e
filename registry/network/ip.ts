import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { IpAddressParam } from '../../runtime/params/ip-address.ts'
import { IpData } from './schemas/network-data.ts'

export default defineEndpoint({
  name: 'network.ip',
  tag: 'network',
  method: 'GET',
  path: '/api/ip/:ip',
  queryAlias: ['ip'],
  summary: 'An IPv4 or IPv6 address: its forms, reverse-pointer name, IANA special-purpose class, bogon flag, and ASN and country from bundled offline data',
  description:
    'Computed locally from the address and bundled data, no upstream: compressed, expanded, decimal, hex and binary forms, the reverse-pointer name, every IANA special-purpose entry containing it, the bogon verdict, the IPv4 inside mapped, NAT64, 6to4 or Teredo addresses, and ASN and country (`data_source` names the data). Addresses are strict: 01.2.3.4 or 127.1 is a 400.',
  params: z.object({ ip: IpAddressParam }),
  data: IpData,
  cache: false,
  cost: 1,
  example: { ip: '8.8.8.8' },
})
