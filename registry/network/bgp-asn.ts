import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { AsnParam } from '../../runtime/params/asn.ts'
import { BgpAsnData } from './schemas/routing-data.ts'

export default defineEndpoint({
  name: 'network.bgp-asn',
  tag: 'network',
  method: 'GET',
  path: '/api/bgp/asn/:asn',
  queryAlias: ['asn'],
  summary: 'BGP neighbours of an AS by side (upstream, downstream, unknown) with their power, and its announced prefixes (RIPEstat); sort=prefix, limit, offset page the prefixes',
  description:
    "Asks RIPEstat for the AS's neighbours, split by side and sorted by power, and for every prefix it announces, in address order. Announced-prefix lists can be long: sort=prefix, limit and offset page them, with the total in meta.pagination. RIPEstat failing is a 502 (details.upstream: ripestat); cached 10 minutes.",
  params: z.object({ asn: AsnParam }),
  data: BgpAsnData,
  upstreams: ['ripestat'],
  cache: { ttl: '10m' },
  cost: 2,
  lists: ['prefixes'],
  example: { asn: 'AS3333' },
})
