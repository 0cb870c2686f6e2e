import { H3 } from 'h3'
import { serve } from 'srvx'
import { FastResponse } from 'srvx'

// The baseline: one h3 route returning a fixed JSON body of the size the pipeline
// sends for /api/uuid (passed in BODY_BYTES), as srvx FastResponse — the fastest
// way to answer from h3 (notes/performance.md).

const size = Number(process.env.BODY_BYTES ?? 290)
const filler = 'x'.repeat(Math.max(0, size - JSON.stringify({ success: true, data: '' }).length))
const body = JSON.stringify({ success: true, data: filler })
const app = new H3()
app.get('/**', () => new FastResponse(body, { headers: { 'content-type': 'application/json; charset=utf-8' } }))
const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
await server.ready()
process.send?.({ url: server.url })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0))
