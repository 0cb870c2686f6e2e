import { createApp } from './app.ts'
import { ConfigError } from './config.ts'
import { freezeIntrinsics } from './harden.ts'
import { drain, listen } from './server.ts'

// npm start: the whole service on the embedded defaults (PORT 3000).

let service
try {
  service = await createApp()
} catch (error) {
  // Wiring and config mistakes stop start-up with their own clear message.
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
}
const { config, log, endpoints } = service
const server = await listen(service, { port: config.port, host: config.host })
// Everything has loaded and set itself up: from here on the built-in prototypes
// cannot change (runtime/harden.ts), whatever a request manages to reach.
freezeIntrinsics()
log.info({ url: server.url, endpoints: endpoints.length }, 'infralens listening')

// SIGTERM/SIGINT: stop accepting, let in-flight requests finish (up to the grace
// period), then close Redis and flush logs.
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests')
    const force = setTimeout(() => {
      log.warn({ grace_ms: config.shutdownGraceMs }, 'grace period over; closing remaining connections')
      void server.close(true)
    }, config.shutdownGraceMs)
    force.unref()
    void (async () => {
      await drain(server)
      await service.close()
      log.info('stopped')
      process.exit(0)
    })()
  })
}
