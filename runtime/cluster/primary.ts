import cluster from 'node:cluster'
import type { Worker } from 'node:cluster'
import { once } from 'node:events'
import { createServer } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import type { Writable } from 'node:stream'
import type { Clock } from '../clock.ts'
import { defineIsoNow, systemClock } from '../clock.ts'
import type { Config } from '../config.ts'
import { createLogger } from '../logger.ts'
import { STABLE_MS, restartDelay } from './backoff.ts'
import { createLogRelay } from './log-relay.ts'
import type { Gathered, PrimaryMessage, ServiceStatus, WorkerMessage } from './messages.ts'
import { isOurs } from './messages.ts'
import { createWindowsService } from './primary-windows.ts'

// The primary of a clustered service (INFRALENS_WORKERS > 1; DESIGN §4). It
// serves no HTTP itself: it listens, and hands each connection it accepts to the
// next worker in turn, before reading a byte of it (pauseOnConnect); each worker
// runs the whole service (runtime/serve.ts). It listens itself rather than through
// node:cluster's shared handle so that on SIGTERM it can close the listener first,
// as a single process does: with the shared handle the listener stayed open until
// the last worker had closed its own, and connections accepted in that window
// with no worker left to take them were reset (9 requests dropped in 5 rounds of
// bench/sigterm.ts; 0 since). What it does besides:
// - keeps the rate-limit counters every worker counts against (primary-windows.ts);
// - asks every worker a question for one of them (readiness, metrics) and answers
//   the service's own facts (start time, workers, restarts);
// - replaces a worker that dies, at once if it had been up a while, with a
//   growing wait if it keeps dying young (backoff.ts), logging each death with
//   its exit code or signal and, when the worker could say, the uncaught error;
// - relays the workers' logs to its stdout line by line (log-relay.ts);
// - on SIGTERM/SIGINT has every worker drain (each finishes its in-flight
//   requests: runtime/server.ts drain()) and exits once all have.
// A worker that fails to start while the service starts stops the service with
// its message (a bad keys file is a bad keys file in every worker).

export interface PrimaryOptions {
  config: Config
  /** The module every worker runs (default: this process's main script). */
  exec?: string
  clock?: Clock
  /** Where the relayed logs and the primary's own lines go (default: stdout). */
  out?: Writable
}

interface Slot {
  n: number
  worker: Worker | undefined
  /** performance.now() of the fork, for the backoff's "died young". */
  forkedAt: number
  listening: boolean
  /** Deaths in a row of workers that lived less than STABLE_MS. */
  earlyDeaths: number
  /** The uncaught error the worker reported on its way out. */
  cause: string | undefined
  restart: NodeJS.Timeout | undefined
}

interface PendingAsk {
  resolve(value: unknown): void
  reject(error: Error): void
}

export async function runPrimary(options: PrimaryOptions): Promise<void> {
  const { config } = options
  const clock = options.clock ?? systemClock
  const out = options.out ?? process.stdout
  const relay = createLogRelay(out)
  const log = createLogger(config.logLevel, { write: (line: string) => relay.write(line) }, defineIsoNow(clock)).child({ component: 'cluster' })
  const size = config.workers
  const startedAt = clock.now()
  const windows = createWindowsService(clock)
  const slots: Slot[] = Array.from({ length: size }, (_, i) => ({ n: i + 1, worker: undefined, forkedAt: 0, listening: false, earlyDeaths: 0, cause: undefined, restart: undefined }))
  const slotOf = new Map<number, Slot>()
  const asks = new Map<number, PendingAsk>()
  let seq = 0
  let restarts = 0
  let stopping = false
  let started = false
  let url = ''
  // Connections accepted while no worker can take one (start-up, every worker restarting).
  const waiting: Socket[] = []
  let turn = 0

  cluster.setupPrimary({
    ...(options.exec ? { exec: options.exec } : {}),
    // stdout comes through the relay; stderr (Node's own fatal output) goes straight out.
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })

  const status = (): ServiceStatus => ({ startedAt, workers: { expected: size, listening: slots.filter((s) => s.listening).length }, restarts })

  const ask = (slot: Slot, topic: string, timeoutMs: number): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = ++seq
      const timer = setTimeout(() => {
        asks.delete(id)
        reject(new Error(`no answer within ${timeoutMs} ms`))
      }, timeoutMs)
      asks.set(id, {
        resolve: (value) => {
          clearTimeout(timer)
          resolve(value)
        },
        reject: (error) => {
          clearTimeout(timer)
          reject(error)
        },
      })
      slot.worker!.send({ il: 'ask', id, topic } satisfies PrimaryMessage)
    })

  const gather = async (topic: string, timeoutMs: number): Promise<Gathered<unknown>> => {
    const gathered: Gathered<unknown> = { expected: size, answers: [], missing: [] }
    await Promise.all(
      slots.map(async (slot) => {
        const worker = slot.worker
        if (!worker || !slot.listening || !worker.isConnected()) {
          gathered.missing.push({ worker: slot.n, reason: slot.restart ? 'restarting after it died' : 'starting' })
          return
        }
        try {
          gathered.answers.push({ worker: slot.n, pid: worker.process.pid!, value: await ask(slot, topic, timeoutMs) })
        } catch (error) {
          gathered.missing.push({ worker: slot.n, reason: (error as Error).message })
        }
      }),
    )
    gathered.answers.sort((a, b) => a.worker - b.worker)
    gathered.missing.sort((a, b) => a.worker - b.worker)
    return gathered
  }

  const ready = () => slots.filter((s) => s.listening && s.worker?.isConnected())
  const handOver = (socket: Socket): void => {
    const candidates = ready()
    if (candidates.length === 0 || stopping) {
      if (!stopping && waiting.length < 1024) waiting.push(socket)
      else socket.destroy()
      return
    }
    const slot = candidates[turn++ % candidates.length]!
    // The socket is closed here once it is on its way; a worker that died meanwhile cannot take it.
    slot.worker!.send({ il: 'conn' } satisfies PrimaryMessage, socket, (error) => {
      if (error) socket.destroy()
    })
  }
  const listener = createServer({ pauseOnConnect: true }, handOver)
  listener.on('error', (error) => log.error({ err: error }, 'listener error'))
  try {
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject)
      listener.listen({ port: config.port, host: config.host }, () => {
        listener.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    console.error(`Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`)
    process.exit(1)
  }
  {
    const address = listener.address() as AddressInfo
    url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`
  }

  let startupFailed: (message: string) => void
  const startupFailure = new Promise<string>((resolve) => (startupFailed = resolve))
  let allListening: () => void
  const listening = new Promise<void>((resolve) => (allListening = resolve))

  const onMessage = (slot: Slot, worker: Worker, message: unknown): void => {
    if (!isOurs(message)) return
    const m = message as WorkerMessage
    const reply = (answer: PrimaryMessage) => {
      if (worker.isConnected()) worker.send(answer)
    }
    switch (m.il) {
      case 'connect':
        reply({ il: 'hello', slot: slot.n, size })
        break
      case 'windows':
        reply({ il: 'windows', id: m.id, res: windows.run(m.ops) })
        break
      case 'define':
        windows.define(m.name, m.points, m.durationSeconds)
        break
      case 'listening':
        slot.listening = true
        for (const socket of waiting.splice(0)) handOver(socket)
        if (!started && slots.every((s) => s.listening)) {
          started = true
          log.info({ url, endpoints: m.endpoints, workers: size, pid: process.pid }, 'infralens listening')
          allListening()
        } else if (started) {
          log.info({ worker: slot.n, pid: worker.process.pid }, 'worker replaced: listening again')
        }
        break
      case 'failed':
        if (!started) startupFailed(m.message)
        else log.error({ worker: slot.n, pid: worker.process.pid, reason: m.message }, 'worker failed to start')
        break
      case 'fatal':
        slot.cause = m.cause
        break
      case 'gather':
        void gather(m.topic, m.timeoutMs).then((gathered) => reply({ il: 'gathered', id: m.id, gathered }))
        break
      case 'told': {
        const pending = asks.get(m.id)
        asks.delete(m.id)
        if (m.error !== undefined) pending?.reject(new Error(m.error))
        else pending?.resolve(m.value)
        break
      }
      case 'status':
        reply({ il: 'status', id: m.id, status: status() })
        break
    }
  }

  const fork = (slot: Slot): void => {
    slot.restart = undefined
    const worker = cluster.fork()
    slot.worker = worker
    slot.forkedAt = performance.now()
    slot.listening = false
    slot.cause = undefined
    slotOf.set(worker.id, slot)
    if (worker.process.stdout) relay.add(worker.process.stdout)
    worker.on('message', (message: unknown) => onMessage(slot, worker, message))
  }

  let exited: () => void
  const allExited = new Promise<void>((resolve) => (exited = resolve))
  let cleanExits = true

  cluster.on('exit', (worker, code, signal) => {
    const slot = slotOf.get(worker.id)
    slotOf.delete(worker.id)
    if (!slot || slot.worker !== worker) return
    slot.worker = undefined
    slot.listening = false
    if (stopping) {
      if (code !== 0) cleanExits = false
      if (slots.every((s) => s.worker === undefined)) exited()
      return
    }
    if (!started) {
      // Its 'failed' message, if it sent one, may still be on its way: give it a moment.
      const cause = slot.cause
      setTimeout(() => startupFailed(cause ?? `worker ${slot.n} exited during start-up (${signal ? `signal ${signal}` : `code ${code}`})`), 200).unref()
      return
    }
    const lived = performance.now() - slot.forkedAt
    slot.earlyDeaths = lived < STABLE_MS ? slot.earlyDeaths + 1 : 0
    const delay = restartDelay(slot.earlyDeaths)
    log.error(
      { worker: slot.n, pid: worker.process.pid, code, signal, lived_ms: Math.round(lived), cause: slot.cause ?? (signal ? `killed by ${signal}` : `exited with code ${code}`), restart_in_ms: delay },
      'worker died; replacing it',
    )
    restarts++
    slot.restart = setTimeout(() => fork(slot), delay)
  })

  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return
    stopping = true
    // New connections are refused from here on, as by a single process; then every worker drains.
    listener.close()
    for (const socket of waiting.splice(0)) socket.destroy()
    const live = slots.filter((s) => s.worker !== undefined)
    log.info({ signal, workers: live.length }, 'shutting down: every worker finishes its in-flight requests')
    for (const slot of slots) clearTimeout(slot.restart)
    if (live.length === 0) exited()
    for (const slot of live) slot.worker!.process.kill(signal)
    // Each worker has its own grace period (INFRALENS_SHUTDOWN_GRACE_MS); this is
    // for one that does not keep it.
    const force = setTimeout(() => {
      log.warn({ grace_ms: config.shutdownGraceMs }, 'workers still running after the grace period; killing them')
      for (const slot of slots) slot.worker?.process.kill('SIGKILL')
    }, config.shutdownGraceMs + 5000)
    force.unref()
    void allExited.then(async () => {
      windows.close()
      log.info({ clean: cleanExits }, 'stopped')
      if (out.writableLength > 0) await once(out, 'drain')
      process.exit(cleanExits ? 0 : 1)
    })
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal))

  for (const slot of slots) fork(slot)
  const failed = await Promise.race([startupFailure, listening.then(() => undefined)])
  if (failed !== undefined) {
    // Said once, as a single process would say it; every worker is stopped.
    stopping = true
    listener.close()
    console.error(failed)
    for (const slot of slots) slot.worker?.process.kill('SIGKILL')
    if (out.writableLength > 0) await once(out, 'drain')
    process.exit(1)
  }
}
