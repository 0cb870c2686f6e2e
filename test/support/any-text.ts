import fc from 'fast-check'

/**
 * Any UTF-16 text a client could send: quotes, backslashes, control characters,
 * line separators, lone surrogates, astral characters. For property tests of the
 * hand-written JSON on the hot path (access line, jsonString, links.self).
 */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udbff', '\udc00', '\udfff', '/', 'a', 'é', '😀') }),
)
