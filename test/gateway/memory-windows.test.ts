import fc from 'fast-check'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryWindows } from '../../runtime/memory-windows.ts'

// The hand-written memory store must count exactly as rate-limiter-flexible's
// RateLimiterMemory, the library it replaces for one instance: the same
// operations on the same clock give the same points, remaining points, refusals
// and window ends.

const POINTS = 10
const DURATION_SECONDS = 60

type Op = { kind: 'consume' | 'reward' | 'get'; key: string; points: number; advanceMs: number }

const op = fc.record({
  kind: fc.constantFrom('consume', 'consume', 'consume', 'reward', 'get'),
  key: fc.constantFrom('ip:192.0.2.1', 'ip:192.0.2.2', 'key:abc'),
  points: fc.integer({ min: 1, max: 6 }),
  // Mostly within a window, sometimes across one or two, and onto its very edge.
  advanceMs: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 55_000, max: 130_000 }), fc.constantFrom(1, 59_999, 60_000)),
}) as fc.Arbitrary<Op>

interface Seen {
  consumed: number | null
  remaining: number | null
  msBeforeNext: number | null
  refused: boolean
}

const fromLibrary = (res: RateLimiterRes | null, refused = false): Seen =>
  res === null ? { consumed: null, remaining: null, msBeforeNext: null, refused } : { consumed: res.consumedPoints, remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext, refused }

describe('MemoryWindows counts as RateLimiterMemory does', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_800_000_000_000 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('same points, remaining, refusals and window ends for any sequence of operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 60 }), async (ops) => {
        const library = new RateLimiterMemory({ points: POINTS, duration: DURATION_SECONDS })
        const ours = new MemoryWindows({ points: POINTS, durationSeconds: DURATION_SECONDS, now: Date.now })
        try {
          for (const o of ops) {
            vi.advanceTimersByTime(o.advanceMs)
            let expected: Seen
            let actual: Seen
            if (o.kind === 'consume') {
              expected = await library.consume(o.key, o.points).then(
                (res) => fromLibrary(res),
                (rejection: RateLimiterRes) => fromLibrary(rejection, true),
              )
              const spent = ours.consume(o.key, o.points)
              actual = { consumed: spent.state.consumedPoints, remaining: spent.state.remainingPoints, msBeforeNext: spent.state.msBeforeNext, refused: spent.refused }
            } else if (o.kind === 'reward') {
              expected = fromLibrary(await library.reward(o.key, o.points))
              const state = ours.reward(o.key, o.points)
              actual = { consumed: state.consumedPoints, remaining: state.remainingPoints, msBeforeNext: state.msBeforeNext, refused: false }
            } else {
              expected = fromLibrary(await library.get(o.key))
              const state = ours.get(o.key)
              actual = state === null ? fromLibrary(null) : { consumed: state.consumedPoints, remaining: state.remainingPoints, msBeforeNext: state.msBeforeNext, refused: false }
            }
            expect(actual).toEqual(expected)
          }
        } finally {
          ours.close()
        }
      }),
      { numRuns: 300 },
    )
  })

  it('answers synchronously, and forgets windows of callers who went away', () => {
    const ours = new MemoryWindows({ points: 3, durationSeconds: 60, now: Date.now })
    try {
      expect(ours.consume('ip:192.0.2.1', 2)).toEqual({ state: { consumedPoints: 2, remainingPoints: 1, msBeforeNext: 60_000 }, refused: false })
      expect(ours.consume('ip:192.0.2.1', 2).refused).toBe(true)
      expect(ours.reward('ip:192.0.2.1', 2).consumedPoints).toBe(2)
      for (let i = 0; i < 100; i++) ours.consume(`ip:192.0.2.${i}`, 1)
      expect(ours.size).toBe(100)
      // The sweep runs once per window length and drops every closed window.
      vi.advanceTimersByTime(120_000)
      expect(ours.size).toBe(0)
      expect(ours.get('ip:192.0.2.1')).toBeNull()
    } finally {
      ours.close()
    }
  })
})
