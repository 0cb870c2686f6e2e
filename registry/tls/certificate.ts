import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { TlsHostParam } from './schemas/host-param.ts'
import { StarttlsParam } from './schemas/starttls-param.ts'
import { TlsCertificateData } from './schemas/tls-data.ts'

export default defineEndpoint({
  name: 'tls.certificate',
  tag: 'tls',
  method: 'GET',
  path: '/api/tls/certificate/:host',
  queryAlias: ['host'],
  summary: 'The served leaf and chain parsed: names, SANs, validity, key, signature algorithm, fingerprints, key usage, AIA, CRL points, SCTs, must-staple',
  description:
    'Reads the certificates exactly as the server sends them (their order, extra certificates, the root if served) with a probe of its own that decrypts a TLS 1.3 handshake where needed, and parses every field of each. Nothing is graded here: /api/tls/analyze judges the chain. A closed or non-TLS port is a 502; cached 15 minutes.',
  params: z.object({ host: TlsHostParam, starttls: StarttlsParam }),
  data: TlsCertificateData,
  upstreams: ['tls'],
  cache: { ttl: '15m' },
  cost: 2,
  lists: ['chain'],
  example: { host: 'valid.tls.test:8443' },
})
