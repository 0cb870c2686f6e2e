import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { HttpsPortParam } from '../flagship/schemas/port-param.ts'
import { IssuanceData } from './schemas/issuance-data.ts'

export default defineEndpoint({
  name: 'domain.issuance',
  tag: 'domain',
  method: 'GET',
  path: '/api/domain/issuance/:domain',
  queryAlias: ['domain'],
  summary: "Certificate issuance consistency: the CAA record that governs the domain (climbing the tree, RFC 8659) against the CAs of its certificates in CT and of the certificate served now; CT names that no longer resolve",
  description:
    'Climbs from the domain to its TLD for the first CAA RRset (/api/dns/caa per name), reads the unexpired certificates CT holds for the domain (/api/certificate-transparency) and the leaf served on the https port (/api/tls/certificate), maps each issuer to its CA through a bundled table of CAA identifiers (an issuer not on it is `unknown_issuer`, never a mismatch), and asks A and AAAA for every name of the logged certificates. Findings: a served or logged certificate from a CA the CAA set does not allow; no CAA while CT shows several CAs; issuers not on the table; names that no longer resolve. Each part that fails is an entry in `errors`; such an answer is cached 60 seconds. At most 16 names are asked about. Costs 8 units.',
  params: z.object({ domain: DomainName, port: HttpsPortParam }),
  data: IssuanceData,
  upstreams: ['dns', 'crtsh', 'tls'],
  cache: { ttl: '15m' },
  cost: 8,
  lists: ['names', 'findings', 'errors', 'skipped'],
  example: { domain: 'example.net', port: '8443' },
})
