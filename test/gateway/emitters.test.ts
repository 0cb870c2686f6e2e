import fc from 'fast-check'
import { XMLParser } from 'fast-xml-parser'
import { load } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { anyText } from '../support/any-text.ts'
import { toXml } from '../../plugins/format/xml-emit.ts'
import { xmlName, xmlText } from '../../plugins/format/xml-names.ts'
import { toYaml } from '../../plugins/format/yaml-emit.ts'

const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v))

// Strings that stress YAML's resolvers: booleans, nulls, numbers, dates, indicators.
const tricky = fc.constantFrom(
  'yes', 'No', 'ON', 'off', 'y', 'n', 'true', 'False', 'null', 'Null', '~', '', ' ', '  lead', 'trail ', '0x1F', '0o17', '017', '1e3', '-1', '+1',
  '.5', '.inf', '-.Inf', '.NaN', '1_000', '12:30:00', '2026-11-22', '2026-11-22T10:00:00Z', '@at', '`tick', '!tag', '&anchor', '*alias',
  '- dash', '? q', ': colon', 'a: b', 'a #c', '#hash', '%pct', '|', '>', '{', '}', '[', ']', ',', '"', "'", 'multi\nline', 'tab\there', 'cr\r\nlf\r',
  'ünïcode', '日本', '\u2028', '\u0000nul', 'a\\b', '=SUM(A1)', '1.2.3.4', '::1', '2001:db8::/32', 'example.com.', 'v=spf1 -all',
)
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    tricky,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), tricky), tie('value'), { maxKeys: 4 }),
  ),
})).value

describe('YAML emitter', () => {
  it('round-trips any JSON value through js-yaml', () => {
    fc.assert(
      fc.property(jsonish, (value) => {
        const expected = json({ v: value }) as { v: unknown }
        expect(load(toYaml(expected))).toEqual(expected)
        expect(load(toYaml(expected.v))).toEqual(expected.v)
      }),
      { numRuns: 2000 },
    )
  })

  it('writes plain scalars only when unambiguous', () => {
    expect(toYaml({ a: 'hello', b: 'yes', c: '1.2.3.4', d: 12, e: null, f: [], g: {}, h: ['x', { k: 1, l: [true] }] })).toBe(
      ['a: hello', 'b: "yes"', 'c: "1.2.3.4"', 'd: 12', 'e: null', 'f: []', 'g: {}', 'h:', '  - x', '  - k: 1', '    l:', '      - true', ''].join('\n'),
    )
  })
})

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // &#13; &#9; &#10; (CR in text; tab/LF/CR in key="") are references to decode.
  htmlEntities: true,
  isArray: (name) => name === 'item',
})

/** What fast-xml-parser gives back for a JSON value written by toXml. */
function viaXml(value: unknown): unknown {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.length === 0 ? '' : { item: value.map(viaXml) }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
    if (entries.length === 0) return ''
    const out: Record<string, unknown> = {}
    for (const [key, v] of entries) {
      const name = xmlName(key)
      let node = viaXml(v)
      if (name !== key) {
        if (typeof node === 'string') node = node === '' ? { '@_key': key } : { '@_key': key, '#text': node }
        else node = { '@_key': key, ...(node as object) }
      }
      // A key literally named "item" is read back as a list, like array items.
      out[name] = name === 'item' ? [node] : node
    }
    return out
  }
  return xmlText(String(value))
}

describe('XML emitter', () => {
  // Keys must be unique after renaming for the comparison to be meaningful.
  const keys = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/), fc.constantFrom('1st', 'a b', 'a\tb\r\nc', 'xmlns:x', '', 'ü', 'x-y.z'))
  const xmlValue = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.string(),
      tricky,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(keys, tie('value'), { maxKeys: 4 }).filter((d) => new Set(Object.keys(d).map(xmlName)).size === Object.keys(d).length),
    ),
  })).value

  it('parses back with a real XML parser to the same data', () => {
    fc.assert(
      fc.property(xmlValue, (value) => {
        const text = toXml({ data: value })
        expect(() => new XMLParser().parse(text, true)).not.toThrow()
        const parsed = parser.parse(text) as { response: unknown }
        expect(parsed.response).toEqual(viaXml({ data: value }))
      }),
      { numRuns: 1500 },
    )
  })
})

describe('JSON envelope writer', () => {
  it('writes exactly what JSON.stringify writes, memoized or not', async () => {
    const { jsonFormat } = await import('../../plugins/format/json-format.ts')
    // Frozen metas are the runtime's shared ones, whose JSON the format keeps.
    const meta = fc.option(
      fc.tuple(fc.record({ cache: fc.constantFrom('hit', 'miss'), category: fc.string(), endpoint: fc.string(), tier: fc.string() }), fc.boolean()).map(([m, frozen]) => (frozen ? Object.freeze(m) : m)),
      { nil: undefined },
    )
    // links.self is the path the client sent: quotes, backslashes, control characters, lone surrogates.
    const links = fc.option(fc.record({ self: anyText }), { nil: undefined })
    fc.assert(
      fc.property(jsonish, meta, links, fc.boolean(), (data, m, l, stable) => {
        const envelope = { success: true as const, data, ...(m ? { meta: m } : {}), ...(l ? { links: l } : {}), timestamp: '2026-11-22T22:54:34.707Z', request_id: '01M82QFTPE5CBA6ET5YK9A3YY2' }
        const ctx = { pretty: false, endpoint: undefined, headers: {}, stableData: stable }
        expect(jsonFormat.success(envelope, ctx)).toBe(JSON.stringify(envelope))
        // a second write of the same object (memo hit) is the same
        expect(jsonFormat.success(envelope, ctx)).toBe(JSON.stringify(envelope))
      }),
      { numRuns: 1000 },
    )
  })
})
