import fc from 'fast-check'
import { decodeTime, monotonicFactory } from 'ulid'
import { describe, expect, it } from 'vitest'
import { createUlidFactory, cryptoDigits } from '../../runtime/ulid-factory.ts'

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

describe('createUlidFactory', () => {
  it('gives valid ULIDs whose time decodes to the clock, strictly increasing within and across milliseconds', () => {
    let clock = 1_700_000_000_000
    const next = createUlidFactory(cryptoDigits, () => clock)
    const ids: string[] = []
    for (let i = 0; i < 5000; i++) {
      if (i % 700 === 0) clock += 1 + (i % 3)
      ids.push(next())
    }
    for (const id of ids) expect(id).toMatch(ULID)
    expect(decodeTime(ids[0]!)).toBe(1_700_000_000_001)
    expect(decodeTime(ids.at(-1)!)).toBe(clock)
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!, `${ids[i - 1]} < ${ids[i]}`).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('produces what ulid monotonicFactory produces for the same clock and randomness (carries included)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 31 }), { minLength: 16, maxLength: 16 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 80 }),
        // ulid reads a seed time of 0 as "now": start at 1
        fc.integer({ min: 1, max: 2 ** 48 - 100 }),
        (seed, steps, start) => {
          // ulid's PRNG returns floats; digit d comes from d/32 (floor(prng * 32)),
          // and it writes the random part from its last character backwards.
          let ms = start
          let q: number[] = []
          const theirs = monotonicFactory(() => (q.shift() ?? 0) / 32)
          const ours = createUlidFactory((digits) => digits.set(seed), () => ms)
          for (const step of steps) {
            ms += step === 2 ? 0 : step // 0 and 2: same millisecond, 1: the next one
            q = [...seed].reverse()
            expect(ours()).toBe(theirs(ms))
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('carries through a run of Z digits and refuses to wrap around', () => {
    const ms = 1_000
    const digits = new Uint8Array(16).fill(31)
    digits[0] = 30
    const next = createUlidFactory((d) => d.set(digits), () => ms)
    const first = next()
    expect(first.slice(10)).toBe('Y' + 'Z'.repeat(15))
    expect(next().slice(10)).toBe('Z' + '0'.repeat(15))
    const all = createUlidFactory((d) => d.fill(31), () => ms)
    all()
    expect(() => all()).toThrow(/overflow/)
  })

  it('keeps counting up when the clock steps back', () => {
    let ms = 5_000
    const next = createUlidFactory((d) => d.fill(0), () => ms)
    const a = next()
    ms = 4_000
    const b = next()
    expect(b > a).toBe(true)
    expect(decodeTime(b)).toBe(5_000)
    expect(b.at(-1)).toBe(ALPHABET[1])
  })
})
