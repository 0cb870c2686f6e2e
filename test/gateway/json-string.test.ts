import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonString } from '../../runtime/json-string.ts'

// runtime/json-string.ts quotes plain text as it is and leaves the rest to
// JSON.stringify: whatever the text, the result must be JSON.stringify's own.

/** Any UTF-16 text: quotes, backslashes, control characters, lone surrogates. */
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udbff', '\udc00', '\udfff', '/', 'a', 'é', '😀') }),
)

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
