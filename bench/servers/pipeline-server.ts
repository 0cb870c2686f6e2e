import { serve } from 'srvx'
import { createApp } from '../../runtime/app.ts'
import { freezeIntrinsics } from '../../runtime/harden.ts'
import { HERMETIC_ENV } from '../../test/support/hermetic-env.ts'

// The whole service as `npm start` runs it, on a port given by the load script.
// The anonymous limit is raised so the limiter runs (and is measured) without refusing.
// Hermetic unless the load script brings loopback upstreams: no public resolver,
// the VRP set from a local file (the default would fetch it from the internet at start).

const { app } = await createApp({
  env: { LOG_LEVEL: 'warn', ...HERMETIC_ENV, ...process.env, INFRALENS_RATE_LIMITS: 'anonymous=1000000000' },
})
const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
await server.ready()
// As runtime/serve.ts does after start-up when INFRALENS_FREEZE_INTRINSICS is true
// (off by default: what it costs, bench/RESULTS.md).
if (/^(true|1|yes)$/.test(process.env.INFRALENS_FREEZE_INTRINSICS ?? '')) freezeIntrinsics()
process.send?.({ url: server.url })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0))
