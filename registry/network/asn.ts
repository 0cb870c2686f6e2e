import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { AsnParam } from '../../plugins/rdap/asn-param.ts'
import { AsnRegistrationData } from '../../plugins/rdap/rdap-data.ts'

export default defineEndpoint({
  name: 'network.asn',
  tag: 'network',
  method: 'GET',
  path: '/api/asn/:asn',
  queryAlias: ['asn'],
  summary: 'Registration of an ASN via RDAP: name, holder, country, RIR, registration dates, contacts',
  params: z.object({ asn: AsnParam }),
  data: AsnRegistrationData,
  upstreams: ['rdap'],
  cache: { ttl: '6h' },
  cost: 2,
  lists: ['entities', 'events', 'notices', 'remarks'],
  example: { asn: 'AS13335' },
})
