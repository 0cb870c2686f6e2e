import type { Clock } from '../clock.ts'
import { MemoryWindows } from '../memory-windows.ts'

// The rate-limit counters of a clustered service, kept by the primary alone
// (issue 21): every worker's request is counted in one place, in arrival order,
// synchronously, so N workers let exactly `points` through per window, as one
// process would. Nothing here has a timeout: a worker whose event loop lags only
// gets its answers later, never a different count, and counters exist before the
// first worker is forked, so the first requests after start-up count like any.
//
// The alternative measured against this (bench/RESULTS.md, issue 21) is
// rate-limiter-flexible's RateLimiterCluster: a promise, a timer and an IPC
// message per call, and a second round trip to give refused points back.

export interface WindowsService {
  define(name: string, points: number, durationSeconds: number): void
  /**
   * Runs a batch of [name, key, points] triples in order; three numbers per
   * operation back: points consumed (-1: no open window), ms before the window
   * ends, refused (1) or not (0). points 0 reads without spending. A refused
   * operation spends nothing (its points are given back at once, as the memory
   * store does), so a refused expensive call never crowds out a cheaper one.
   */
  run(ops: ReadonlyArray<string | number>): number[]
  close(): void
}

export function createWindowsService(clock: Clock): WindowsService {
  const windows = new Map<string, MemoryWindows>()
  return {
    define(name, points, durationSeconds) {
      if (!windows.has(name)) windows.set(name, new MemoryWindows({ points, durationSeconds, now: () => clock.now() }))
    },
    run(ops) {
      const res: number[] = []
      for (let i = 0; i + 2 < ops.length; i += 3) {
        const w = windows.get(String(ops[i]))
        const key = String(ops[i + 1])
        const points = Number(ops[i + 2])
        if (w === undefined) {
          // Defined before any use by the same worker (IPC keeps order): cannot happen.
          res.push(-1, 0, 1)
        } else if (points === 0) {
          const state = w.get(key)
          res.push(state ? state.consumedPoints : -1, state ? state.msBeforeNext : 0, 0)
        } else {
          const spent = w.consume(key, points)
          const state = spent.refused ? w.reward(key, points) : spent.state
          res.push(state.consumedPoints, state.msBeforeNext, spent.refused ? 1 : 0)
        }
      }
      return res
    },
    close() {
      for (const w of windows.values()) w.close()
    },
  }
}
