import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { IpAddressParam } from '../../runtime/params/ip-address.ts'
import { ReverseDnsData } from '../../plugins/dns/dns-data.ts'

export default defineEndpoint({
  name: 'network.reverse-dns',
  tag: 'network',
  method: 'GET',
  path: '/api/reverse-dns/:ip',
  queryAlias: ['ip'],
  summary: 'PTR names of an IP, each checked for forward confirmation (FCrDNS)',
  params: z.object({ ip: IpAddressParam }),
  data: ReverseDnsData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['ptr'],
  csvRows: 'ptr',
  example: { ip: '8.8.8.8' },
})
