// The VRP source of the loopback internet: one HTTP server on 127.0.0.47 serving a
// VRP export at /vrps.json, as console.rpki-client.org or a Routinator's
// /json endpoint would. By default the recorded rpki-client excerpt (its expiries
// moved to the present, see expiriesFromNow) with the test VRPs and one expired
// VRP appended (test/fixtures/rpki/SOURCES.md). ETag and Last-Modified with 304
// on a matching conditional request; faults on demand (timeout, reset, garbage,
// truncated JSON, 5xx, slow drip); a log of requests.

import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { join } from 'node:path'
import { ROOT } from '../../runtime/app.ts'
import type { TestApp } from './app.ts'

export const RPKI_FIXTURES = join(ROOT, 'test', 'fixtures', 'rpki')

type Json = Record<string, any>

export const readRpkiFixture = (file: string): Json => JSON.parse(readFileSync(join(RPKI_FIXTURES, file), 'utf8')) as Json

/** In the default export, expired since 2020: the service must drop it (192.0.2.0/24 is then not-found). */
export const EXPIRED_TEST_VRP = { asn: 64496, prefix: '192.0.2.0/24', maxLength: 24, ta: 'test', expires: 1_600_000_000 }

/** When an export says it was generated, ms since the epoch (rpki-client buildtime, Routinator generated). */
function generatedAt(doc: Json): number {
  const m = (doc.metadata ?? {}) as Json
  if (typeof m.generated === 'number') return m.generated * 1000
  const t = Date.parse(String(m.buildtime ?? m.generatedTime))
  if (Number.isNaN(t)) throw new Error('the export has no generation time to move its expiries from')
  return t
}

/**
 * A recorded export as if it had been generated just now: every expiry
 * (rpki-client `expires`, Routinator jsonext `notAfter` and `stale` times) moved by
 * (now - its generation time), so a recording keeps its real spread of expiries
 * and never rots into "all expired". The metadata is left alone: the set still
 * reports its true age.
 */
export function expiriesFromNow(doc: Json, nowMs = Date.now()): Json {
  const shiftMs = nowMs - generatedAt(doc)
  const iso = (text: string) => new Date(Date.parse(text) + shiftMs).toISOString().replace('.000Z', 'Z')
  const shiftTimes = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(shiftTimes)
    if (typeof value !== 'object' || value === null) return value
    const out: Json = {}
    for (const [k, v] of Object.entries(value)) out[k] = (k === 'notAfter' || k === 'stale') && typeof v === 'string' ? iso(v) : shiftTimes(v)
    return out
  }
  return {
    ...doc,
    roas: (doc.roas as Json[]).map((roa) => ({
      ...roa,
      ...(typeof roa.expires === 'number' ? { expires: roa.expires + Math.round(shiftMs / 1000) } : {}),
      ...(Array.isArray(roa.source) ? { source: shiftTimes(roa.source) } : {}),
    })),
  }
}

/** The default export: the 2023 rpki-client excerpt (expiries from now), test-vrps.json's VRPs and EXPIRED_TEST_VRP. */
export function defaultVrpExport(now = Date.now()): Json {
  const doc = expiriesFromNow(readRpkiFixture('rpki-client_2023-10-01_excerpt.json'), now)
  doc.roas = [...doc.roas, ...readRpkiFixture('test-vrps.json').roas, EXPIRED_TEST_VRP]
  return doc
}

export type VrpFault =
  | { kind: 'status'; status: number }
  | { kind: 'timeout' }
  | { kind: 'reset' }
  | { kind: 'garbage'; body?: string }
  /** The export cut off half way. */
  | { kind: 'truncated' }
  | { kind: 'drip'; bytes?: number; intervalMs?: number }

export interface VrpLogEntry {
  path: string
  conditional: boolean
  status: number | null
  fault: VrpFault['kind'] | null
}

export interface FakeVrp {
  origin: string
  url: string
  env: Record<string, string>
  log: VrpLogEntry[]
  /** Replace the export (a new ETag and Last-Modified). */
  setBody(body: Json | string): void
  setFault(fault: VrpFault | null, times?: number): void
  close(): Promise<void>
}

export async function startFakeVrp(options: { host?: string; body?: Json | string; now?: number } = {}): Promise<FakeVrp> {
  const host = options.host ?? '127.0.0.47'
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const log: VrpLogEntry[] = []
  let body = ''
  let etag = ''
  let lastModified = ''
  let version = 0
  let fault: VrpFault | null = null
  let faultsLeft = 0

  const setBody = (next: Json | string) => {
    body = typeof next === 'string' ? next : JSON.stringify(next, null, 1)
    etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`
    // Distinct per version even within one second, as If-Modified-Since has 1 s resolution.
    lastModified = new Date(Date.UTC(2026, 0, 1, 0, 0, version++)).toUTCString()
  }
  setBody(options.body ?? defaultVrpExport(options.now))

  function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://fake').pathname
    const conditional = req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined
    const f = fault && faultsLeft > 0 ? fault : null
    if (f) faultsLeft--
    const entry: VrpLogEntry = { path, conditional, status: null, fault: f?.kind ?? null }
    log.push(entry)
    const send = (status: number, text: string, type = 'application/json', headers: Record<string, string> = {}) => {
      entry.status = status
      res.writeHead(status, { 'content-type': type, ...headers })
      res.end(text)
    }
    if (f) {
      switch (f.kind) {
        case 'timeout':
          return
        case 'reset':
          req.socket.destroy()
          return
        case 'status':
          return send(f.status, `<html><body>${f.status}</body></html>`, 'text/html')
        case 'garbage':
          return send(200, f.body ?? '<html><body>maintenance</body></html>', 'text/html')
        case 'truncated':
          return send(200, body.slice(0, Math.floor(body.length / 2)))
        case 'drip': {
          entry.status = 200
          res.writeHead(200, { 'content-type': 'application/json' })
          let at = 0
          const step = f.bytes ?? 16
          const tick = () => {
            if (res.destroyed) return
            res.write(body.slice(at, at + step))
            at += step
            if (at >= body.length) return void res.end()
            const t = setTimeout(tick, f.intervalMs ?? 50)
            timers.add(t)
          }
          return tick()
        }
      }
    }
    if (path !== '/vrps.json') return send(404, '{"error":"not found"}')
    if (req.headers['if-none-match'] === etag || (req.headers['if-none-match'] === undefined && req.headers['if-modified-since'] === lastModified)) {
      entry.status = 304
      res.writeHead(304, { etag, 'last-modified': lastModified })
      return void res.end()
    }
    send(200, body, 'application/json', { etag, 'last-modified': lastModified })
  }

  const server = createServer(handle)
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`
  const url = `${origin}/vrps.json`
  return {
    origin,
    url,
    env: { INFRALENS_VRP_URL: url, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true' },
    log,
    setBody,
    setFault(next, times = Infinity) {
      fault = next
      faultsLeft = next ? times : 0
    },
    async close() {
      for (const t of timers) clearTimeout(t)
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Polls /api/ready until the rpki-vrps check passes without degradation (or 10 s pass). */
export async function untilVrpsLoaded(app: Pick<TestApp, 'json'>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ready = await app.json('/api/ready')
    const checks = (ready.body.data?.checks ?? ready.body.error?.details?.checks ?? []) as Array<{ name: string; ok: boolean; degraded?: string }>
    const check = checks.find((c) => c.name === 'rpki-vrps')
    if (check?.ok && !check.degraded) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('the VRP set did not load')
}
