import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toXml } from '../../plugins/format/xml-emit.ts'
import { xmlName } from '../../plugins/format/xml-names.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { XmlElement } from '../support/expat.ts'
import { expatParse, expatParseAll } from '../support/expat.ts'

// ?format=xml read by a strict parser (expat): every document must be accepted,
// and say what the answer says. XML 1.0 cannot carry most C0 controls, lone
// surrogates or U+FFFE/U+FFFF at all, not even as &#...; references: those are
// written as U+FFFD (the only loss). Everything else must come back exactly, CR
// included (a parser turns a raw CR into LF, and tab/LF/CR in an attribute into
// spaces, unless they are written as references).

/** XML 1.0's Char production: what is outside it is written as U+FFFD. */
const xmlChars = (s: string): string => s.replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')

/** The tree a JSON value becomes (README: objects are elements, list items <item>, renamed keys keep key=""). */
function expected(name: string, value: unknown, attrs: Record<string, string> = {}): XmlElement {
  if (value === null || value === undefined) return { name, attrs, children: [] }
  if (typeof value !== 'object') {
    const text = xmlChars(String(value))
    return { name, attrs, children: text === '' ? [] : [text] }
  }
  if (Array.isArray(value)) return { name, attrs, children: value.map((v) => expected('item', v)) }
  const children = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      const tag = xmlName(k)
      return expected(tag, v, tag === k ? {} : { key: xmlChars(k) })
    })
  return { name, attrs, children }
}

const LATIN1 = Array.from({ length: 0x100 }, (_, i) => String.fromCharCode(i)).join('')
const SPECIALS = ['\r\n', '\uD800', '\uDFFF', 'a\uD83D', '\uFFFE', '\uFFFF', '\uFEFF', '\uFDD0', '\u0085', '\u2028', '\u{1F600}', '\u{10FFFF}', '\u{1FFFE}', ']]>']
// Keys the 5th edition of XML 1.0 allows in names but expat (4th edition tables) refuses.
const NAMES = ['\u017F', '\u0132', '\u01C5', '\uFEFF', '\u3400', 'a\u0660', '\u0660', '\u0301x', 'x\u00B7y', '\u4E00', 'é', 'Ω', 'a:b', 'xmlns']

describe('XML emitter, strict parser (expat)', () => {
  it('every code point U+0000..U+00FF, lone surrogates, U+FFFE/U+FFFF: expat reads the answer, text and keys exact', () => {
    const value = {
      all: LATIN1,
      each: Array.from(LATIN1),
      keys: Object.fromEntries(Array.from(LATIN1, (c, i) => [`k${c}`, `${i}${c}`])),
      specials: SPECIALS,
      special_keys: Object.fromEntries(SPECIALS.map((c, i) => [`k${c}`, i])),
      [`${LATIN1}${SPECIALS.join('')}`]: 'key with everything',
    }
    expect(expatParse(toXml(value))).toEqual(expected('response', value))
  })

  it('each character alone, as text and as a key', () => {
    const cases = [...Array.from(LATIN1), ...SPECIALS].map((c) => ({ [c]: `a${c}b` }))
    expatParseAll(cases.map((c) => toXml(c))).forEach((result, i) => {
      expect(result, JSON.stringify(Object.keys(cases[i]!)[0])).toEqual({ root: expected('response', cases[i]) })
    })
  })

  it('a CR stays a CR, and tab/LF/CR stay themselves in key="" (references, not raw)', () => {
    expect(toXml({ v: 'a\r\nb\rc' })).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<response><v>a&#13;\nb&#13;c</v></response>')
    expect(toXml({ 'a\tb\nc\rd': 1 })).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<response><a_b_c_d key="a&#9;b&#10;c&#13;d">1</a_b_c_d></response>')
  })

  it('element names are ones both editions of XML 1.0 accept (expat still uses the 4th)', () => {
    const value = Object.fromEntries(NAMES.map((n, i) => [n, i]))
    expect(expatParse(toXml(value))).toEqual(expected('response', value))
    expect(xmlName('\uFEFF')).toBe('_')
    expect(xmlName('\u0660')).toBe('_\u0660')
    expect(xmlName('a\u0660')).toBe('a\u0660')
  })
})

// Strings from every corner: any code point, Latin-1 (C0, DEL, C1), any UTF-16
// unit (so lone surrogates), and a mix of the characters that matter here.
const interesting = fc.constantFrom('\x00', '\x08', '\t', '\n', '\r', '\x7F', '\x85', '\xB7', '\uD800', '\uDFFF', '\uFEFF', '\uFFFE', '\uFFFF',
  '\u0660', '\u017F', '\u{1F600}', '<', '&', '>', '"', "'", ']', ':', '-', '.', 'x', 'm', 'l', '1')
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'binary-ascii' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.string({ unit: interesting }),
)
const answer = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value

describe('XML emitter, strict parser, any answer', () => {
  it('expat accepts every document and reads back the same tree', () => {
    // One python3 run for the lot; the seed is in the message to replay a failure.
    const seed = Date.now()
    const values = fc.sample(answer, { numRuns: 500, seed })
    expatParseAll(values.map((v) => toXml({ data: v }))).forEach((result, i) => {
      expect(result, `seed ${seed}, expat on ${JSON.stringify(toXml({ data: values[i] }))}`).toEqual({ root: expected('response', { data: values[i] }) })
    })
  })
})

describe('?format=xml end to end, strict parser', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  })
  afterAll(() => t.close())

  it('text a client sent (base64 decode echoes it) comes back through expat as XML can carry it', async () => {
    // Not starting with U+FEFF: the endpoint's UTF-8 decoder drops a leading BOM.
    const sent = `x${LATIN1}\r\n\uFFFE\uFFFF\uFEFF\uFDD0\u0085\u2028\u{1F600}\u{10FFFF}]]>`
    const input = encodeURIComponent(Buffer.from(sent, 'utf8').toString('base64'))
    const res = await t.request(`/api/base64/decode?input=${input}&format=xml`)
    expect(res.status).toBe(200)
    const root = expatParse(new Uint8Array(await res.arrayBuffer()))
    const data = root.children.find((c): c is XmlElement => typeof c !== 'string' && c.name === 'data')
    const textNode = data?.children.find((c): c is XmlElement => typeof c !== 'string' && c.name === 'text')
    // Only what XML cannot carry is lost: C0 but tab/LF/CR, U+FFFE, U+FFFF.
    expect(textNode?.children).toEqual([xmlChars(sent)])
    expect(xmlChars(sent)).toBe(sent.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g, '\uFFFD'))
  })
})
