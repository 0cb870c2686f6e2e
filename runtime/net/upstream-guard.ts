import { UpstreamError } from '../errors.ts'
import type { UpstreamReason } from '../errors.ts'

// Per-upstream protection: a circuit breaker (after `threshold` failures in a row
// the upstream is not called for `openMs`; then one probe decides) and a bound on
// concurrent calls, so one slow upstream cannot take every socket and every
// request's time with it.
//
// Three ways to use it, by what the caller can do when an upstream is unwell:
// - run(): a service upstream with no alternative (RIPEstat, crt.sh, an RDAP
//   server): an open circuit fails the call at once with reason "unavailable".
// - available() + attempt(): a caller with alternatives (the configured DNS
//   resolvers) skips keys whose circuit is open and still records every outcome;
//   attempt() never refuses, so a caller out of alternatives can try anyway.
// - slot(): only the concurrency bound, for targets a user names (web, TLS and
//   SMTP probes), where a shared breaker would let one user's probes of a dead
//   host decide what everyone else is told about it.

export interface UpstreamGuardOptions {
  threshold: number
  openMs: number
  maxConcurrent: number
  now?: () => number
}

/** What one attempt says about the upstream's health: `unknown` leaves the breaker as it was (a caller that gave up). */
export type Verdict = 'healthy' | 'failure' | 'unknown'

export interface UpstreamGuard {
  /**
   * Runs `work` under the breaker and the concurrency bound of `key`. `unhealthy`
   * judges a result that is not an exception (an HTTP 503 is a response, but a
   * failing upstream all the same).
   */
  run<T>(key: string, upstream: string, work: () => Promise<T>, signal?: AbortSignal, unhealthy?: (result: T) => boolean): Promise<T>
  state(key: string): 'closed' | 'open' | 'half-open'
  /** Worth trying now: closed, or due for its half-open probe and nobody is probing it yet. */
  available(key: string): boolean
  /**
   * Runs `work` under the concurrency bound of `key` whatever its circuit says,
   * and lets the outcome move the breaker (a success closes it, a failure counts
   * or reopens it). `judge` classifies a thrown error; default: failure.
   */
  attempt<T>(key: string, work: () => Promise<T>, options?: { signal?: AbortSignal; judge?: (error: unknown) => Verdict }): Promise<T>
  /** Waits for one of the concurrent slots of `key`; call the returned function (any number of times) to give it back. */
  slot(key: string, signal?: AbortSignal): Promise<() => void>
}

type State = { kind: 'closed'; failures: number } | { kind: 'open'; until: number } | { kind: 'half-open' }

/** Failures that say the upstream is unwell (not "the caller asked for something odd"). */
function countsAsFailure(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false
  const reason = (error.details as { reason?: UpstreamReason }).reason
  const status = (error.details as { status?: number }).status
  return reason === 'timeout' || reason === 'refused' || reason === 'reset' || reason === 'network' || (reason === 'http_error' && (status === undefined || status >= 500 || status === 429))
}

export function createUpstreamGuard(options: UpstreamGuardOptions): UpstreamGuard {
  // Open circuits last a duration: measured on the monotonic clock, not the date.
  const now = options.now ?? (() => performance.now())
  const states = new Map<string, State>()
  const active = new Map<string, number>()
  const waiting = new Map<string, Array<() => void>>()

  const acquire = (key: string, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted()
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
    const queue = waiting.get(key)
    const next = queue?.shift()
    if (queue?.length === 0) waiting.delete(key)
    if (next) next() // the slot passes straight to the next caller
    else {
      const n = (active.get(key) ?? 1) - 1
      if (n > 0) active.set(key, n)
      else active.delete(key)
    }
  }

  const fail = (key: string) => {
    const current = states.get(key) ?? { kind: 'closed', failures: 0 }
    const failures = current.kind === 'closed' ? current.failures + 1 : options.threshold
    states.set(key, failures >= options.threshold ? { kind: 'open', until: now() + options.openMs } : { kind: 'closed', failures })
  }
  // A closed circuit with no failures is the default: keep no entry for it (keys may be many).
  const heal = (key: string) => void states.delete(key)
  /** A probe that said nothing (the caller gave up): due for another probe at once. */
  const undecided = (key: string) => {
    if (states.get(key)?.kind === 'half-open') states.set(key, { kind: 'open', until: now() })
  }
  /** An open circuit whose time is up becomes half-open: this caller is its probe. */
  const claimProbe = (key: string): void => {
    const s = states.get(key)
    if (s?.kind === 'open' && now() >= s.until) states.set(key, { kind: 'half-open' })
  }

  return {
    state(key) {
      const s = states.get(key)
      if (!s) return 'closed'
      if (s.kind === 'open' && now() >= s.until) return 'half-open'
      return s.kind
    },
    available(key) {
      const s = states.get(key)
      return !s || s.kind === 'closed' || (s.kind === 'open' && now() >= s.until)
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
      try {
        await acquire(key, signal)
      } catch (error) {
        undecided(key)
        throw error
      }
      try {
        const result = await work()
        if (unhealthy?.(result)) fail(key)
        else heal(key)
        return result
      } catch (error) {
        if (countsAsFailure(error)) fail(key)
        else if (states.get(key)?.kind === 'half-open') heal(key)
        throw error
      } finally {
        release(key)
      }
    },
    async attempt(key, work, o = {}) {
      await acquire(key, o.signal)
      // Claimed only once the slot is ours, so a caller that gave up while queued leaves the probe to the next.
      claimProbe(key)
      try {
        const result = await work()
        heal(key)
        return result
      } catch (error) {
        const verdict = o.judge ? o.judge(error) : 'failure'
        if (verdict === 'failure') fail(key)
        else if (verdict === 'healthy') heal(key)
        else undecided(key)
        throw error
      } finally {
        release(key)
      }
    },
    async slot(key, signal) {
      await acquire(key, signal)
      let held = true
      return () => {
        if (!held) return
        held = false
        release(key)
      }
    },
  }
}
