import fc from 'fast-check'
import { XMLParser } from 'fast-xml-parser'
import { load } from 'js-yaml'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { linkTarget } from '../../plugins/format/csv-format.ts'
import { startTestApp } from '../support/app.ts'
import { ITEMS, WEIRD } from '../support/fixture-plugin.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

const parser = new XMLParser({ parseTagValue: false, ignoreAttributes: false, attributeNamePrefix: '@_', isArray: (name) => name === 'item' })

/** What a JSON value looks like after a trip through XML: text everywhere, lists as item. */
function asXml(value: unknown): unknown {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.length === 0 ? '' : { item: value.map(asXml) }
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asXml(v)]))
  return String(value)
}

async function body(path: string) {
  const res = await t.request(path)
  return { res, text: await res.text() }
}

describe('yaml', () => {
  it('parses back to the same envelope as json', async () => {
    const json = JSON.parse((await body('/api/test/items?sort=id')).text)
    const { res, text } = await body('/api/test/items?sort=id&format=yaml')
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/)
    const yaml = load(text) as Record<string, unknown>
    expect(yaml.data).toEqual(json.data)
    expect(yaml.meta).toEqual(json.meta)
    expect(Object.keys(yaml)).toEqual(Object.keys(json))
    expect(res.headers.get('x-request-id')).toBe(yaml.request_id)
  })

  it('keeps strings that look like other YAML types as strings', async () => {
    const { text } = await body('/api/base64/decode?input=eWVz&format=yaml') // "yes"
    expect((load(text) as { data: { text: string } }).data.text).toBe('yes')
  })
})

describe('xml', () => {
  it('root <response>, items as <item>, same data as json', async () => {
    const json = JSON.parse((await body('/api/test/items')).text)
    const { res, text } = await body('/api/test/items?format=xml')
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/)
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<response>')).toBe(true)
    const parsed = parser.parse(text) as { response: Record<string, unknown> }
    expect(parsed.response.data).toEqual(asXml(json.data))
    expect(parsed.response.meta).toEqual(asXml(json.meta))
    expect(parsed.response.success).toBe('true')
  })

  it('makes keys valid XML names and keeps the original in key=""', async () => {
    const { text } = await body('/api/test/weird-keys?format=xml')
    expect(text).not.toMatch(/[\u0001]/)
    const data = (parser.parse(text) as { response: { data: Record<string, any> } }).response.data
    expect(data._1st).toEqual({ '@_key': '1st', '#text': '1' })
    expect(data.a_b).toEqual({ '@_key': 'a b', '#text': 'space' })
    expect(data.xmlns_x).toBeUndefined()
    expect(data._xmlns_x).toEqual({ '@_key': 'xmlns:x', '#text': 'colon' })
    expect(data['ok.key-name_1']).toBe('true')
    expect(data._).toEqual({ '@_key': '', '#text': 'empty' })
    expect(data.nested._2nd).toEqual({ '@_key': '2nd', item: ['1', '2'] })
    expect(data.nested.list).toEqual({ item: [{ item: ['1', '2'] }, { item: ['3'] }] })
    expect(data.ctrl).toBe('a\uFFFDb<&>"')
    expect(data.empty).toBe('')
    expect(data.nothing).toBe('')
  })

  it('a real XML parser accepts every response (no raw control characters)', async () => {
    const { text } = await body('/api/test/weird-keys?format=xml')
    expect(() => new XMLParser().parse(text, true)).not.toThrow()
  })
})

describe('csv', () => {
  it('one row per list item under its dotted path, the rest of data on every row, plain lists as JSON', async () => {
    const { res, text } = await body('/api/test/items?format=csv')
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/)
    const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true })
    expect(parsed.errors).toEqual([])
    expect(parsed.meta.fields).toEqual(['count', 'items.id', 'items.name', 'items.score', 'items.tags', 'items.owner.name', 'items.owner.email', 'notes.0.text', 'notes.1.text', 'notes.2.text'])
    const unescape = (s: string) => (s.startsWith("'") ? s.slice(1) : s)
    expect(parsed.data.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, unescape(v)])))).toEqual(
      ITEMS.map((i) => ({
        count: String(ITEMS.length),
        'items.id': String(i.id),
        'items.name': i.name,
        'items.score': i.score === null ? '' : String(i.score),
        'items.tags': JSON.stringify(i.tags),
        'items.owner.name': i.owner.name,
        'items.owner.email': i.owner.email,
        'notes.0.text': 'n1',
        'notes.1.text': 'n2',
        'notes.2.text': 'n3',
      })),
    )
  })

  it('escapes cells that a spreadsheet would run as formulas', async () => {
    const { text } = await body('/api/test/items?format=csv')
    expect(text).toContain(`"'=cmd|calc"`)
    expect(text).toContain(`"'+1@example.com"`)
    expect(text).not.toMatch(/(^|,)=cmd/m)
    // numbers are data, not formulas
    expect(text).toMatch(/,-1,/)
  })

  it('carries the envelope in headers', async () => {
    const res = await t.request('/api/test/items?format=csv&limit=2')
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9A-Z]{26}$/)
    expect(res.headers.get('x-endpoint')).toBe('test.items')
    expect(res.headers.get('x-category')).toBe('utilities')
    expect(res.headers.get('x-tier')).toBe('anonymous')
    expect(res.headers.get('x-cache')).toBe('miss')
    expect(res.headers.get('x-total-count')).toBe('4')
    // rel="self", then the paging links (test/gateway/page-links.test.ts).
    expect(res.headers.get('link')).toMatch(/^<\/api\/test\/items\?format=csv&limit=2>; rel="self", </)
    expect((await res.text()).trim().split('\r\n')).toHaveLength(3)
  })

  it('the Link header keeps an already-encoded URL as it is (no double encoding)', async () => {
    const res = await t.request('/api/hash/sha256?input=%3D1%2B2&format=csv')
    expect(res.status).toBe(200)
    expect(res.headers.get('link')).toBe('</api/hash/sha256?input=%3D1%2B2&format=csv>; rel="self"')
    // What the URL parser leaves raw (| ^ ` {) is allowed in a header and kept.
    const raw = await t.request('/api/hash/sha256?input=a|b^c`d{e}&format=csv')
    expect(raw.headers.get('link')).toBe('</api/hash/sha256?input=a|b^c`d{e}&format=csv>; rel="self"')
  })

  it('the Link target names the same input the request sent, whatever it was', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), async (input) => {
        const res = await t.request(`/api/hash/sha256?input=${encodeURIComponent(input)}&format=csv`)
        await res.arrayBuffer()
        const link = /^<([\x21-\x7E]+)>; rel="self"$/.exec(res.headers.get('link') ?? '')
        expect(link, res.headers.get('link') ?? 'no link').not.toBeNull()
        expect(new URL(link![1]!, 'http://x').searchParams.get('input')).toBe(input)
      }),
      { numRuns: 60 },
    )
  })

  it('linkTarget escapes only what may not stand in <...>, as UTF-8, and leaves % escapes alone', () => {
    expect(linkTarget('/a b?q=<é>&r="%41"\u{1F600}')).toBe('/a%20b?q=%3C%C3%A9%3E&r=%22%41%22%F0%9F%98%80')
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = linkTarget(s)
        expect(out).toMatch(/^[\x21-\x7E]*$/)
        expect(out).not.toMatch(/[<>"]/)
        // Printable ASCII other than <>" goes through untouched.
        if (/^[\x21-\x7E]*$/.test(s) && !/[<>"]/.test(s)) expect(out).toBe(s)
      }),
    )
  })

  it('an object without csvRows is one row', async () => {
    const { text } = await body('/api/hash/sha256?input=abc&format=csv')
    const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true })
    expect(parsed.data).toEqual([
      { algorithm: 'sha256', digest: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', encoding: 'hex', bits: '256', input_bytes: '3' },
    ])
  })

  it('data that is an array of objects is one row each', async () => {
    const json = JSON.parse((await body('/api/endpoints')).text)
    const { text } = await body('/api/endpoints?format=csv&fields=name,path,cost')
    const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true })
    expect(parsed.data).toEqual(json.data.map((e: { name: string; path: string; cost: number }) => ({ name: e.name, path: e.path, cost: String(e.cost) })))
  })
})

describe('errors in every format', () => {
  it('json', async () => {
    const { res, text } = await body('/api/nope')
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(JSON.parse(text).error.code).toBe('not_found')
  })

  it('yaml', async () => {
    const { res, text } = await body('/api/nope?format=yaml')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/)
    const parsed = load(text) as { success: boolean; error: { code: string } }
    expect(parsed.success).toBe(false)
    expect(parsed.error.code).toBe('not_found')
  })

  it('xml', async () => {
    const { res, text } = await body('/api/hash/nope?input=x&format=xml')
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/)
    const parsed = parser.parse(text) as { response: { success: string; error: { code: string; details: { param: string } } } }
    expect(parsed.response.success).toBe('false')
    expect(parsed.response.error.code).toBe('bad_request')
    expect(parsed.response.error.details.param).toBe('algorithm')
  })

  it('csv errors are JSON', async () => {
    const { res, text } = await body('/api/test/failing/upstream?format=csv')
    expect(res.status).toBe(502)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(JSON.parse(text).error.code).toBe('upstream_error')
  })

  it('an unknown format is a JSON 400 naming format', async () => {
    const { res, text } = await body('/api/uuid?format=toml')
    expect(res.status).toBe(400)
    expect(JSON.parse(text).error.details).toMatchObject({ param: 'format', allowed: ['json', 'yaml', 'xml', 'csv'] })
  })
})

describe('weird keys survive yaml and json', () => {
  it('yaml round trip', async () => {
    const { text } = await body('/api/test/weird-keys?format=yaml')
    expect((load(text) as { data: unknown }).data).toEqual(WEIRD)
  })
})
