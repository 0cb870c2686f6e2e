import { randomUUID } from 'node:crypto'
import { H3 } from 'h3'
import type { H3Event } from 'h3'
import pino from 'pino'
import { FastResponse, serve } from 'srvx'
import { jsonString } from '../../runtime/json-string.ts'
import { createBatchedWriter } from '../../plugins/observability/batched-writer.ts'
import { defineIsoNow, systemClock } from '../../runtime/clock.ts'
import { createUlidFactory, cryptoDigits } from '../../runtime/ulid-factory.ts'

const isoNow = defineIsoNow(systemClock)

// The floor for /api/uuid and for a DNS cache hit: what the contract itself asks
// of every answer, written by hand in plain h3 handlers with no pipeline, on the
// routes the service uses — a ULID request id, the envelope, the seven headers
// (RateLimit-*, X-Request-Id, Cache-Control), a per-IP counter and the access-log
// line (unless LOG_LEVEL is above info). No layer, descriptor, validation or format
// lookup. The distance from bare to here is the contract's; from here to the
// pipeline is the framework's. BURN_US=N spins N µs of CPU per /api/uuid request
// (load-vs-bare --burn N).

const nextId = createUlidFactory(cryptoDigits, () => systemClock.now())
const windows = new Map<string, { points: number; resetAt: number }>()
const log = ['trace', 'debug', 'info'].includes(process.env.LOG_LEVEL ?? 'info') ? createBatchedWriter(pino.destination({ sync: false })) : undefined
const BURN_MS = Number(process.env.BURN_US ?? 0) / 1000

/** The part every answer shares: the per-IP counter, the envelope, the seven headers, the log line. */
function answer(event: H3Event, started: number, endpoint: string, category: string, cache: 'hit' | 'miss', data: string, cacheControl: string): Response {
  const ip = event.req.ip ?? ''
  const now = Date.now()
  let window = windows.get(ip)
  if (window === undefined || window.resetAt <= now) {
    window = { points: 0, resetAt: now + 60_000 }
    windows.set(ip, window)
  }
  window.points++
  const id = nextId()
  const body = `{"success":true,"data":${data},"meta":{"cache":"${cache}","category":"${category}","endpoint":"${endpoint}","tier":"anonymous"},"links":{"self":"${event.url.pathname}"},"timestamp":"${isoNow()}","request_id":"${id}"}`
  const response = new FastResponse(body, {
    status: 200,
    statusText: 'OK',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': id,
      'ratelimit-limit': '1000000000',
      'ratelimit-remaining': String(1_000_000_000 - window.points),
      'ratelimit-reset': String(Math.ceil((window.resetAt - now) / 1000)),
      'ratelimit-policy': '1000000000;w=60',
      'cache-control': cacheControl,
    },
  })
  log?.write(
    `{"level":30,"time":"${isoNow()}","service":"infralens","log":"access","request_id":"${id}","endpoint":"${endpoint}","method":"GET","path":${jsonString(event.url.pathname)},"client":${jsonString(ip)},"status":200,"duration_ms":${Math.round((performance.now() - started) * 100) / 100},"cache":"${cache}","tier":"anonymous","msg":"request"}\n`,
  )
  return response
}

const app = new H3()
app.get('/api/uuid', (event) => {
  const started = performance.now()
  if (BURN_MS > 0) while (performance.now() - started < BURN_MS);
  return answer(event, started, 'utilities.uuid', 'utilities', 'miss', `{"uuid":"${randomUUID()}","version":4}`, 'no-store')
})

// A DNS cache hit: the answer's JSON (FLOOR_DNS_DATA, the pipeline's own, passed in
// by the load script) kept per lower-cased name with its expiry, as the cache
// layer keeps it; no resolver, no validation beyond the lower-casing.
const dnsData = process.env.FLOOR_DNS_DATA ?? '{}'
const dnsCache = new Map<string, { json: string; expiresAt: number }>()
app.get('/api/dns/a/:domain', (event) => {
  const started = performance.now()
  const domain = (event.context.params?.domain ?? '').toLowerCase()
  const now = Date.now()
  let entry = dnsCache.get(domain)
  if (entry === undefined || entry.expiresAt <= now) {
    entry = { json: dnsData, expiresAt: now + 300_000 }
    dnsCache.set(domain, entry)
  }
  return answer(event, started, 'dns.a', 'dns', 'hit', entry.json, `public, max-age=${Math.ceil((entry.expiresAt - now) / 1000)}`)
})
const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
await server.ready()
process.send?.({ url: server.url })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0))
