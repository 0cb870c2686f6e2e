import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EncodedJson, decodedAt } from '../../runtime/encoded-json.ts'
import { JsonBytes, encodeString, jsonPiece } from '../../runtime/json-bytes.ts'
import { jsonFormat } from '../../plugins/format/json-format.ts'
import type { SuccessEnvelope } from '../../runtime/envelope.ts'

// The JSON byte writer (runtime/json-bytes.ts) against JSON.stringify, the
// independent implementation it must equal byte for byte, and the json format's
// splice of an EncodedJson against its own compact() on the decoded value.

const text = (e: EncodedJson) => Buffer.concat(e.chunks as Uint8Array[]).toString('utf8')

/** Strings from every class: ASCII with quotes and backslashes, C0/C1 controls, U+2028, astral, lone surrogates. */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\u0000', '\u001f', '\u007f', '\u0085', '\u2028', '\u2029', '\ud800', '\udfff', 'é', '😀', 'a') }),
)

describe('JsonBytes writes what JSON.stringify writes', () => {
  it('strings of every kind (property), remembered or not', () => {
    fc.assert(
      fc.property(fc.array(anyString, { maxLength: 20 }), (strings) => {
        const out = new JsonBytes()
        out.byte(0x5b)
        // Twice each: the second time the remembered bytes are copied.
        const twice = [...strings, ...strings]
        twice.forEach((s, i) => {
          if (i > 0) out.byte(0x2c)
          out.string(s)
        })
        out.byte(0x5d)
        expect(text(out.finish())).toBe(JSON.stringify(twice))
        for (const s of strings) expect(Buffer.from(encodeString(s)).toString('utf8')).toBe(JSON.stringify(s))
      }),
      { numRuns: 300 },
    )
  })

  it('whole numbers, null, booleans, dotted quads and any value', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.maxSafeNat(), fc.nat({ max: 0xffffffff }), fc.boolean(), fc.jsonValue()), { maxLength: 30 }), (rows) => {
        const out = new JsonBytes()
        const expected: string[] = []
        for (const [n, ip, b, value] of rows) {
          out.uint(n)
          out.uint(null)
          out.boolean(b)
          out.byte(0x22)
          out.ipv4(ip)
          out.byte(0x22)
          out.value(value)
          out.stringOrNull(null)
          expected.push(`${JSON.stringify(n)}null${b}"${[24, 16, 8, 0].map((s) => (ip >>> s) & 255).join('.')}"${JSON.stringify(value)}null`)
        }
        expect(text(out.finish())).toBe(expected.join(''))
      }),
      { numRuns: 200 },
    )
    // Every octet's digit count, at both ends of each (the dotted quad is written digit by digit).
    for (const octet of [0, 9, 10, 99, 100, 199, 200, 255]) {
      const out = new JsonBytes()
      const value = ((octet << 24) | (octet << 16) | (octet << 8) | octet) >>> 0
      out.ipv4(value)
      expect(text(out.finish())).toBe(`${octet}.${octet}.${octet}.${octet}`)
    }
    // What is not a whole number is written as JSON.stringify writes it.
    const out = new JsonBytes()
    for (const n of [-1, 1.5, Number.NaN, 2 ** 60]) out.uint(n)
    expect(text(out.finish())).toBe(`-11.5null${JSON.stringify(2 ** 60)}`)
  })

  it('across the buffers it fills (1 MiB each): 3 MiB of items, nothing lost at a boundary', () => {
    const out = new JsonBytes()
    const items: string[] = []
    out.byte(0x5b)
    for (let i = 0; i < 80_000; i++) {
      const s = `item ${i} ${'é'.repeat(i % 7)}${'x'.repeat(i % 31)}`
      items.push(s)
      if (i > 0) out.byte(0x2c)
      out.bytes(jsonPiece('{"n":'))
      out.uint(i)
      out.bytes(jsonPiece(',"s":'))
      out.string(s)
      out.byte(0x7d)
    }
    out.byte(0x5d)
    expect(out.byteLength).toBeGreaterThan(3 * 1024 * 1024)
    const encoded = out.finish()
    expect(encoded.chunks.length).toBeGreaterThan(3)
    expect(text(encoded)).toBe(JSON.stringify(items.map((s, n) => ({ n, s }))))
    expect(encoded.decode()).toEqual(items.map((s, n) => ({ n, s })))
  })
})

describe('the json format splices an EncodedJson (descriptor preEncoded)', () => {
  const envelope = (data: unknown, links?: string): SuccessEnvelope =>
    ({ success: true, data, meta: { cache: 'miss', category: 'network', endpoint: 'x.y', tier: 'anonymous' }, ...(links ? { links: { self: links } } : {}), timestamp: '2026-11-26T00:00:00.000Z', request_id: '01ABC' }) as SuccessEnvelope
  const encode = (value: unknown) => {
    const out = new JsonBytes()
    out.value(value)
    return out.finish()
  }

  it('byte for byte compact() on the decoded data (property: any members around the list, undefined ones left out)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.constant(undefined))),
        fc.array(fc.jsonValue()),
        fc.option(fc.string(), { nil: undefined }),
        (others, list, links) => {
          const data = Object.assign(Object.create(null) as Record<string, unknown>, others, { results: encode(list) })
          const plain = decodedAt(data, 'results')
          const ctx = { pretty: false, endpoint: undefined, headers: {} }
          const spliced = Buffer.from(jsonFormat.spliced!(envelope(data, links), 'results', ctx)).toString('utf8')
          expect(spliced).toBe(jsonFormat.success(envelope(plain, links), ctx))
          expect(JSON.parse(spliced).data.results).toEqual(JSON.parse(JSON.stringify(list)))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('decodedAt copies, never changes the answer in place; toJSON writes the value anywhere', () => {
    const list = [{ ip: '192.0.2.1' }]
    const data = { count: 1, results: encode(list) }
    const decoded = decodedAt(data, 'results') as { results: unknown }
    expect(decoded.results).toEqual(list)
    expect(data.results).toBeInstanceOf(EncodedJson)
    expect(JSON.stringify(data)).toBe(JSON.stringify({ count: 1, results: list }))
    expect(decodedAt([1], 'results')).toEqual([1])
  })
})
