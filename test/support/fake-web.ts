import { createServer as createHttpServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { constants as http2Constants, createSecureServer } from 'node:http2'
import type { Http2SecureServer, Http2ServerRequest, Http2ServerResponse } from 'node:http2'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { TLSSocket, createSecureContext } from 'node:tls'
import type { TestCa } from './certs.ts'
import { createTestCa } from './certs.ts'
import type { WorldTime } from './world-time.ts'
import { hostTime } from './world-time.ts'

// Web sites of the loopback internet: one plain http and one https server on a
// loopback address, answering by Host header and path from a route table the
// test fills in (crafted headers, redirects, loops, huge bodies). The https server
// speaks HTTP/2 and HTTP/1.1 (ALPN) unless told HTTP/1.1 only; certificates come
// from a throw-away CA (test/support/certs.ts) the app trusts through
// INFRALENS_EXTRA_CA_FILE. Routes can also hang, reset, answer garbage or drip
// (the fault matrix). Every accepted connection and request is logged, so a
// test can prove a connection was never made.

export interface WebRoute {
  status?: number
  /** Array values are sent as repeated headers (Set-Cookie). */
  headers?: Record<string, string | string[]>
  body?: string | Buffer
  /** Stream this many bytes of filler instead of a body (large-body tests). */
  bodyBytes?: number
  /** Accept the request and never answer. */
  hang?: boolean
  /**
   * Fail on purpose: `reset` drops the connection (an RST on plain TCP; on
   * HTTP/2 the stream is reset), `garbage` answers with bytes that are not HTTP
   * (HTTP/2 cannot carry raw bytes: there the session is torn down with a
   * PROTOCOL_ERROR GOAWAY), `drip` sends the
   * status and headers at once and then the body a byte every `dripMs` (default 100).
   */
  fault?: 'reset' | 'garbage' | 'drip'
  dripMs?: number
}

export interface WebRequestLog {
  scheme: 'http' | 'https'
  host: string
  path: string
  httpVersion: string
  userAgent: string | undefined
}

export interface BigBodyLog {
  path: string
  /** Bytes handed to the socket before the client went away (or all of them). */
  written: number
  /** The client closed the connection before the body was complete. */
  closedEarly: boolean
}

export interface FakeWeb {
  address: string
  httpPort: number
  httpsPort: number
  /** "host:port" for the https server (what a test passes as {host}). */
  https(host: string): string
  http(host: string): string
  ca: TestCa
  connections: Array<{ scheme: 'http' | 'https'; remote: string }>
  requests: WebRequestLog[]
  bigBodies: BigBodyLog[]
  /** Route for "host/path" (path with query as requested) or "*\/path" for any host. */
  route(key: string, route: WebRoute): void
  close(): Promise<void>
}

export interface FakeWebOptions {
  /** Default: a random 127.x.y.z, so parallel test files never share a port. */
  address?: string
  httpPort?: number
  httpsPort?: number
  /** Names the certificate covers (SANs). */
  names: string[]
  routes?: Record<string, WebRoute>
  /** false: the https server speaks HTTP/1.1 only. */
  http2?: boolean
  /** Reuse a CA (so one INFRALENS_EXTRA_CA_FILE covers several fakes). */
  ca?: TestCa
  /** Server names whose TLS handshake fails (a host with no working https). */
  refuseTls?: string[]
}

export function randomLoopback(): string {
  const n = () => 1 + Math.floor(Math.random() * 253)
  return `127.${100 + Math.floor(Math.random() * 150)}.${n()}.${n()}`
}

type AnyRequest = IncomingMessage | Http2ServerRequest
type AnyResponse = ServerResponse | Http2ServerResponse

export async function startFakeWeb(options: FakeWebOptions): Promise<FakeWeb> {
  const address = options.address ?? randomLoopback()
  const ca = options.ca ?? createTestCa('infralens web test CA')
  const leaf = ca.issue(options.names)
  const routes = new Map<string, WebRoute>(Object.entries(options.routes ?? {}))
  const connections: FakeWeb['connections'] = []
  const requests: WebRequestLog[] = []
  const bigBodies: BigBodyLog[] = []
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()

  const GARBAGE = Buffer.from('\u0000\u00ffTHIS IS NOT HTTP\r\n\u0016\u0003\u0001 \r\n\r\n', 'latin1')

  function misbehave(route: WebRoute, req: AnyRequest, res: AnyResponse): void {
    const h2 = 'stream' in res
    if (route.fault === 'reset') {
      const socket = (req as IncomingMessage).socket
      if (h2) (res as Http2ServerResponse).stream.close(http2Constants.NGHTTP2_INTERNAL_ERROR)
      // Node can send an RST only on a plain TCP handle; under TLS the connection is just dropped.
      else if (socket instanceof TLSSocket) socket.destroy()
      else socket.resetAndDestroy()
      return
    }
    if (route.fault === 'garbage') {
      const session = h2 ? (res as Http2ServerResponse).stream.session : undefined
      if (session) {
        session.goaway(http2Constants.NGHTTP2_PROTOCOL_ERROR)
        session.destroy()
      } else if (!h2) (req as IncomingMessage).socket.end(GARBAGE)
      return
    }
    res.writeHead(route.status ?? 200, { 'content-type': 'text/html', ...(route.headers ?? {}) })
    const body = Buffer.from(typeof route.body === 'string' ? route.body : (route.body ?? '<!doctype html><p>'.padEnd(4096, '.')))
    let at = 0
    const tick = () => {
      if (res.destroyed || at >= body.length) return void (res.destroyed || res.end())
      ;(res as ServerResponse).write(body.subarray(at, ++at))
      const t = setTimeout(tick, route.dripMs ?? 100)
      timers.add(t)
    }
    tick()
  }

  function handle(scheme: 'http' | 'https', req: AnyRequest, res: AnyResponse) {
    const host = String(req.headers.host ?? req.headers[':authority'] ?? '').replace(/:\d+$/, '')
    const path = req.url ?? '/'
    requests.push({ scheme, host, path, httpVersion: req.httpVersion, userAgent: req.headers['user-agent'] as string | undefined })
    const route = routes.get(`${scheme}://${host}${path}`) ?? routes.get(`${host}${path}`) ?? routes.get(`*${path}`)
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not found')
      return
    }
    if (route.hang) return
    if (route.fault) return misbehave(route, req, res)
    for (const [name, value] of Object.entries(route.headers ?? {})) res.setHeader(name, value)
    res.statusCode = route.status ?? 200
    if (route.bodyBytes === undefined) {
      res.end(route.body ?? '')
      return
    }
    const log: BigBodyLog = { path, written: 0, closedEarly: false }
    bigBodies.push(log)
    const chunk = Buffer.alloc(64 * 1024, 'x')
    let finished = false
    res.on('close', () => {
      if (!finished) log.closedEarly = true
    })
    const pump = () => {
      while (log.written < route.bodyBytes!) {
        if (res.destroyed || (res as ServerResponse).writableEnded) return
        const n = Math.min(chunk.length, route.bodyBytes! - log.written)
        log.written += n
        if (!(res as ServerResponse).write(chunk.subarray(0, n))) {
          res.once('drain', pump)
          return
        }
      }
      finished = true
      res.end()
    }
    pump()
  }

  const track = (scheme: 'http' | 'https') => (socket: Socket) => {
    connections.push({ scheme, remote: `${socket.remoteAddress}:${socket.remotePort}` })
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  }

  const http: Server = createHttpServer((req, res) => handle('http', req, res))
  http.on('connection', track('http'))
  const context = createSecureContext({ key: leaf.key, cert: leaf.cert })
  const refused = new Set(options.refuseTls ?? [])
  const tlsOptions = {
    key: leaf.key,
    cert: leaf.cert,
    SNICallback: (name: string, cb: (e: Error | null, c?: typeof context) => void) => (refused.has(name) ? cb(new Error(`no https for ${name}`)) : cb(null, context)),
  }
  const https: Http2SecureServer | ReturnType<typeof createHttpsServer> =
    options.http2 === false
      ? createHttpsServer(tlsOptions, (req, res) => handle('https', req, res))
      : createSecureServer({ ...tlsOptions, allowHTTP1: true }, (req, res) => handle('https', req, res))
  https.on('connection', track('https'))

  const listen = (server: Server | Http2SecureServer | ReturnType<typeof createHttpsServer>, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, address, () => resolve((server.address() as AddressInfo).port))
    })
  const httpPort = await listen(http, options.httpPort ?? 0)
  const httpsPort = await listen(https, options.httpsPort ?? 0)

  return {
    address,
    httpPort,
    httpsPort,
    https: (host) => `${host}:${httpsPort}`,
    http: (host) => `${host}:${httpPort}`,
    ca,
    connections,
    requests,
    bigBodies,
    route: (key, route) => void routes.set(key, route),
    async close() {
      for (const t of timers) clearTimeout(t)
      for (const s of sockets) s.destroy()
      await Promise.all([new Promise<void>((r) => http.close(() => r())), new Promise<void>((r) => https.close(() => r()))])
      if (!options.ca) ca.close()
    },
  }
}

/** A zone whose names all point at the fake's address (plus any extra records). */
export function webZone(origin: string, address: string, names: string[], extra = ''): string {
  return `$ORIGIN ${origin}.
$TTL 300
@ IN SOA ns1 hostmaster ( 1 3600 900 604800 60 )
@ IN NS ns1
ns1 IN A 192.0.2.53
${names.map((n) => `${n} IN A ${address}`).join('\n')}
${extra}
`
}

// The site the descriptors' examples name: example.net, https on :8443 (HTTP/2),
// http on :8080 redirecting there. Fixed ports on a random loopback address, so
// the example strings are stable while parallel test files do not collide.

export const EXAMPLE_WEB_HTTP_PORT = 8080
export const EXAMPLE_WEB_HTTPS_PORT = 8443

export interface ExampleWeb {
  web: FakeWeb
  zone: string
  env: Record<string, string>
  close(): Promise<void>
}

export async function startExampleWeb(time: WorldTime = hostTime()): Promise<ExampleWeb> {
  const secure = {
    'content-type': 'text/html; charset=utf-8',
    'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
    'content-security-policy': "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  }
  const web = await startFakeWeb({
    names: ['example.net', 'www.example.net'],
    ca: createTestCa('infralens web test CA', time),
    httpPort: EXAMPLE_WEB_HTTP_PORT,
    httpsPort: EXAMPLE_WEB_HTTPS_PORT,
    routes: {
      'http://example.net/': { status: 301, headers: { location: `https://example.net:${EXAMPLE_WEB_HTTPS_PORT}/` } },
      'https://example.net/': { headers: { ...secure, 'set-cookie': '__Host-session=1; Path=/; Secure; HttpOnly; SameSite=Lax' }, body: '<!doctype html><title>Example</title><p>Example site.' },
      'https://example.net/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: `User-agent: *\nDisallow: /private/\nAllow: /private/public.html\n\nUser-agent: BadBot\nDisallow: /\n\nSitemap: https://example.net:${EXAMPLE_WEB_HTTPS_PORT}/sitemap.xml\n`,
      },
      'https://example.net/.well-known/security.txt': {
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: `Contact: mailto:security@example.net\nContact: https://example.net:${EXAMPLE_WEB_HTTPS_PORT}/security\nExpires: ${new Date(time.now + 180 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z')}\nPreferred-Languages: en, de\nCanonical: https://example.net:${EXAMPLE_WEB_HTTPS_PORT}/.well-known/security.txt\nPolicy: https://example.net:${EXAMPLE_WEB_HTTPS_PORT}/security-policy\n`,
      },
    },
  })
  return {
    web,
    zone: webZone('example.net', web.address, ['@', 'www']),
    env: { INFRALENS_EXTRA_CA_FILE: web.ca.caFile },
    close: () => web.close(),
  }
}
