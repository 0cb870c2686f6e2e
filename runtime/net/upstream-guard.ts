import { UpstreamError } from '../errors.ts'
import type { UpstreamReason } from '../errors.ts'

// Per-upstream protection: a circuit breaker (after `threshold` failures in a row
// the upstream is not called for `openMs`; then one probe decides) and a bound on
// concurrent calls, so one slow upstream cannot take every socket and every
// request's time with it.

export interface UpstreamGuardOptions {
  threshold: number
  openMs: number
  maxConcurrent: number
  now?: () => number
}

type State = { kind: 'closed'; failures: number } | { kind: 'open'; until: number } | { kind: 'half-open' }

export interface UpstreamGuard {
  /**
   * Runs `work` under the breaker and the concurrency bound of `key`. `unhealthy`
   * judges a result that is not an exception (an HTTP 503 is a response, but a
   * failing upstream all the same).
   */
  run<T>(key: string, upstream: string, work: () => Promise<T>, signal?: AbortSignal, unhealthy?: (result: T) => boolean): Promise<T>
  state(key: string): 'closed' | 'open' | 'half-open'
}

/** Failures that say the upstream is unwell (not "the caller asked for something odd"). */
function countsAsFailure(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false
  const reason = (error.details as { reason?: UpstreamReason }).reason
  const status = (error.details as { status?: number }).status
  return reason === 'timeout' || reason === 'refused' || reason === 'reset' || reason === 'network' || (reason === 'http_error' && (status === undefined || status >= 500 || status === 429))
}

export function createUpstreamGuard(options: UpstreamGuardOptions): UpstreamGuard {
  const now = options.now ?? Date.now
  const states = new Map<string, State>()
  const active = new Map<string, number>()
  const waiting = new Map<string, Array<() => void>>()

  const acquire = (key: string, signal?: AbortSignal): Promise<void> => {
    const n = active.get(key) ?? 0
    if (n < options.maxConcurrent) {
      active.set(key, n + 1)
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const queue = waiting.get(key) ?? []
      const grant = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      const onAbort = () => {
        const i = queue.indexOf(grant)
        if (i >= 0) queue.splice(i, 1)
        reject(signal!.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      queue.push(grant)
      waiting.set(key, queue)
    })
  }
  const release = (key: string) => {
    const next = waiting.get(key)?.shift()
    if (next) next() // the slot passes straight to the next caller
    else active.set(key, (active.get(key) ?? 1) - 1)
  }

  const fail = (key: string) => {
    const current = states.get(key) ?? { kind: 'closed', failures: 0 }
    const failures = current.kind === 'closed' ? current.failures + 1 : options.threshold
    states.set(key, failures >= options.threshold ? { kind: 'open', until: now() + options.openMs } : { kind: 'closed', failures })
  }

  return {
    state(key) {
      const s = states.get(key)
      if (!s) return 'closed'
      if (s.kind === 'open' && now() >= s.until) return 'half-open'
      return s.kind
    },
    async run(key, upstream, work, signal, unhealthy) {
      const s = states.get(key) ?? { kind: 'closed', failures: 0 }
      if (s.kind === 'open') {
        if (now() < s.until) {
          throw new UpstreamError(upstream, 'unavailable', `${upstream} failed repeatedly; not calling it again for ${Math.ceil((s.until - now()) / 1000)} s.`, {
            circuit: 'open',
            retry_after_seconds: Math.ceil((s.until - now()) / 1000),
          })
        }
        states.set(key, { kind: 'half-open' })
      } else if (s.kind === 'half-open') {
        // One probe at a time; everyone else waits for its verdict by failing fast.
        throw new UpstreamError(upstream, 'unavailable', `${upstream} is being probed after repeated failures; try again shortly.`, { circuit: 'half-open' })
      }
      await acquire(key, signal)
      try {
        const result = await work()
        if (unhealthy?.(result)) fail(key)
        else states.set(key, { kind: 'closed', failures: 0 })
        return result
      } catch (error) {
        if (countsAsFailure(error)) fail(key)
        else if (states.get(key)?.kind === 'half-open') states.set(key, { kind: 'closed', failures: 0 })
        throw error
      } finally {
        release(key)
      }
    },
  }
}
