import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { TlsHostParam } from './schemas/host-param.ts'
import { StarttlsParam } from './schemas/starttls-param.ts'
import { TlsConnectionData } from './schemas/tls-data.ts'

export default defineEndpoint({
  name: 'tls.connection',
  tag: 'tls',
  method: 'GET',
  path: '/api/tls/:host',
  queryAlias: ['host'],
  summary: 'Negotiated protocol, cipher, key exchange group, ALPN and handshake time, with the certificate summary and whether the chain verifies',
  description:
    "One full TLS handshake as a permissive client to the host (a name, name:port, IP address or URL; port 443 by default): what was negotiated, how long connect and handshake took, whether OCSP was stapled, a summary of the leaf, and OpenSSL's verdict on the chain against the system roots. A closed, silent or non-TLS port is a 502 (details.upstream: tls); cached 5 minutes.",
  params: z.object({ host: TlsHostParam, starttls: StarttlsParam }),
  data: TlsConnectionData,
  upstreams: ['tls'],
  cache: { ttl: '5m' },
  cost: 2,
  example: { host: 'valid.tls.test:8443' },
})
