import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nestsDeeperThan } from '../../runtime/json-depth.ts'

// The depth scanner against the truth: JSON.parse, then a recursive count.

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0
  let deepest = 0
  for (const child of Array.isArray(value) ? value : Object.values(value)) deepest = Math.max(deepest, depthOf(child))
  return deepest + 1
}

// Strings made to confuse a scanner: brackets, quotes, backslashes, escapes.
const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', '\\"', '\\\\', ':', ',', 'a', '\u2028', '\u{1F600}'), maxLength: 12 })

// Deep, narrow nesting mixed with the tricky strings, as keys and as values.
const { value: nested } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tricky,
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(tricky, tie('value'), { maxKeys: 3 }),
  ),
}))

describe('nestsDeeperThan', () => {
  it('agrees with JSON.parse and a recursive depth, at every limit', () => {
    const texts = fc.oneof(
      fc.json({ maxDepth: 8 }),
      fc.jsonValue({ maxDepth: 8 }).map((v) => JSON.stringify(v)),
      nested.map((v) => JSON.stringify(v)),
      // Pretty-printed text too: whitespace between the tokens.
      nested.map((v) => JSON.stringify(v, null, 2)),
    )
    fc.assert(
      fc.property(texts, fc.nat(12), (text, max) => {
        const depth = depthOf(JSON.parse(text))
        expect(nestsDeeperThan(text, max)).toBe(depth > max)
      }),
      { numRuns: 2000 },
    )
  })

  it('counts brackets outside strings only, escaped quotes included', () => {
    expect(nestsDeeperThan('["[[[[", "\\"[[[["]', 1)).toBe(false)
    expect(nestsDeeperThan('["\\\\", [[]]]', 2)).toBe(true)
    expect(nestsDeeperThan('{"a\\\\\\"[[": {"b": []}}', 2)).toBe(true)
    expect(nestsDeeperThan('{"a\\\\\\"[[": {"b": []}}', 3)).toBe(false)
    expect(nestsDeeperThan('"[[[', 0)).toBe(false)
    expect(nestsDeeperThan('42', 0)).toBe(false)
    expect(nestsDeeperThan('[]', 0)).toBe(true)
  })

  it('stops at the limit: a million levels, no recursion; what follows the 65th level is never read', () => {
    const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000)
    expect(nestsDeeperThan(deep, 64)).toBe(true)
    // An unterminated string after the limit: a scan that went on would say "not JSON" (false).
    // (No timing here: timing belongs in benchmarks.)
    expect(nestsDeeperThan('['.repeat(65) + '"' + 'x'.repeat(1_000_000), 64)).toBe(true)
    expect(nestsDeeperThan('['.repeat(64) + '"' + 'x'.repeat(1_000_000), 64)).toBe(false)
  })
})
