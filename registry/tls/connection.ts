import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { TlsHostParam } from '../../plugins/tls/host-param.ts'
import { TlsConnectionData } from '../../plugins/tls/tls-data.ts'

export default defineEndpoint({
  name: 'tls.connection',
  tag: 'tls',
  method: 'GET',
  path: '/api/tls/:host',
  queryAlias: ['host'],
  summary: 'Negotiated protocol, cipher, key exchange group, ALPN and handshake time, with the certificate summary and whether the chain verifies',
  params: z.object({ host: TlsHostParam }),
  data: TlsConnectionData,
  upstreams: ['tls'],
  cache: { ttl: '5m' },
  cost: 2,
  example: { host: 'valid.tls.test:8443' },
})
