import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { AsnParam } from '../../runtime/params/asn.ts'
import { AsnData } from './schemas/routing-data.ts'

export default defineEndpoint({
  name: 'network.asn',
  tag: 'network',
  method: 'GET',
  path: '/api/asn/:asn',
  queryAlias: ['asn'],
  summary: 'An ASN: its registration via RDAP (name, holder, country, RIR, dates, contacts) and its routing via RIPEstat (prefixes announced per family, neighbours)',
  description:
    "The RIR's autnum record via RDAP (name, holder, country, registry, dates, contacts) with the AS's routing from RIPEstat beside it: prefixes announced per family and neighbours. RDAP decides: its 404 is a 404 and its failure a 502; a RIPEstat call that fails leaves its field null with an entry in `errors`, and that answer is cached 60 seconds instead of an hour.",
  params: z.object({ asn: AsnParam }),
  data: AsnData,
  upstreams: ['rdap', 'ripestat'],
  // Routing changes within hours; registration data would keep for 6 h on its own.
  cache: { ttl: '1h' },
  cost: 2,
  lists: ['entities', 'events', 'notices', 'remarks'],
  example: { asn: 'AS13335' },
})
