import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { DnssecData } from './schemas/dnssec-data.ts'
import { recordTypeParam } from './schemas/record-type.ts'

export default defineEndpoint({
  name: 'dns.dnssec',
  tag: 'dns',
  method: 'GET',
  path: '/api/dns/dnssec/:domain',
  queryAlias: ['domain'],
  summary: 'DNSSEC verdict on an RRset (A unless `type` says otherwise), validated locally from the trust anchor down: secure, insecure, bogus or indeterminate, with the chain',
  description:
    'Walks the chain of trust from the trust anchor (INFRALENS_TRUST_ANCHORS; the IANA root KSKs by default) through every zone cut: DS in the parent, DNSKEY in the child, signatures and their validity windows, NSEC/NSEC3 proofs for missing DS records and for NODATA/NXDOMAIN answers. The resolver is asked with DO+CD, so its own validation plays no part. `type` picks the RRset judged (A by default): TLSA for DANE, DS, MX or any other it decodes.',
  params: z.object({ domain: DomainName, type: recordTypeParam({ default: 'A', description: 'The RRset to validate (DS is judged in the parent zone, where it lives)' }) }),
  data: DnssecData,
  upstreams: ['dns'],
  cache: { ttl: '5m' },
  cost: 2,
  lists: ['chain', 'findings'],
  csvRows: 'chain',
  example: { domain: 'example.com' },
})
