import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { AsnParam } from '../../plugins/rdap/asn-param.ts'
import { AsnData } from '../../plugins/routing/routing-data.ts'

export default defineEndpoint({
  name: 'network.asn',
  tag: 'network',
  method: 'GET',
  path: '/api/asn/:asn',
  queryAlias: ['asn'],
  summary: 'An ASN: its registration via RDAP (name, holder, country, RIR, dates, contacts) and its routing via RIPEstat (prefixes announced per family, neighbours)',
  params: z.object({ asn: AsnParam }),
  data: AsnData,
  upstreams: ['rdap', 'ripestat'],
  // Routing changes within hours; registration data would keep for 6 h on its own.
  cache: { ttl: '1h' },
  cost: 2,
  lists: ['entities', 'events', 'notices', 'remarks'],
  example: { asn: 'AS13335' },
})
