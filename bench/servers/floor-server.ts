import { randomUUID } from 'node:crypto'
import { H3 } from 'h3'
import pino from 'pino'
import { FastResponse, serve } from 'srvx'
import { createBatchedWriter } from '../../plugins/observability/batched-writer.ts'
import { isoNow } from '../../runtime/clock.ts'
import { createUlidFactory } from '../../runtime/ulid-factory.ts'

// The floor for /api/uuid: what the contract itself asks of every answer, written
// by hand in one h3 handler with no pipeline, on the static route the service
// uses — a ULID request id, the envelope, the seven headers (RateLimit-*,
// X-Request-Id, Cache-Control), a per-IP counter and the access-log line (unless
// LOG_LEVEL is above info). No layer, descriptor, validation or format lookup. The
// distance from bare to here is the contract's; from here to the pipeline is the
// framework's. BURN_US=N spins N µs of CPU per request (load-vs-bare --burn N).

const nextId = createUlidFactory()
const windows = new Map<string, { points: number; resetAt: number }>()
const log = ['trace', 'debug', 'info'].includes(process.env.LOG_LEVEL ?? 'info') ? createBatchedWriter(pino.destination({ sync: false })) : undefined
const app = new H3()
const BURN_MS = Number(process.env.BURN_US ?? 0) / 1000
app.get('/api/uuid', (event) => {
  const started = performance.now()
  if (BURN_MS > 0) while (performance.now() - started < BURN_MS);
  const ip = event.req.ip ?? ''
  const now = Date.now()
  let window = windows.get(ip)
  if (window === undefined || window.resetAt <= now) {
    window = { points: 0, resetAt: now + 60_000 }
    windows.set(ip, window)
  }
  window.points++
  const id = nextId()
  const body = `{"success":true,"data":{"uuid":"${randomUUID()}","version":4},"meta":{"cache":"miss","category":"utilities","endpoint":"utilities.uuid","tier":"anonymous"},"links":{"self":"${event.url.pathname}"},"timestamp":"${isoNow()}","request_id":"${id}"}`
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
      'cache-control': 'no-store',
    },
  })
  log?.write(
    `{"level":30,"time":"${isoNow()}","service":"infralens","log":"access","request_id":"${id}","endpoint":"utilities.uuid","method":"GET","status":200,"duration_ms":${Math.round((performance.now() - started) * 100) / 100},"cache":"miss","tier":"anonymous","msg":"request"}\n`,
  )
  return response
})
const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
await server.ready()
process.send?.({ url: server.url })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0))
