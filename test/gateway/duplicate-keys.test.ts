import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { duplicateKeys } from '../support/duplicate-keys.ts'

// The checker the log tests rely on (test/support/duplicate-keys.ts): if it missed
// duplicates, those tests could not fail.

/** Few distinct keys, so that repeats are common; some need escaping. */
const key = fc.constantFrom('a', 'b', 'endpoint', 'q"uote', 'back\\slash', 'ü', '\u0000', '')

/** One step of a path: a key of an object, or an index of an array. */
type Step = { key: string } | { index: number }

/** A path as the checker writes it: keys joined by dots, indexes in brackets. */
function render(steps: readonly Step[]): string {
  return steps.reduce<string>((path, step) => ('key' in step ? (path === '' ? step.key : `${path}.${step.key}`) : `${path}[${step.index}]`), '')
}

/** A value written by hand, so that an object may hold a key twice; with the paths of the keys written twice. */
interface Written {
  text: string
  duplicates: Step[][]
}

const written: fc.Arbitrary<Written> = fc.letrec<{ object: Written; value: Written }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }).map((v) => ({ text: JSON.stringify(v, null, 1), duplicates: [] })),
    tie('object'),
    fc.array(tie('object'), { maxLength: 3 }).map((items) => ({
      text: `[${items.map((i) => i.text).join(', ')}]`,
      duplicates: items.flatMap((item, index) => item.duplicates.map((d) => [{ index }, ...d])),
    })),
  ),
  object: fc.array(fc.tuple(key, tie('value'), fc.constantFrom('', ' ', '\n  ')), { maxLength: 6 }).map((entries) => {
    const seen = new Set<string>()
    const duplicates: Step[][] = []
    const parts: string[] = []
    for (const [k, v, space] of entries) {
      // In text order: the key itself, then what its value holds.
      if (seen.has(k)) duplicates.push([{ key: k }])
      seen.add(k)
      duplicates.push(...v.duplicates.map((d) => [{ key: k }, ...d]))
      parts.push(`${space}${JSON.stringify(k)}${space}:${space}${v.text}`)
    }
    return { text: `{${parts.join(',')}}`, duplicates }
  }),
})).object

describe('duplicateKeys', () => {
  it('finds nothing twice in what JSON.stringify writes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(duplicateKeys(JSON.stringify(value))).toEqual([])
        expect(duplicateKeys(JSON.stringify(value, null, 2))).toEqual([])
      }),
      { numRuns: 500 },
    )
  })

  it('finds every key written twice in one object, at its path, and only those', () => {
    let withDuplicates = 0
    fc.assert(
      fc.property(written, ({ text, duplicates }) => {
        JSON.parse(text) // valid JSON, as the checker requires
        expect(duplicateKeys(text)).toEqual(duplicates.map(render))
        if (duplicates.length > 0) withDuplicates++
      }),
      { numRuns: 500 },
    )
    // The cases exercised what they are for: many had a key twice.
    expect(withDuplicates).toBeGreaterThan(100)
  })

  it('compares keys as decoded, and is not fooled by text inside strings', () => {
    expect(duplicateKeys('{"a":1,"\\u0061":2}')).toEqual(['a'])
    expect(duplicateKeys('{"x":{"y":1,"y":2},"x":3}')).toEqual(['x.y', 'x'])
    expect(duplicateKeys('{"a":"\\"a\\":1,{\\"a\\":2}","b":["a","a"],"c":{"a":1},"d":{"a":2}}')).toEqual([])
    expect(duplicateKeys('{"l":[{"k":1,"k":2},{"k":3}]}')).toEqual(['l[0].k'])
    expect(duplicateKeys('{"level":30,"endpoint":"dns.a","request_id":"x","endpoint":"dns.a"}')).toEqual(['endpoint'])
  })
})
