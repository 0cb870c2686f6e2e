import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { AsnParam } from '../../plugins/rdap/asn-param.ts'
import { BgpAsnData } from '../../plugins/routing/routing-data.ts'

export default defineEndpoint({
  name: 'network.bgp-asn',
  tag: 'network',
  method: 'GET',
  path: '/api/bgp/asn/:asn',
  queryAlias: ['asn'],
  summary: 'BGP neighbours of an AS by side (upstream, downstream, unknown) with their power, and its announced prefixes (RIPEstat); sort=prefix, limit, offset page the prefixes',
  params: z.object({ asn: AsnParam }),
  data: BgpAsnData,
  upstreams: ['ripestat'],
  cache: { ttl: '10m' },
  cost: 2,
  lists: ['prefixes'],
  example: { asn: 'AS3333' },
})
