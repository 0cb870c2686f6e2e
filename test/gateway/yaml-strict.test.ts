import fc from 'fast-check'
import { load } from 'js-yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDocument } from 'yaml'
import { toYaml } from '../../plugins/format/yaml-emit.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { pyyamlLoad, pyyamlLoadAll } from '../support/pyyaml.ts'

// ?format=yaml must be readable by strict parsers, not just by js-yaml (which is
// lenient): PyYAML/libyaml refuse a whole document for one DEL or C1 byte, and
// read U+0085/U+2028/U+2029 as YAML 1.1 line breaks. Three readers check every
// answer here: PyYAML (both loaders), the `yaml` package in strict mode, js-yaml.

/**
 * What an answer means: its JSON reading, with each lone surrogate (a JS string
 * can hold one, Unicode text cannot) read as U+FFFD, the way a UTF-8 encoder
 * writes it; when that makes two keys of one object equal, the first one stays.
 */
function meaning(value: unknown): unknown {
  // ignoreBOM: keep a leading U+FEFF, which is text here, not a byte order mark.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  const utf8 = (s: string) => decoder.decode(new TextEncoder().encode(s))
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return utf8(v)
    if (Array.isArray(v)) return v.map(walk)
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {}
      for (const [k, x] of Object.entries(v)) {
        const key = utf8(k)
        // defineProperty: a "__proto__" key is data, as JSON.parse makes it.
        if (!Object.hasOwn(out, key)) Object.defineProperty(out, key, { value: walk(x), enumerable: true, writable: true, configurable: true })
      }
      return out
    }
    return v
  }
  return walk(JSON.parse(JSON.stringify(value)) as unknown)
}

/** The `yaml` package, strict, as YAML 1.2 and as YAML 1.1: no errors, no warnings. */
function strictYaml(text: string): unknown {
  const values = (['1.2', '1.1'] as const).map((version) => {
    const doc = parseDocument(text, { strict: true, uniqueKeys: true, prettyErrors: false, version })
    expect(doc.errors.map((e) => e.message), `yaml ${version} errors`).toEqual([])
    expect(doc.warnings.map((e) => e.message), `yaml ${version} warnings`).toEqual([])
    return doc.toJS({ maxAliasCount: 0 }) as unknown
  })
  expect(values[1], 'YAML 1.1 and 1.2 readings differ').toEqual(values[0])
  return values[0]
}

// YAML 1.2 c-printable, less what must still be escaped: U+0085, U+2028, U+2029
// (line breaks in YAML 1.1) and U+FEFF (a BOM "should be escaped" in content).
// Tab and line feed are layout; every other character outside this is escaped.
const WRITTEN_RAW = /^[\t\n\x20-\x7E\xA0-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\u{10000}-\u{10FFFF}]*$/u

function expectStrictRoundTrip(value: unknown): void {
  const text = toYaml(value)
  expect(text, 'a character outside the printable set is written raw').toMatch(WRITTEN_RAW)
  // \uD800-\uDFFF would name a surrogate, which is not a character.
  expect(text).not.toMatch(/\\u[dD][89a-fA-F]/)
  const expected = meaning(value)
  expect(strictYaml(text)).toEqual(expected)
  expect(load(text)).toEqual(expected)
}

const LATIN1 = Array.from({ length: 0x100 }, (_, i) => String.fromCharCode(i)).join('')
const SPECIALS = ['\u0085', '\u2028', '\u2029', '\uFEFF', '\uFFFE', '\uFFFF', '\uFDD0', '\u{1F600}', '\u{10FFFF}', '\u{1FFFE}', '\u00A0']
const LONE = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'a\uD83D', '\uDE00b']

/** An answer holding every code point U+0000..U+00FF, alone and together, as values and keys. */
const EVERYTHING = {
  all: LATIN1,
  each: Array.from(LATIN1),
  keys: Object.fromEntries(Array.from(LATIN1, (c, i) => [`${c}`, i])),
  specials: SPECIALS,
  special_keys: Object.fromEntries(SPECIALS.map((c, i) => [`k${c}`, i])),
  lone: LONE,
  [`${LATIN1}${SPECIALS.join('')}`]: 'key with everything',
}

describe('YAML emitter, strict parsers', () => {
  it('every code point U+0000..U+00FF, non-BMP, U+2028/U+2029/U+FEFF: PyYAML, yaml (strict) and js-yaml read the answer', () => {
    expectStrictRoundTrip(EVERYTHING)
    expect(pyyamlLoad(toYaml(EVERYTHING))).toEqual(meaning(EVERYTHING))
  })

  it('each character alone, as a value and as a key, is read back by PyYAML', () => {
    const cases = [...Array.from(LATIN1), ...SPECIALS, ...LONE].map((c) => ({ [c]: c, v: `a${c}b` }))
    const results = pyyamlLoadAll(cases.map((c) => toYaml(c)))
    results.forEach((result, i) => {
      const what = JSON.stringify(Object.keys(cases[i]!)[0])
      expect(result, `PyYAML on ${what}`).toEqual({ value: meaning(cases[i]) })
    })
  })

  it('lone surrogates become U+FFFD; keys that then collide keep the first', () => {
    expect(toYaml({ v: 'a\uD800b' })).toBe('v: "a\uFFFDb"\n')
    const value = { '\uD800': 1, x: 2, '\uDC00': 3, '\uFFFD': 4 }
    expect(toYaml(value)).toBe('"\uFFFD": 1\nx: 2\n')
    expectStrictRoundTrip(value)
  })

  it('writes the YAML escapes for DEL, C1, NEL, LS, PS, BOM and noncharacters', () => {
    expect(toYaml(['\x7F', '\x80\x9F', '\x85', '\u2028\u2029', '\uFEFF', '\uFFFE\uFFFF'])).toBe(
      ['- "\\u007F"', '- "\\u0080\\u009F"', '- "\\u0085"', '- "\\u2028\\u2029"', '- "\\uFEFF"', '- "\\uFFFE\\uFFFF"', ''].join('\n'),
    )
  })

  it('a key longer than an implicit key may be (1024 characters) is written as an explicit "? key"', () => {
    const long = 'k'.repeat(2000)
    const value = { [long]: 1, [`${long}\x7F`]: { a: [1, { [long]: 'x' }] }, list: [{ [long]: [] }, { [long]: { b: 2 }, c: 3 }], short: 'ok' }
    expectStrictRoundTrip(value)
    expect(pyyamlLoad(toYaml(value))).toEqual(meaning(value))
    // Around the limit, in UTF-16 units and in characters (an emoji is two units).
    const edge = [...Array.from({ length: 40 }, (_, i) => 'k'.repeat(990 + i)), ...Array.from({ length: 20 }, (_, i) => '\u{1F600}'.repeat(500 + i)), `\x7F${'k'.repeat(1000)}`]
    const docs = edge.map((key) => ({ [key]: 1, a: { [key]: [key] } }))
    for (const doc of docs) expectStrictRoundTrip(doc)
    pyyamlLoadAll(docs.map((d) => toYaml(d))).forEach((result, i) => expect(result, `key of ${edge[i]!.length} units`).toEqual({ value: meaning(docs[i]) }))
  })

  it('strings any 1.1 or 1.2 reader could take for a number, boolean or null are quoted (e1 was NaN to yaml 1.1, CI seed -174644963)', () => {
    const words = ['e1', 'E5', 'e-1', 'E-05', 'e', 'e1x', 'ee1', '_e1', 'y', 'No', 'ON', 'null', 'NaN', 'inf', 'e1.5', 'version']
    const value = Object.fromEntries(words.map((w) => [w, w]))
    expect(toYaml({ e1: 'e1' })).toBe('"e1": "e1"\n')
    expectStrictRoundTrip(value)
    expect(pyyamlLoad(toYaml(value))).toEqual(meaning(value))
  })

  it('numbers read back as the same numbers in YAML 1.1 too (an exponent needs a dot there)', () => {
    const value = { big: 1e21, small: 1e-7, tiny: 5e-324, max: Number.MAX_VALUE, neg: -1.5e-300, int: 2 ** 53, frac: 0.1, zero: -0 }
    const text = toYaml(value)
    expect(pyyamlLoad(text)).toEqual(meaning(value))
    expect(strictYaml(text)).toEqual(meaning(value))
    expect(load(text)).toEqual(meaning(value))
  })
})

// Strings from every corner: any code point, Latin-1 (C0, DEL, C1), any UTF-16
// unit (so lone surrogates), and a mix of the characters that matter here.
const interesting = fc.constantFrom('\x00', '\x1F', '\x7F', '\x80', '\x85', '\x9F', '\xA0', '\u2028', '\u2029', '\uFEFF', '\uFFFE', '\uFFFF',
  '\uD800', '\uDFFF', '\u{1F600}', '\u{10FFFF}', '\t', '\n', '\r', '"', '\\', ':', '#', ' ', '-', '?', 'a', 'y', '1', '.', 'e')
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'binary-ascii' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.string({ unit: interesting }),
  fc.string({ unit: 'grapheme' }),
)
const answer = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value

describe('YAML emitter, strict parsers, any answer', () => {
  it('round-trips through the yaml strict parser and js-yaml', () => {
    fc.assert(
      fc.property(answer, (value) => {
        expectStrictRoundTrip({ data: value })
        expectStrictRoundTrip(value)
      }),
      { numRuns: 1500 },
    )
  })

  it('round-trips through PyYAML (both loaders)', () => {
    // One python3 run for the lot; the seed is in the message to replay a failure.
    const seed = Date.now()
    const values = fc.sample(answer, { numRuns: 400, seed })
    const results = pyyamlLoadAll(values.map((v) => toYaml({ data: v })))
    results.forEach((result, i) => {
      expect(result, `seed ${seed}, PyYAML on ${JSON.stringify(toYaml({ data: values[i] }))}`).toEqual({ value: meaning({ data: values[i] }) })
    })
  })
})

describe('?format=yaml end to end, strict parser', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  })
  afterAll(() => t.close())

  it('text a client sent (base64 decode echoes it) comes back through PyYAML unchanged', async () => {
    // Not starting with U+FEFF: the endpoint's UTF-8 decoder drops a leading BOM.
    const sent = `x${LATIN1}${SPECIALS.join('')}\u{1F600}`
    const input = encodeURIComponent(Buffer.from(sent, 'utf8').toString('base64'))
    const jsonRes = await t.request(`/api/base64/decode?input=${input}`)
    const json = JSON.parse(await jsonRes.text()) as Record<string, unknown>
    const res = await t.request(`/api/base64/decode?input=${input}&format=yaml`)
    expect(res.status).toBe(200)
    const bytes = new Uint8Array(await res.arrayBuffer())
    const parsed = pyyamlLoad(bytes) as Record<string, unknown>
    expect((parsed.data as { text: string }).text).toBe(sent)
    // The whole envelope says what the JSON answer says (ids and times differ per
    // request; the self link names the request, format included).
    const self = { self: `/api/base64/decode?input=${input}&format=yaml` }
    expect(json.links).toEqual({ self: `/api/base64/decode?input=${input}` })
    expect({ ...parsed, request_id: 'id', timestamp: 'time' }).toEqual({ ...json, links: self, request_id: 'id', timestamp: 'time' })
    expect(parsed.request_id).toBe(res.headers.get('x-request-id'))
  })
})
