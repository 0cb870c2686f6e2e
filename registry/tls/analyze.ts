import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { TlsHostParam } from '../../plugins/tls/host-param.ts'
import { TlsAnalyzeData } from '../../plugins/tls/tls-data.ts'

export default defineEndpoint({
  name: 'tls.analyze',
  tag: 'tls',
  method: 'GET',
  path: '/api/tls/analyze/:host',
  queryAlias: ['host'],
  summary: 'Hostname match, chain building and trust, expiry, key size, signatures, protocols, suites, OCSP stapling and HSTS, graded A+ to F (T: untrusted, M: name mismatch) with findings',
  params: z.object({ host: TlsHostParam }),
  data: TlsAnalyzeData,
  upstreams: ['tls'],
  cache: { ttl: '15m' },
  cost: 10,
  lists: ['findings'],
  csvRows: 'findings',
  example: { host: 'valid.tls.test:8443' },
})
