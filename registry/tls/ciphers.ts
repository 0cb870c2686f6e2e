import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { TlsHostParam } from './schemas/host-param.ts'
import { StarttlsParam } from './schemas/starttls-param.ts'
import { TlsCiphersData } from './schemas/tls-data.ts'

export default defineEndpoint({
  name: 'tls.ciphers',
  tag: 'tls',
  method: 'GET',
  path: '/api/tls/ciphers/:host',
  queryAlias: ['host'],
  summary: "Every protocol (SSLv3 to TLS 1.3) and cipher suite the host accepts, rated, with forward secrecy and the server's preference order",
  description:
    "Probes the host with ClientHellos written byte by byte for SSLv3, TLS 1.0 to 1.3 and the 340 suites of the IANA registry, so it also finds suites OpenSSL no longer speaks, and rates each accepted suite (insecure, weak, secure, recommended), in the server's order when it has one. A port that never answers TLS is a 502. Costs 10 units; cached an hour.",
  params: z.object({ host: TlsHostParam, starttls: StarttlsParam }),
  data: TlsCiphersData,
  upstreams: ['tls'],
  cache: { ttl: '1h' },
  cost: 10,
  lists: ['cipher_suites', 'protocols'],
  csvRows: 'cipher_suites',
  example: { host: 'valid.tls.test:8443' },
})
