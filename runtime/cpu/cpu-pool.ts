import { Piscina } from 'piscina'
import { ApiError, ClientClosedError, PoolBusyError } from '../errors.ts'
import type { CpuWorkerData, OffloadResult, OffloadTask } from './task.ts'

// The CPU pool: worker threads that answer the endpoints marked `offload`, so a
// 100k-entry summarize never holds the event loop (bench/RESULTS.md, "CPU pool").
//
// piscina rather than tinypool (measured side by side, bench/RESULTS.md): the same
// per-task cost (~0.1 ms) and start-up, but it also runs a .ts entry with tsx given
// as execArgv (tinypool failed to), and it has what this needs built in: a bounded
// queue, per-task AbortSignal, and completed/queue counters. The bound is counted
// here, though: piscina's maxQueue let a cold pool (workers still starting) queue
// past it (measured: 5 queued with maxQueue 1).

export interface CpuPoolOptions {
  /** Worker threads; they start on the first offloaded request and stay. */
  threads: number
  /** Tasks that may wait for a free worker; one more is a 503 with Retry-After. */
  maxQueue: number
  data: CpuWorkerData
}

export interface CpuPoolStats {
  threads: number
  /** Worker threads running now (0 until the first offloaded request). */
  started: number
  queued: number
  /** Tasks the pool holds now, queued or running. */
  inFlight: number
  /** Tasks finished in a worker, successful or not. */
  completed: number
}

export interface CpuPool {
  /**
   * Runs one request in a worker. `signal` (client gone): a queued task leaves
   * the queue; a running one is stopped with its worker, which piscina replaces.
   */
  run(task: OffloadTask, signal: AbortSignal | undefined): Promise<OffloadResult>
  stats(): CpuPoolStats
  close(): Promise<void>
}

const WORKER = new URL('./worker.mjs', import.meta.url).href

function clientClosed(): ApiError {
  return new ClientClosedError()
}

export function defineCpuPool(options: CpuPoolOptions): CpuPool {
  let pool: Piscina<OffloadTask, OffloadResult> | undefined
  let closed = false
  let inFlight = 0
  const start = (): Piscina<OffloadTask, OffloadResult> =>
    (pool ??= new Piscina<OffloadTask, OffloadResult>({
      filename: WORKER,
      minThreads: options.threads,
      maxThreads: options.threads,
      // One request at a time per worker: the work is CPU, a second would only wait.
      concurrentTasksPerWorker: 1,
      // The entry registers tsx itself (worker.mjs): nothing from the parent's flags.
      execArgv: [],
      workerData: options.data,
      // Workers stay: starting one (tsx, the registry, the pipeline) takes ~0.5 s.
      idleTimeout: Number.POSITIVE_INFINITY,
    }))

  return {
    async run(task, signal) {
      if (closed) throw new PoolBusyError('The service is shutting down; retry on another instance.', { reason: 'closing' })
      // Bounded: a request past it is answered at once, not held in memory.
      if (inFlight >= options.threads + options.maxQueue) {
        throw new PoolBusyError(
          `The service is busy with CPU-heavy requests (${options.maxQueue} waiting for ${options.threads} worker${options.threads === 1 ? '' : 's'}); retry in a second.`,
          { reason: 'cpu_queue_full', queue: options.maxQueue },
        )
      }
      const transferList = task.body ? [task.body.buffer as ArrayBuffer] : []
      inFlight++
      try {
        return await start().run(task, { transferList, ...(signal ? { signal } : {}) })
      } catch (error) {
        if (signal?.aborted) throw clientClosed()
        throw error
      } finally {
        inFlight--
      }
    },
    stats: () => ({ threads: options.threads, started: pool?.threads.length ?? 0, queued: pool?.queueSize ?? 0, inFlight, completed: pool?.completed ?? 0 }),
    async close() {
      closed = true
      await pool?.destroy()
    },
  }
}
