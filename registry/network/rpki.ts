import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { CidrParam } from '../../runtime/params/cidr.ts'
import { AsnParam } from '../../runtime/params/asn.ts'
import { RpkiData } from './schemas/routing-data.ts'

export default defineEndpoint({
  name: 'network.rpki',
  tag: 'network',
  method: 'GET',
  path: '/api/rpki/**:prefix',
  queryAlias: ['prefix'],
  summary: 'RPKI route origin validation (RFC 6811) of a prefix against the local VRP set: valid, invalid (as or length) or not-found per origin, with the covering VRPs',
  description:
    'With ?asn= the verdict is for that origin; without it, for every origin RIPEstat sees announcing exactly this prefix. ' +
    'Validation is local (INFRALENS_VRP_URL, refreshed in the background); until a VRP set is loaded the answer is 503.',
  params: z.object({ prefix: CidrParam, asn: AsnParam.optional() }),
  data: RpkiData,
  upstreams: ['rpki', 'ripestat'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['origins', 'covering_vrps'],
  example: { prefix: '193.0.0.0/21' },
})
