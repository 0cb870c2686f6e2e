import { serve } from 'srvx'
import { createApp } from './app.ts'
import { ConfigError } from './config.ts'

// npm start: the whole service on the embedded defaults (PORT 3000).

let service
try {
  service = await createApp()
} catch (error) {
  // Wiring and config mistakes stop start-up with their own clear message.
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
}
const { app, config, log, endpoints } = service
const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host, silent: true, gracefulShutdown: false })
await server.ready()
log.info({ url: server.url, endpoints: endpoints.length }, 'infralens listening')

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'shutting down')
    void (async () => {
      await server.close()
      await service.close()
      process.exit(0)
    })()
  })
}
