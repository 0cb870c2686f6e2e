import { describe, expect, it } from 'vitest'
import { warmUp } from '../../runtime/warm-up.ts'

// runtime/warm-up.ts: a serving process runs its readiness checks until they pass
// (a check that loads on first use starts loading on the first call), or until the
// bound, then listens either way.

describe('warmUp', () => {
  it('calls the checks until every one passes, and says so', async () => {
    let calls = 0
    let loadedAfter = 3
    const result = await warmUp(
      [
        {
          name: 'data',
          check: () => {
            calls++
            if (--loadedAfter > 0) throw new Error('loading')
          },
        },
        { name: 'degraded', check: async () => 'serving stale data' },
      ],
      { timeoutMs: 5_000, intervalMs: 5 },
    )
    expect(result).toMatchObject({ ready: true, pending: [] })
    expect(calls).toBe(3)
  })

  it('stops at the bound, naming what still fails and why', async () => {
    let calls = 0
    const started = performance.now()
    const result = await warmUp(
      [
        { name: 'ok', check: () => undefined },
        {
          name: 'vrps',
          check: async () => {
            calls++
            throw new Error('loading VRPs from https://rpki.example')
          },
        },
      ],
      { timeoutMs: 60, intervalMs: 10 },
    )
    expect(result.ready).toBe(false)
    expect(result.pending).toEqual([{ name: 'vrps', error: 'loading VRPs from https://rpki.example' }])
    expect(calls).toBeGreaterThan(1)
    // Never past the bound by more than a check's own time.
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  it('no checks: ready at once', async () => {
    expect(await warmUp([], { timeoutMs: 10, intervalMs: 5 })).toMatchObject({ ready: true, pending: [] })
  })

  it('stops waiting when its signal aborts (the process was told to stop before listening)', async () => {
    const stop = new AbortController()
    setTimeout(() => stop.abort(), 50)
    // Its 10 s pause between tries is cut short by the abort: waited out, it would
    // outlast this test's time limit.
    const result = await warmUp([{ name: 'never', check: () => Promise.reject(new Error('still loading')) }], { timeoutMs: 60_000, intervalMs: 10_000, signal: stop.signal })
    expect(result).toMatchObject({ ready: false, pending: [{ name: 'never', error: 'still loading' }] })
  }, 5_000)
})
