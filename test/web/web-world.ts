import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestCa } from '../support/certs.ts'
import { createTestCa } from '../support/certs.ts'
import type { FakeWeb } from '../support/fake-web.ts'
import { startFakeWeb, webZone } from '../support/fake-web.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'
import type { ZoneSource } from '../support/dns-server.ts'

// The sites the web tests visit: web.test names on one fake (HTTP/2 + HTTP/1.1
// over TLS, plain http beside it) and h1.web.test on a second, HTTP/1.1-only one.
// Redirect targets that must be refused point at private space: a literal
// metadata address, names resolving to 10/8 and 169.254/16, and a name with one
// public-looking (loopback, allowed in tests) and one private address.

export const GOOD_HEADERS: Record<string, string | string[]> = {
  'content-type': 'text/html; charset=utf-8',
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'content-security-policy': "default-src 'self'; script-src 'self' 'nonce-r4nd0m' 'strict-dynamic'; object-src 'none'; base-uri 'none'; frame-ancestors 'self'",
  'x-frame-options': 'SAMEORIGIN',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer, strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(self "https://maps.example")',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'same-origin',
  'set-cookie': ['__Host-sid=abc; Path=/; Secure; HttpOnly; SameSite=Lax', 'csrf=tok; Path=/; Secure; SameSite=Strict'],
}

export const BROKEN_HEADERS: Record<string, string | string[]> = {
  'content-type': 'text/html',
  'strict-transport-security': 'max-age=300',
  'content-security-policy': "default-src *; script-src 'self' 'unsafe-inline' 'unsafe-eval' https: *.cdn.example",
  'x-frame-options': 'ALLOW-FROM https://partner.example',
  'x-content-type-options': 'sniff',
  'referrer-policy': 'unsafe-url',
  'feature-policy': "camera 'none'",
  'x-xss-protection': '1; mode=block',
  server: 'Apache/2.4.1 (Unix) OpenSSL/1.0.1',
  'x-powered-by': 'PHP/5.4.0',
  'set-cookie': ['PHPSESSID=xyz; path=/', 'tracking=1; SameSite=None', '__Host-pref=1; Path=/app; Secure'],
}

export interface WebWorld {
  dns: LoopbackDns
  web: FakeWeb
  h1: FakeWeb
  ca: TestCa
  t: TestApp
  close(): Promise<void>
}

const NAMES = ['sec-good', 'sec-expired', 'sec-bad', 'sec-legacy', 'sec-canonical', 'sec-html', 'sec-none', 'sec-redirect', 'sec-type', 'good', 'broken', 'partial', 'plain', 'loop', 'chain', 'many', 'private', 'big', 'robots', 'robots-bad', 'robots-5xx', 'robots-404', 'robots-redirect', 'html', 'bare']

export async function startWebWorld(env: Record<string, string> = {}, extraZones: ZoneSource[] = []): Promise<WebWorld> {
  const ca = createTestCa('infralens web tests CA')
  const names = NAMES.map((n) => `${n}.web.test`)
  const web = await startFakeWeb({ names: [...names, '*.web.test'], ca, refuseTls: ['plain.web.test'] })
  const h1 = await startFakeWeb({ names: ['h1.web.test'], ca, http2: false })
  const S = (host: string, path = '/') => `https://${host}.web.test:${web.httpsPort}${path}`
  const H = (host: string, path = '/') => `http://${host}.web.test:${web.httpPort}${path}`

  web.route('https://good.web.test/', { headers: GOOD_HEADERS, body: '<!doctype html><p>good' })
  web.route('http://good.web.test/', { status: 301, headers: { location: S('good') } })
  web.route('https://broken.web.test/', { headers: BROKEN_HEADERS, body: '<p>broken' })
  web.route('https://partial.web.test/', {
    headers: { 'strict-transport-security': 'max-age=31536000', 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'content-type': 'text/html' },
    body: '<p>partial',
  })
  web.route('http://plain.web.test/', { headers: { 'content-type': 'text/html', 'set-cookie': 'session=1' }, body: '<p>plain http only' })
  web.route('https://loop.web.test/a', { status: 302, headers: { location: '/b' } })
  web.route('https://loop.web.test/b', { status: 302, headers: { location: S('loop', '/a') } })
  web.route('http://chain.web.test/', { status: 301, headers: { location: S('chain', '/1') } })
  web.route('https://chain.web.test/1', { status: 302, headers: { location: '/2' } })
  web.route('https://chain.web.test/2', { status: 307, headers: { location: S('good') } })
  web.route('https://chain.web.test/down', { status: 301, headers: { location: H('plain') } })
  for (let i = 0; i < 20; i++) web.route(`https://many.web.test/${i}`, { status: 302, headers: { location: `/${i + 1}` } })
  web.route('https://private.web.test/metadata', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } })
  web.route('https://private.web.test/internal', { status: 301, headers: { location: 'http://internal.web.test/admin' } })
  web.route('https://private.web.test/linklocal-name', { status: 301, headers: { location: 'http://metadata.web.test/' } })
  web.route('https://private.web.test/mixed', { status: 302, headers: { location: `http://mixed.web.test:${web.httpPort}/` } })
  web.route('https://private.web.test/mapped', { status: 302, headers: { location: 'http://[::ffff:10.0.0.1]/' } })
  web.route('https://private.web.test/ftp', { status: 302, headers: { location: 'ftp://files.example/' } })
  web.route('https://private.web.test/nowhere', { status: 302, headers: { location: `http://nowhere.web.test:${web.httpPort}/` } })
  web.route('https://private.web.test/no-location', { status: 302 })
  web.route('https://private.web.test/slow', { status: 302, headers: { location: S('good', '/hang') } })
  web.route('https://good.web.test/hang', { hang: true })
  web.route('https://big.web.test/', { headers: { 'content-type': 'application/octet-stream', 'content-length': String(50 * 1024 * 1024) }, bodyBytes: 50 * 1024 * 1024 })
  web.route('https://html.web.test/', { headers: { 'content-type': 'text/html' }, body: '<p>html' })
  h1.route('https://h1.web.test/', { headers: { 'content-type': 'text/plain', 'x-test': 'h1' }, body: 'hello over http/1.1' })

  const zone = webZone(
    'web.test',
    web.address,
    NAMES,
    [`h1 IN A ${h1.address}`, `h1-wrong IN A ${h1.address}`, 'internal IN A 10.1.2.3', 'metadata IN A 169.254.169.254', `mixed IN A ${web.address}`, 'mixed IN A 10.0.0.9'].join('\n'),
  )
  const dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, zone, ...extraZones] })
  const t = await startTestApp({
    ...dns.env,
    INFRALENS_EXTRA_CA_FILE: ca.caFile,
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
    INFRALENS_CACHE_MAX_ENTRIES: '0',
    ...env,
  })
  return {
    dns,
    web,
    h1,
    ca,
    t,
    async close() {
      await t.close()
      await web.close()
      await h1.close()
      await dns.close()
      ca.close()
    },
  }
}
