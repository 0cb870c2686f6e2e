import type { AppOptions, InfralensApp } from './app.ts'
import { createApp } from './app.ts'
import type { ClusterLink, WorkerStartup } from './cluster/worker-link.ts'
import { ConfigError } from './config.ts'
import { freezeIntrinsics } from './harden.ts'
import { acceptConnection, drain, listen } from './server.ts'
import { warmUp } from './warm-up.ts'

/** How long a serving process waits for its readiness checks before it listens anyway (runtime/warm-up.ts). */
export const WARM_UP_MS = 5_000

// One process serving HTTP: the whole service when INFRALENS_WORKERS is 1, or one
// cluster worker of several (runtime/cluster/). Builds the app, loads what its
// readiness checks wait for (runtime/warm-up.ts, at most WARM_UP_MS), listens, freezes
// the built-in prototypes, and on SIGTERM/SIGINT drains: stops accepting,
// finishes the requests in flight (up to the grace period), closes Redis and the
// logs, exits 0.

export interface ServeOptions {
  app?: Omit<AppOptions, 'cluster'>
  /** Set in a cluster worker: start-up is reported to the primary, which logs for the service. */
  cluster?: ClusterLink & WorkerStartup
}

export async function serveProcess(options: ServeOptions = {}): Promise<InfralensApp> {
  const link = options.cluster
  // Told to stop before listening (an orchestrator giving up on a slow start, a
  // deploy rolled back): nothing to drain yet. The warm-up stops waiting, the
  // service closes what it opened, the process exits 0 instead of dying by the
  // signal. Replaced by the draining handlers once the server listens.
  const early = new AbortController()
  let earlySignal: NodeJS.Signals | undefined
  const onEarlySignal = (signal: NodeJS.Signals) => {
    earlySignal ??= signal
    early.abort()
  }
  process.on('SIGINT', onEarlySignal)
  process.on('SIGTERM', onEarlySignal)
  let service: InfralensApp
  try {
    service = await createApp({ ...options.app, ...(link ? { cluster: link } : {}) })
  } catch (error) {
    // Wiring and config mistakes stop start-up with their own clear message; in a
    // cluster the primary says it once for all workers.
    const message = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)
    if (link) await link.failed(message)
    else console.error(message)
    process.exit(1)
  }
  const { config, log, endpoints } = service
  const warmed = await warmUp(service.readinessChecks, { timeoutMs: WARM_UP_MS, intervalMs: 25, signal: early.signal })
  if (earlySignal !== undefined) {
    log.info({ signal: earlySignal, ...(link ? { worker: link.worker } : {}) }, 'stopped before listening')
    await service.close()
    process.exit(0)
  }
  if (warmed.ready) log.info({ ms: warmed.ms, ...(link ? { worker: link.worker } : {}) }, 'readiness checks pass before listening')
  else log.warn({ ms: warmed.ms, pending: warmed.pending, ...(link ? { worker: link.worker } : {}) }, 'listening before every readiness check passes; /api/ready reports them')
  const server = await listen(service, { port: config.port, host: config.host, handedOver: link !== undefined })
  // In a cluster the primary listens and hands this worker its connections.
  link?.onConnection((socket) => acceptConnection(server, socket))
  // Everything has loaded and set itself up: from here on the built-in prototypes
  // cannot change (runtime/harden.ts), whatever a request manages to reach. Opt-in:
  // it costs every request ~7-14 % of its CPU on Node 20 (bench/RESULTS.md); the
  // defence that counts is that no client string becomes a key of a plain object.
  if (config.freezeIntrinsics) freezeIntrinsics()
  if (link) link.listening(server.url ?? '', endpoints.length)
  else log.info({ url: server.url, endpoints: endpoints.length }, 'infralens listening')

  let stopping = false
  process.off('SIGINT', onEarlySignal)
  process.off('SIGTERM', onEarlySignal)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return
      stopping = true
      log.info({ signal, ...(link ? { worker: link.worker } : {}) }, 'shutting down: no new connections, finishing in-flight requests')
      const force = setTimeout(() => {
        log.warn({ grace_ms: config.shutdownGraceMs }, 'grace period over; closing remaining connections')
        void server.close(true)
      }, config.shutdownGraceMs)
      force.unref()
      void (async () => {
        await drain(server)
        await service.close()
        log.info(link ? { worker: link.worker } : {}, 'stopped')
        process.exit(0)
      })()
    })
  }
  // A signal that came while the server was starting to listen: drained like any.
  if (earlySignal !== undefined) process.kill(process.pid, earlySignal)
  return service
}
