import { serve } from 'srvx'
import type { Server } from 'srvx'
import type { InfralensApp } from './app.ts'

export const MAX_BODY_BYTES = 8 * 1024 * 1024
export const MAX_HEADER_BYTES = 16 * 1024

/** The HTTP server with the service's limits: header and body sizes, slow-client timeouts. */
export async function listen(service: InfralensApp, options: { port: number; host: string }): Promise<Server> {
  const server = serve({
    fetch: service.app.fetch,
    port: options.port,
    hostname: options.host,
    silent: true,
    gracefulShutdown: false,
    // Bodies past the largest descriptor limit are refused while streaming.
    maxRequestBodySize: MAX_BODY_BYTES,
    node: {
      maxHeaderSize: MAX_HEADER_BYTES,
      // Slow clients cannot hold a socket forever (slowloris).
      headersTimeout: 10_000,
      // Node refuses a requestTimeout below headersTimeout (a short INFRALENS_REQUEST_TIMEOUT_MS).
      requestTimeout: Math.max(10_000, service.config.requestTimeoutMs + 5_000),
      keepAliveTimeout: 5_000,
    },
  })
  await server.ready()
  return server
}
