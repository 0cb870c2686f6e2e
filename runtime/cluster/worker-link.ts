import type { Socket } from 'node:net'
import type { WindowState } from '../memory-windows.ts'
import type { Gathered, PrimaryMessage, ServiceStatus, WorkerMessage } from './messages.ts'
import { isOurs } from './messages.ts'

// A cluster worker's line to its primary (runtime/cluster/primary.ts), handed to
// plugins as api.cluster: counters the primary owns, questions every worker
// answers, and the service's own facts. Undefined in a single process.

export type { Gathered, ServiceStatus } from './messages.ts'

/** Fixed-window counters kept by the primary, so every worker counts against the same window. */
export interface SharedWindows {
  /** Spends `points`; when that would pass the limit, nothing is spent and `refused` is set. */
  consume(key: string, points: number): Promise<{ state: WindowState; refused: boolean }>
  /** The open window's state, or null when the key has none. */
  get(key: string): Promise<WindowState | null>
}

export interface ClusterLink {
  /** This worker's slot, 1..size (a replacement takes the slot of the worker it replaces). */
  readonly worker: number
  /** Workers the service runs (INFRALENS_WORKERS). */
  readonly size: number
  /** The counters named `name` (the first worker to ask creates them, with its options). */
  windows(name: string, options: { points: number; durationSeconds: number }): SharedWindows
  /** How this worker answers `topic` when any worker gathers it. */
  answer(topic: string, handler: () => unknown): void
  /** Asks every worker (this one too) `topic`; a worker that has not answered within `timeoutMs` is missing. */
  gather<T>(topic: string, timeoutMs?: number): Promise<Gathered<T>>
  /** The service as a whole: started when, workers listening, restarts. */
  status(): Promise<ServiceStatus>
}

/** How a worker tells its primary what became of its start-up. */
export interface WorkerStartup {
  /** Where the connections the primary accepted for this worker go (set before `listening`). */
  onConnection(handler: (socket: Socket) => void): void
  listening(url: string, endpoints: number): void
  /** Resolves once the message is on its way (the worker exits next). */
  failed(message: string): Promise<void>
}

/** Past this the primary itself is not answering: the request fails rather than hang. */
const PRIMARY_TIMEOUT_MS = 5000

interface Waiter<T> {
  resolve(value: T): void
  reject(error: Error): void
}

const send = (message: WorkerMessage) => process.send!(message)

/**
 * Connects this worker to its primary: waits for the primary's hello (its slot),
 * then answers and asks over the IPC channel. Call once, in a cluster worker.
 */
export async function connectWorker(): Promise<ClusterLink & WorkerStartup> {
  if (!process.send) throw new Error('connectWorker() runs in a cluster worker (no IPC channel)')
  const answers = new Map<string, () => unknown>()
  const replies = new Map<number, Waiter<unknown>>()
  const batches = new Map<number, Array<Waiter<number[]>>>()
  let seq = 0
  let gone: Error | undefined

  // Counter operations made in one turn of the event loop go in one message
  // (flushed by setImmediate, after the poll phase that read the requests): one
  // IPC write per batch, not per request.
  let ops: Array<string | number> = []
  let waiting: Array<Waiter<number[]>> = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    const id = ++seq
    batches.set(id, waiting)
    send({ il: 'windows', id, ops })
    ops = []
    waiting = []
  }
  const operate = (name: string, key: string, points: number): Promise<number[]> =>
    new Promise((resolve, reject) => {
      if (gone) return reject(gone)
      ops.push(name, key, points)
      waiting.push({ resolve, reject })
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    })

  const request = <T>(message: (id: number) => WorkerMessage, timeoutMs: number): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (gone) return reject(gone)
      const id = ++seq
      const timer = setTimeout(() => {
        replies.delete(id)
        reject(new Error(`the cluster primary did not answer within ${timeoutMs} ms`))
      }, timeoutMs)
      timer.unref()
      replies.set(id, {
        resolve: (value) => {
          clearTimeout(timer)
          resolve(value as T)
        },
        reject: (error) => {
          clearTimeout(timer)
          reject(error)
        },
      })
      send(message(id))
    })

  let hello: (value: { slot: number; size: number }) => void
  const helloReceived = new Promise<{ slot: number; size: number }>((resolve) => (hello = resolve))

  let connection: ((socket: Socket) => void) | undefined
  process.on('message', (message: unknown, handle: unknown) => {
    if (!isOurs(message)) return
    const m = message as PrimaryMessage
    switch (m.il) {
      case 'conn':
        if (handle === undefined) break
        if (connection) connection(handle as Socket)
        else (handle as Socket).destroy()
        break
      case 'hello':
        hello({ slot: m.slot, size: m.size })
        break
      case 'windows': {
        const waiters = batches.get(m.id)
        batches.delete(m.id)
        waiters?.forEach((w, i) => w.resolve(m.res.slice(i * 3, i * 3 + 3)))
        break
      }
      case 'ask': {
        const handler = answers.get(m.topic)
        void (async () => {
          try {
            if (!handler) throw new Error(`no answer for "${m.topic}" in this worker`)
            send({ il: 'told', id: m.id, value: await handler() })
          } catch (error) {
            send({ il: 'told', id: m.id, error: (error as Error).message })
          }
        })()
        break
      }
      case 'gathered':
        replies.get(m.id)?.resolve(m.gathered)
        replies.delete(m.id)
        break
      case 'status':
        replies.get(m.id)?.resolve(m.status)
        replies.delete(m.id)
        break
    }
  })
  // The primary is gone (Node's cluster then ends this worker too): nothing it owed comes.
  process.once('disconnect', () => {
    gone = new Error('the cluster primary is gone')
    for (const waiters of batches.values()) for (const w of waiters) w.reject(gone)
    for (const w of waiting) w.reject(gone)
    for (const w of replies.values()) w.reject(gone)
    batches.clear()
    replies.clear()
  })

  send({ il: 'connect' })
  const { slot, size } = await helloReceived
  const state = (res: number[], points: number): WindowState => ({
    consumedPoints: Math.max(res[0]!, 0),
    remainingPoints: Math.max(points - Math.max(res[0]!, 0), 0),
    msBeforeNext: res[1]!,
  })
  // The cause of this worker's death, for the primary's log line about it; Node
  // still prints the error and exits as it would (a monitor changes nothing).
  process.on('uncaughtExceptionMonitor', (error, origin) => {
    try {
      send({ il: 'fatal', cause: `${origin}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` })
    } catch {
      // the channel is gone too: the exit code and signal will have to do
    }
  })
  return {
    worker: slot,
    size,
    windows(name, options) {
      send({ il: 'define', name, points: options.points, durationSeconds: options.durationSeconds })
      return {
        consume: (key, points) => operate(name, key, points).then((res) => ({ state: state(res, options.points), refused: res[2] === 1 })),
        get: (key) => operate(name, key, 0).then((res) => (res[0]! < 0 ? null : state(res, options.points))),
      }
    },
    answer(topic, handler) {
      answers.set(topic, handler)
    },
    gather: <T>(topic: string, timeoutMs = 2000) => request<Gathered<T>>((id) => ({ il: 'gather', id, topic, timeoutMs }), timeoutMs + PRIMARY_TIMEOUT_MS),
    status: () => request<ServiceStatus>((id) => ({ il: 'status', id }), PRIMARY_TIMEOUT_MS),
    onConnection(handler) {
      connection = handler
    },
    listening: (url, endpoints) => send({ il: 'listening', url, endpoints }),
    failed: (message) => new Promise<void>((resolve) => process.send!({ il: 'failed', message } satisfies WorkerMessage, () => resolve())),
  }
}
