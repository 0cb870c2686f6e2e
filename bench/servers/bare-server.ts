import { H3 } from 'h3'
import { serve } from 'srvx'
import { FastResponse } from 'srvx'

// The baseline: one h3 route returning a fixed JSON body of the size the pipeline
// sends for /api/uuid (passed in BODY_BYTES), as srvx FastResponse — the fastest
// way to answer from h3 (notes/performance.md). Routed as the service routes the
// paths the load script measures (a static route, a route with a parameter), so
// both pay the same router cost; any other path falls through to a catch-all.

const size = Number(process.env.BODY_BYTES ?? 290)
const filler = 'x'.repeat(Math.max(0, size - JSON.stringify({ success: true, data: '' }).length))
const body = JSON.stringify({ success: true, data: filler })
const app = new H3()
const answer = () => new FastResponse(body, { headers: { 'content-type': 'application/json; charset=utf-8' } })
app.get('/api/uuid', answer)
app.get('/api/dns/a/:domain', answer)
app.get('/**', answer)
const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
await server.ready()
process.send?.({ url: server.url })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0))
