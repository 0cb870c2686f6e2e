import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http'
import { Server as NetServer } from 'node:net'
import type { Socket } from 'node:net'
import { serve } from 'srvx'
import type { Server } from 'srvx'
import type { InfralensApp } from './app.ts'
import { defineIsoNow } from './clock.ts'
import { defineDirectGets } from './direct-gets.ts'
import { answerParserErrors } from './parser-errors.ts'
import { guardRequests } from './request-guard.ts'

export const MAX_BODY_BYTES = 8 * 1024 * 1024
export const MAX_HEADER_BYTES = 16 * 1024

/** The HTTP server with the service's limits: header and body sizes, slow-client timeouts. */
export async function listen(
  service: InfralensApp,
  options: {
    port: number
    host: string
    handedOver?: boolean
    /** false: every request through srvx's adapter and h3's app, none on the direct path (runtime/direct-gets.ts; its test compares the two). */
    directGets?: boolean
  },
): Promise<Server> {
  const server = serve({
    fetch: service.app.fetch,
    port: options.port,
    hostname: options.host,
    // A cluster worker does not listen: the primary does, and hands it each
    // connection (runtime/cluster/primary.ts, acceptConnection below).
    ...(options.handedOver ? { manual: true } : {}),
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
  if (!options.handedOver) await server.ready()
  const node = server.node?.server as HttpServer | undefined
  if (node) {
    const isoNow = defineIsoNow(service.clock)
    // What the parser refuses, and what passes it but Node or srvx would answer
    // bare, get the error envelope too, not a bare status line.
    answerParserErrors(node, { nextId: service.nextId, isoNow, log: service.log, maxHeaderBytes: MAX_HEADER_BYTES })
    guardRequests(node, {
      nextId: service.nextId,
      isoNow,
      log: service.log,
      ...(options.directGets === false ? {} : { first: defineDirectGets(service.app, { maxRequestBodySize: MAX_BODY_BYTES }) }),
    })
  }
  // Once the listener is closed (shutdown), every answer says Connection: close, so
  // clients stop sending on kept-alive connections and those end by themselves
  // instead of being served until the grace period cuts them mid-request. Answers
  // still being worked on when the shutdown begins are found through their
  // connections at that moment (drain()), so their connections close right after
  // them instead of idling until the client's or the server's keep-alive timeout.
  // Until the shutdown this costs a request nothing: the 'request' listener that
  // says Connection: close is added by drain() (tracking each answer in a set with
  // a 'close' listener cost ~1 µs of every request, bench/RESULTS.md, and even a
  // listener testing a flag made every request's emit copy a two-handler list).
  if (node) {
    const state: ServerState = { draining: false, sockets: new Set() }
    states.set(server, state)
    // Open connections: for drain(), to find the answers in progress, and to know
    // when the last one has ended where there is no listener of our own to close.
    node.on('connection', (socket: Socket) => {
      state.sockets.add(socket)
      socket.once('close', () => state.sockets.delete(socket))
    })
  }
  return server
}

/** A connection the cluster's primary accepted and handed to this worker: served as if accepted here. */
export function acceptConnection(server: Server, socket: Socket): void {
  const node = server.node?.server as HttpServer | undefined
  if (!node || states.get(server)?.draining) {
    socket.destroy()
    return
  }
  node.emit('connection', socket)
}

/** Per server: shutting down or not, and the open connections (see listen()). */
interface ServerState {
  draining: boolean
  sockets: Set<Socket>
}

/**
 * The answer a connection is writing or working on: Node's HTTP server keeps it on
 * the socket (`_httpMessage`) from the request's arrival until it is finished.
 */
function answerInProgress(socket: Socket): ServerResponse | undefined {
  const res = (socket as Socket & { _httpMessage?: unknown })._httpMessage
  return res !== null && typeof res === 'object' && 'shouldKeepAlive' in res ? (res as ServerResponse) : undefined
}
const states = new WeakMap<Server, ServerState>()

/**
 * Graceful stop: no new connections, and resolves when every open one has ended.
 * Unlike Node's server.close(), kept-alive connections that look idle are not cut
 * at once — a request may be on its way on one of them. Busy ones close after
 * their next answer (Connection: close, see listen()); quiet ones on their
 * keep-alive timeout.
 */
export function drain(server: Server): Promise<void> {
  const node = server.node?.server as HttpServer | undefined
  const state = states.get(server)
  if (!node || !state) return server.close()
  if (!state.draining) {
    state.draining = true
    // Answers begun from now on end their connection. First in line, so it runs
    // before the handler writes anything.
    node.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      res.shouldKeepAlive = false
    })
  }
  // Answers in progress end their connection (headers not sent yet: they still can say so).
  for (const socket of state.sockets) {
    const res = answerInProgress(socket)
    if (res !== undefined && !res.headersSent) res.shouldKeepAlive = false
  }
  if (node.listening) return new Promise((resolve, reject) => NetServer.prototype.close.call(node, (error?: Error) => (error ? reject(error) : resolve())))
  // A cluster worker: the primary has closed the listener; done when the last connection ends.
  return new Promise((resolve) => {
    const check = () => {
      if (state.sockets.size === 0) resolve()
    }
    for (const socket of state.sockets) socket.once('close', () => setImmediate(check))
    check()
  })
}
