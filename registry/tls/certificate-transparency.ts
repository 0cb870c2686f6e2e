import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { DomainName } from '../../runtime/params/domain.ts'
import { CertificateTransparencyData } from './schemas/ct-data.ts'
import { queryBoolean } from '../../runtime/params/query-boolean.ts'

export default defineEndpoint({
  name: 'tls.certificate-transparency',
  tag: 'tls',
  method: 'GET',
  path: '/api/certificate-transparency/:domain',
  queryAlias: ['domain'],
  summary: 'Certificates the CT logs hold for a domain (crt.sh), one per certificate with its names, issuer and validity',
  description:
    'Asks crt.sh for the log entries of the domain (with include_subdomains=true, of the names below it too) and merges precertificate and certificate entries into one per certificate, newest first, with every name covered and the issuers by count. expired=false keeps only certificates valid now. crt.sh failing or slow is a 502 (details.upstream: crtsh); cached an hour.',
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
