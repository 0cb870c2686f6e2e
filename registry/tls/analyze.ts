import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { TlsHostParam } from './schemas/host-param.ts'
import { StarttlsParam } from './schemas/starttls-param.ts'
import { TlsAnalyzeData } from './schemas/tls-data.ts'

export default defineEndpoint({
  name: 'tls.analyze',
  tag: 'tls',
  method: 'GET',
  path: '/api/tls/analyze/:host',
  queryAlias: ['host'],
  summary: 'Hostname match, chain building and trust, expiry, key size, signatures, protocols, suites, OCSP stapling and HSTS, graded A+ to F (T: untrusted, M: name mismatch) with findings',
  description:
    "Collects the handshake, the served chain, every protocol and cipher suite the host accepts, and the HSTS header of one HTTPS GET in parallel, then grades them after SSL Labs' guide: A+ to F, T when the chain is not trusted, M when the name does not match (grade_if_trusted keeps the letter the configuration earns). Each finding has its severity, fix and the grade it caps. compliance: the server against each profile of Mozilla's server-side TLS guidelines (modern, intermediate, old), every deviation with its field, expected and seen, and the guidelines document used (INFRALENS_TLS_PROFILES_URL or _FILE); unavailable with the reason when there is none, and not part of the grade. Costs 10 units; cached 15 minutes.",
  params: z.object({ host: TlsHostParam, starttls: StarttlsParam }),
  data: TlsAnalyzeData,
  upstreams: ['tls'],
  cache: { ttl: '15m' },
  cost: 10,
  lists: ['findings'],
  csvRows: 'findings',
  example: { host: 'valid.tls.test:8443' },
})
