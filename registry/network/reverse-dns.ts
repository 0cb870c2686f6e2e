import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { IpAddressParam } from '../../runtime/params/ip-address.ts'
import { ReverseDnsData } from '../dns/schemas/dns-data.ts'

export default defineEndpoint({
  name: 'network.reverse-dns',
  tag: 'network',
  method: 'GET',
  path: '/api/reverse-dns/:ip',
  queryAlias: ['ip'],
  summary: 'PTR names of an IP, each checked for forward confirmation (FCrDNS)',
  description:
    "Looks up the PTR records of the address's in-addr.arpa or ip6.arpa name and resolves each name back, marking those whose addresses include this one (forward-confirmed reverse DNS, which mail receivers check). An address without PTR records is a 200 whose status says nxdomain or nodata. Cached up to 5 minutes.",
  params: z.object({ ip: IpAddressParam }),
  data: ReverseDnsData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['ptr'],
  csvRows: 'ptr',
  example: { ip: '8.8.8.8' },
})
