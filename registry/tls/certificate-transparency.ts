import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { CertificateTransparencyData } from '../../plugins/ct/ct-data.ts'
import { queryBoolean } from '../../plugins/ct/query-boolean.ts'

export default defineEndpoint({
  name: 'tls.certificate-transparency',
  tag: 'tls',
  method: 'GET',
  path: '/api/certificate-transparency/:domain',
  queryAlias: ['domain'],
  summary: 'Certificates the CT logs hold for a domain (crt.sh), one per certificate with its names, issuer and validity',
  params: z.object({
    domain: DomainName,
    expired: queryBoolean({ default: true, description: 'include expired certificates (false: only those valid now)' }),
    include_subdomains: queryBoolean({ default: false, description: 'also certificates for names below the domain (crt.sh %.domain)' }),
  }),
  data: CertificateTransparencyData,
  upstreams: ['crtsh'],
  cache: { ttl: '1h' },
  cost: 3,
  lists: ['certificates', 'names', 'issuers'],
  csvRows: 'certificates',
  example: { domain: 'example.com' },
})
