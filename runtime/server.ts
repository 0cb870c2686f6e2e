import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http'
import { Server as NetServer } from 'node:net'
import { serve } from 'srvx'
import type { Server } from 'srvx'
import type { InfralensApp } from './app.ts'
import { defineIsoNow } from './clock.ts'
import { answerParserErrors } from './parser-errors.ts'
import { guardRequests } from './request-guard.ts'

export const MAX_BODY_BYTES = 8 * 1024 * 1024
export const MAX_HEADER_BYTES = 16 * 1024

/** The HTTP server with the service's limits: header and body sizes, slow-client timeouts. */
export async function listen(service: InfralensApp, options: { port: number; host: string; shared?: boolean }): Promise<Server> {
  const server = serve({
    fetch: service.app.fetch,
    port: options.port,
    hostname: options.host,
    // A cluster worker shares the primary's listening socket (node:cluster): srvx
    // asks for an exclusive one of its own unless told reusePort, and the second
    // worker's would fail with EADDRINUSE.
    ...(options.shared ? { reusePort: true } : {}),
    silent: true,
    gracefulShutdown: false,
    // Bodies past the largest descriptor limit are refused while streaming.
    maxRequestBodySize: MAX_BODY_BYTES,
    node: {
      maxHeaderSize: MAX_HEADER_BYTES,
      // Checked by the request guard instead, which answers with the envelope.
      requireHostHeader: false,
      // Slow clients cannot hold a socket forever (slowloris).
      headersTimeout: 10_000,
      // Node refuses a requestTimeout below headersTimeout (a short INFRALENS_REQUEST_TIMEOUT_MS).
      requestTimeout: Math.max(10_000, service.config.requestTimeoutMs + 5_000),
      keepAliveTimeout: 5_000,
    },
  })
  await server.ready()
  const node = server.node?.server as HttpServer | undefined
  if (node) {
    const isoNow = defineIsoNow(service.clock)
    // What the parser refuses, and what passes it but Node or srvx would answer
    // bare, get the error envelope too, not a bare status line.
    answerParserErrors(node, { nextId: service.nextId, isoNow, log: service.log, maxHeaderBytes: MAX_HEADER_BYTES })
    guardRequests(node, { nextId: service.nextId, isoNow, log: service.log })
  }
  // Once the listener is closed (shutdown), every answer says Connection: close, so
  // clients stop sending on kept-alive connections and those end by themselves
  // instead of being served until the grace period cuts them mid-request. Answers
  // still being worked on when the shutdown begins are tracked so drain() can mark
  // them too: their connections then close right after them, instead of idling
  // until the client's or the server's keep-alive timeout.
  if (node) {
    const pending = new Set<ServerResponse>()
    inFlight.set(server, pending)
    node.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      if (!node.listening) res.shouldKeepAlive = false
      else {
        pending.add(res)
        res.once('close', () => pending.delete(res))
      }
    })
  }
  return server
}

/** Per server, the answers not yet finished (see listen()). */
const inFlight = new WeakMap<Server, Set<ServerResponse>>()

/**
 * Graceful stop: no new connections, and resolves when every open one has ended.
 * Unlike Node's server.close(), kept-alive connections that look idle are not cut
 * at once — a request may be on its way on one of them. Busy ones close after
 * their next answer (Connection: close, see listen()); quiet ones on their
 * keep-alive timeout.
 */
export function drain(server: Server): Promise<void> {
  const node = server.node?.server as HttpServer | undefined
  if (!node?.listening) return server.close()
  return new Promise((resolve, reject) => {
    NetServer.prototype.close.call(node, (error?: Error) => (error ? reject(error) : resolve()))
    // Answers in progress end their connection (headers not sent yet: they still can say so).
    for (const res of inFlight.get(server) ?? []) if (!res.headersSent) res.shouldKeepAlive = false
  })
}
