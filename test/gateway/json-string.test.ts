import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonString } from '../../runtime/json-string.ts'
import { anyText } from '../support/any-text.ts'

// runtime/json-string.ts quotes plain text as it is and leaves the rest to
// JSON.stringify: whatever the text, the result must be JSON.stringify's own.

describe('jsonString', () => {
  it('is JSON.stringify of the text, for any text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(jsonString(text)).toBe(JSON.stringify(text))
      }),
      { numRuns: 5000 },
    )
  })

  it('escapes what JSON needs escaped and writes lone surrogates as \\u escapes', () => {
    expect(jsonString('/api/uuid')).toBe('"/api/uuid"')
    expect(jsonString('a"b\\c')).toBe('"a\\"b\\\\c"')
    expect(jsonString('\u0001\n')).toBe('"\\u0001\\n"')
    expect(jsonString('x\ud800y')).toBe('"x\\ud800y"')
    expect(jsonString('😀')).toBe('"😀"')
  })
})
