// The crt.sh part of the loopback internet: an HTTP server on 127.0.0.44 that
// answers `/?q=<identity>&output=json` from the recorded crt.sh answers in
// test/fixtures/ct (example.com in the current JSON shape, dli.mn.gov in the
// 2020 shape without common_name and serial_number), `[]` for anything else,
// and fails on demand: never answering, answering slowly, 5xx, an HTML error
// page or JSON cut off mid-way, a reset, a slow drip. Every request is logged.

import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { join } from 'node:path'
import { ROOT } from '../../runtime/app.ts'

export const CT_FIXTURES = join(ROOT, 'test', 'fixtures', 'ct')

export const CRTSH_FIXTURES: Readonly<Record<string, string>> = {
  'example.com': 'crtsh_example.com.json',
  'dli.mn.gov': 'crtsh_dli.mn.gov_2020-04_legacy-schema.json',
}

export type CrtshFault =
  | { kind: 'timeout' }
  /** Answer after `ms` (the recorded answer, or the body given). */
  | { kind: 'slow'; ms: number }
  | { kind: 'status'; status: number; body?: string }
  /** 200 with a body that is not a JSON list (an HTML page by default). */
  | { kind: 'garbage'; body?: string; contentType?: string }
  /** The recorded answer cut off after `bytes`. */
  | { kind: 'truncated'; bytes?: number }
  | { kind: 'reset' }
  /** The recorded answer, trickled out `bytes` at a time every `intervalMs`. */
  | { kind: 'drip'; bytes?: number; intervalMs?: number }

export interface CrtshRequest {
  q: string | null
  output: string | null
  exclude: string | null
  fault: CrtshFault['kind'] | null
}

export interface FakeCrtsh {
  origin: string
  env: Record<string, string>
  log: CrtshRequest[]
  /** A fault for the next `times` requests (default: until cleared). */
  setFault(fault: CrtshFault | null, times?: number): void
  /** Serve a body for a query (before the recorded ones). */
  serve(q: string, body: unknown): void
  close(): Promise<void>
}

export async function startFakeCrtsh(options: { host?: string } = {}): Promise<FakeCrtsh> {
  const host = options.host ?? '127.0.0.44'
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const log: CrtshRequest[] = []
  const extra = new Map<string, string>()
  let fault: { fault: CrtshFault; left: number } | null = null

  function recorded(q: string): string {
    const key = q.toLowerCase().replace(/^%\./, '')
    const served = extra.get(q.toLowerCase())
    if (served !== undefined) return served
    // Own keys only: a query for "constructor" is a name like any other, not Object.
    const file = Object.hasOwn(CRTSH_FIXTURES, key) ? CRTSH_FIXTURES[key] : undefined
    return file ? readFileSync(join(CT_FIXTURES, file), 'utf8') : '[]'
  }

  function answer(res: ServerResponse, q: string) {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(recorded(q))
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake')
    const q = url.searchParams.get('q')
    const active = fault && fault.left > 0 ? fault.fault : null
    if (fault && active) fault.left--
    log.push({ q, output: url.searchParams.get('output'), exclude: url.searchParams.get('exclude'), fault: active?.kind ?? null })
    if (url.pathname !== '/' || !q) {
      res.writeHead(404, { 'content-type': 'text/html' })
      return res.end('<html>not found</html>')
    }
    switch (active?.kind) {
      case 'timeout':
        return // never answered; close() destroys the socket
      case 'reset':
        return void req.socket.destroy()
      case 'slow':
        return void setTimeout(() => answer(res, q), active.ms)
      case 'status':
        res.writeHead(active.status, { 'content-type': 'text/html' })
        return res.end(active.body ?? `<html><body><h1>${active.status}</h1>crt.sh is overloaded</body></html>`)
      case 'garbage':
        res.writeHead(200, { 'content-type': active.contentType ?? 'text/html' })
        return res.end(active.body ?? '<html><body>Sorry, something went wrong. Please try again later.</body></html>')
      case 'truncated': {
        const body = recorded(q)
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(body.slice(0, active.bytes ?? Math.floor(body.length / 2)))
      }
      case 'drip': {
        const bytes = Buffer.from(recorded(q))
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) })
        let at = 0
        const tick = () => {
          if (res.destroyed) return
          res.write(bytes.subarray(at, at + (active.bytes ?? 1)))
          at += active.bytes ?? 1
          if (at >= bytes.length) return void res.end()
          const t = setTimeout(tick, active.intervalMs ?? 100)
          timers.add(t)
        }
        return tick()
      }
      default:
        return answer(res, q)
    }
  }

  const server = createServer(handle)
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`
  return {
    origin,
    env: { INFRALENS_CRTSH_URL: origin, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true' },
    log,
    setFault(next, times = Number.POSITIVE_INFINITY) {
      fault = next ? { fault: next, left: times } : null
    },
    serve(q, body) {
      extra.set(q.toLowerCase(), typeof body === 'string' ? body : JSON.stringify(body))
    },
    async close() {
      for (const t of timers) clearTimeout(t)
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
