import type { ReadinessCheck } from './define-plugin.ts'

// Before a serving process takes traffic (runtime/serve.ts, `npm start`), its
// readiness checks run until they pass: a check that loads data on first use
// (the IP data, plugins/network/ip-data.ts) starts loading at once, and the
// process listens with it loaded. Why, beyond a first request answered without
// waiting: the same ~0.45 s load run on the event loop after the request path has
// been compiled hot (an orchestrator's first /api/ready probe started it) left
// that process ~30 % slower on every later request for as long as it ran — DNS
// cache hits 23-25k req/s instead of 33-35k, reproduced five times in five
// (bench/RESULTS.md, "A readiness probe that slowed the process"); loaded at
// start-up, never. The bound keeps a slow upstream (the VRP set from the network)
// from holding the listener back: what is still loading then goes on in the
// background, reported by /api/ready as before.
//
// Durations, not dates: performance.now(), which a fixed test clock must not freeze.

export interface WarmUpResult {
  ready: boolean
  ms: number
  /** The checks that had not passed when the bound was reached, with what they said. */
  pending: Array<{ name: string; error: string }>
}

/** `signal`: stop waiting (the process was told to stop before it listened). */
export async function warmUp(
  checks: ReadonlyArray<{ name: string; check: ReadinessCheck }>,
  options: { timeoutMs: number; intervalMs: number; signal?: AbortSignal },
): Promise<WarmUpResult> {
  const started = performance.now()
  const { signal } = options
  for (;;) {
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        try {
          await check()
          return undefined
        } catch (error) {
          return { name, error: error instanceof Error ? error.message : String(error) }
        }
      }),
    )
    const pending = results.filter((r): r is { name: string; error: string } => r !== undefined)
    const ms = Math.round(performance.now() - started)
    if (pending.length === 0) return { ready: true, ms, pending }
    if (signal?.aborted || performance.now() - started + options.intervalMs > options.timeoutMs) return { ready: false, ms, pending }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, options.intervalMs)
      signal?.addEventListener('abort', done, { once: true })
    })
  }
}
