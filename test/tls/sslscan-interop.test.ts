import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { suiteByName } from '../../plugins/tls/cipher-suites.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { OpensslServer, OpensslServerOptions } from '../support/tls-servers.ts'
import { runSslscan, startOpensslServer, toolAvailable } from '../support/tls-servers.ts'

// Interop with sslscan (installed by .ci/run): against an `openssl s_server`
// configured with a known suite list, /api/tls/ciphers finds exactly the suites
// sslscan finds, and both find exactly the configured ones.

let t: TestApp
beforeAll(async () => {
  if (!toolAvailable('sslscan') || !toolAvailable('openssl', ['version'])) throw new Error('sslscan and openssl are needed: apt-get install sslscan openssl (.ci/run does this)')
  t = await startTestApp({ INFRALENS_ALLOW_PRIVATE_TARGETS: 'true', INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0' })
})
afterAll(async () => {
  await t?.close()
})

const key = (s: { protocol: string; name: string }) => `${s.protocol} ${s.name}`

async function serviceSuites(target: string) {
  const res = await t.json(`/api/tls/ciphers/${target}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return (res.body.data.cipher_suites as Array<{ protocol: string; openssl_name: string | null; name: string }>).map((s) => ({ protocol: s.protocol, name: s.openssl_name ?? s.name }))
}

const configs: Array<[string, OpensslServerOptions, string[]]> = [
  [
    'TLS 1.2 only, six suites incl. DHE, CBC and static RSA',
    {
      cipher: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-SHA384:DHE-RSA-AES128-SHA:AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305:AES128-SHA',
      ciphersuites: '',
      minProtocol: 'TLSv1.2',
      maxProtocol: 'TLSv1.2',
    },
    ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-SHA384', 'DHE-RSA-AES128-SHA', 'AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305', 'AES128-SHA'].map((n) => `TLSv1.2 ${n}`),
  ],
  [
    'TLS 1.0 to 1.3, legacy CBC suites on the old protocols, server preference',
    {
      cipher: 'ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-SHA:AES256-SHA:CAMELLIA128-SHA:@SECLEVEL=0',
      ciphersuites: 'TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256',
      minProtocol: 'TLSv1',
      maxProtocol: 'TLSv1.3',
      serverPreference: true,
    },
    [
      ...['TLSv1.0', 'TLSv1.1'].flatMap((p) => ['ECDHE-RSA-AES128-SHA', 'AES256-SHA', 'CAMELLIA128-SHA'].map((n) => `${p} ${n}`)),
      ...['ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-AES128-SHA', 'AES256-SHA', 'CAMELLIA128-SHA'].map((n) => `TLSv1.2 ${n}`),
      'TLSv1.3 TLS_AES_128_GCM_SHA256',
      'TLSv1.3 TLS_CHACHA20_POLY1305_SHA256',
    ],
  ],
]

describe('/api/tls/ciphers and sslscan agree on openssl s_server', () => {
  for (const [title, options, expected] of configs) {
    describe(title, () => {
      let server: OpensslServer
      beforeAll(async () => {
        server = await startOpensslServer(options)
      })
      afterAll(async () => {
        await server?.close()
      })

      it('same accepted suites as sslscan, and exactly the configured ones', async () => {
        const mine = (await serviceSuites(server.target)).map(key).sort()
        const theirs = runSslscan(server.target).suites.map(key).sort()
        expect(mine).toEqual(theirs)
        expect(mine).toEqual([...expected].sort())
        for (const line of mine) expect(suiteByName(line.split(' ')[1]!), line).toBeDefined()
      })

      if (options.serverPreference) {
        it('the server order is detected and reported', async () => {
          const res = await t.json(`/api/tls/ciphers/${server.target}`)
          const tls12 = res.body.data.protocols.find((p: { protocol: string }) => p.protocol === 'TLSv1.2')
          expect(tls12.server_preference).toBe(true)
          const order = res.body.data.cipher_suites.filter((s: { protocol: string }) => s.protocol === 'TLSv1.2').map((s: { openssl_name: string }) => s.openssl_name)
          expect(order).toEqual(['ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-AES128-SHA', 'AES256-SHA', 'CAMELLIA128-SHA'])
        })
      } else {
        it('without -serverpref the client order decides: server_preference false, no ranks', async () => {
          const res = await t.json(`/api/tls/ciphers/${server.target}`)
          const tls12 = res.body.data.protocols.find((p: { protocol: string }) => p.protocol === 'TLSv1.2')
          expect(tls12).toMatchObject({ supported: true, server_preference: false })
          expect(res.body.data.cipher_suites.map((s: { preference: number | null }) => s.preference)).toEqual(expected.map(() => null))
        })
      }
    })
  }
})
