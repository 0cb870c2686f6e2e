import { createServer } from 'node:https'
import type { Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createSecureContext } from 'node:tls'
import type { KeyAndCert } from './certs.ts'

// HTTPS sites of the loopback internet: one server, a certificate per name
// (chosen by SNI), and fixed responses per host and path. MTA-STS policies live at
// https://mta-sts.<domain>/.well-known/mta-sts.txt, on port 443 with no way to say
// otherwise (RFC 8461 §3.3), so the MTA-STS tests run this on 127.x:443 (the test
// process runs as root, as in CI).

export interface FakeResponse {
  status?: number
  headers?: Record<string, string>
  body: string
  /**
   * Fail on purpose: `hang` never answers, `reset` drops the connection,
   * `garbage` answers with bytes that are not HTTP, `drip` sends the status and
   * headers and then the body a byte every `dripMs` (default 100).
   */
  fault?: 'hang' | 'reset' | 'garbage' | 'drip'
  dripMs?: number
}

export interface FakeHttps {
  port: number
  requests: Array<{ host: string; path: string }>
  close(): Promise<void>
}

export async function startFakeHttps(options: {
  address: string
  port?: number
  /** Certificates by server name; the first is also served without SNI. */
  certificates: Record<string, KeyAndCert>
  /** Responses by "host/path", e.g. "mta-sts.good.test/.well-known/mta-sts.txt". */
  routes: Record<string, FakeResponse>
}): Promise<FakeHttps> {
  const contexts = new Map(Object.entries(options.certificates).map(([name, kc]) => [name, createSecureContext({ key: kc.key, cert: kc.cert })]))
  const [first] = Object.values(options.certificates)
  if (!first) throw new Error('fake HTTPS needs at least one certificate')
  const requests: FakeHttps['requests'] = []
  const timers = new Set<NodeJS.Timeout>()
  const server: Server = createServer({ key: first.key, cert: first.cert, SNICallback: (name, cb) => cb(null, contexts.get(name) ?? contexts.values().next().value) }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '')
    const path = (req.url ?? '/').split('?')[0]!
    requests.push({ host, path })
    const route = options.routes[`${host}${path}`]
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    switch (route.fault) {
      case 'hang':
        return
      case 'reset':
        // Node can send an RST only on a plain TCP handle; under TLS the connection is just dropped.
        return void req.socket.destroy()
      case 'garbage':
        return void req.socket.end(Buffer.from('\u0000\u00ffTHIS IS NOT HTTP\r\n\r\n', 'latin1'))
      case 'drip': {
        res.writeHead(route.status ?? 200, route.headers ?? { 'content-type': 'text/plain' })
        let at = 0
        const tick = () => {
          if (res.destroyed || at >= route.body.length) return void (res.destroyed || res.end())
          res.write(route.body.slice(at, ++at))
          const t = setTimeout(tick, route.dripMs ?? 100)
          timers.add(t)
        }
        return tick()
      }
    }
    res.writeHead(route.status ?? 200, route.headers ?? { 'content-type': 'text/plain' }).end(route.body)
  })
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EACCES' ? new Error(`binding ${options.address}:${options.port} needs root (or net.ipv4.ip_unprivileged_port_start <= ${options.port})`) : error),
    )
    server.listen(options.port ?? 0, options.address, () => resolve((server.address() as AddressInfo).port))
  })
  return {
    port,
    requests,
    async close() {
      for (const t of timers) clearTimeout(t)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
