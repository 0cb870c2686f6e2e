import { createApp } from '../../runtime/app.ts'
import { listen } from '../../runtime/server.ts'
import { HERMETIC_ENV } from '../../test/support/hermetic-env.ts'

// The service's HTTP server as `npm start` runs it in one process: runtime/server.ts's
// listen(), so the server's limits, the request guard and the drain bookkeeping are
// measured too (pipeline-server.ts has createApp and srvx's defaults only).
// Hermetic, the anonymous limit raised so the limiter runs without refusing.

const service = await createApp({
  env: { LOG_LEVEL: 'warn', ...HERMETIC_ENV, ...process.env, INFRALENS_RATE_LIMITS: 'anonymous=1000000000' },
})
const server = await listen(service, { port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
process.send?.({ url: server.url })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0))
