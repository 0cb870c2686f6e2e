import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addressOrder } from '../../plugins/network/bulk-batch.ts'

// The order a bulk list's dotted quads are looked up in (plugins/network/bulk-batch.ts),
// held to Array#sort by value with the index as the tie-break (a stable sort): the
// radix passes are hand-written. The answers' bytes in the list's order are held to
// the object path in test/network/ip-bulk.test.ts.

describe('addressOrder', () => {
  it('orders the marked entries by value, equal values in the list order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ quad: fc.boolean(), value: fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(0, 1, 0xffff, 0x10000, 0xffffffff, 0x7f000001)) }), { maxLength: 400 }),
        (list) => {
          const kind = Uint8Array.from(list, (e) => (e.quad ? 1 : 0))
          const values = Uint32Array.from(list, (e) => e.value)
          const marked = list.flatMap((e, i) => (e.quad ? [i] : []))
          const expected = [...marked].sort((a, b) => values[a]! - values[b]! || a - b)
          expect([...addressOrder(kind, values, marked.length)]).toEqual(expected)
        },
      ),
      { numRuns: 300 },
    )
  })
})
