import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { VrpIndex } from '../../plugins/routing/rpki/vrp-index.ts'
import { parseVrpJson, parseVrpJsonInSlices, scanIpv4PrefixBytes } from '../../plugins/routing/rpki/vrp-json.ts'
import { dropExpired } from '../../plugins/routing/rpki/vrp-expiry.ts'
import fc from 'fast-check'
import { INVALID, NOT_IPV4, scanIpv4PrefixText, scanPrefix } from '../../plugins/routing/rpki/prefix-words.ts'
import { RPKI_FIXTURES } from '../support/fake-vrp.ts'
import { ipv4Safe, ipv6Safe } from '../hardening/fuzz-addresses.ts'

// The VRP export reader: both formats of the fixtures, what it refuses, and that
// reading in slices gives what reading at once gives.

const fixture = (file: string) => readFileSync(join(RPKI_FIXTURES, file))
const load = (text: string) => parseVrpJson(Buffer.from(text))

describe('VRP exports from the fixtures', () => {
  it('rpki-client 2023 (numeric ASNs, ASPA and BGPsec members skipped)', () => {
    const parsed = parseVrpJson(fixture('rpki-client_2023-10-01_excerpt.json'))
    const doc = JSON.parse(fixture('rpki-client_2023-10-01_excerpt.json').toString()) as { roas: unknown[] }
    expect(parsed.v4.n + parsed.v6.n).toBe(doc.roas.length)
    expect(parsed).toMatchObject({ rejected: 0, asnStyle: 'number', metadata: { generatedAt: '2023-10-01T00:05:43.000Z', builtBy: 'josephine' } })
    expect(parsed.tas).toEqual(['', 'apnic', 'afrinic'])
    const ix = VrpIndex.build(parsed)
    expect(ix.explain('1.0.0.0/24', 13335)?.state).toBe('valid')
    expect(ix.explain('2c0f:ff40::/26', 10474)?.matched).toEqual([{ prefix: '2c0f:ff40::/26', max_length: 48, asn: 10474, ta: 'afrinic' }])
  })

  it('rpki-client 2021 (talfiles as a string)', () => {
    const parsed = parseVrpJson(fixture('rpki-client_2021-09-01_excerpt.json'))
    expect(parsed.v4.n + parsed.v6.n).toBe(70)
    expect(parsed.metadata.generatedAt).toBe('2021-09-01T00:04:19.000Z')
  })

  it('Routinator jsonext ("AS…" strings, nested source arrays)', () => {
    const parsed = parseVrpJson(fixture('routinator_jsonext_2025-03-09_excerpt.json'))
    expect(parsed).toMatchObject({ rejected: 0, asnStyle: 'string', metadata: { generatedAt: '2025-03-09T21:45:54.000Z', builtBy: null } })
    const ix = VrpIndex.build(parsed)
    expect(ix.explain('1.0.0.0/24', 13335)?.state).toBe('valid')
    expect(ix.explain('2c0f:fff0:1::/64', 37125)?.state).toBe('valid') // maxLength 128
    expect(ix.explain('2c0f:fff0::/32', 37125)?.matched[0]?.ta).toBeNull() // jsonext has no "ta" member
  })

  it('stayrtr test file (synthetic entry, provider_authorizations)', () => {
    const ix = VrpIndex.build(parseVrpJson(fixture('stayrtr_test.rpki.json')))
    expect(ix.stats).toMatchObject({ vrps: 19, rejected: 0 })
    expect(ix.explain('192.0.2.0/24', 1)?.matched[0]?.ta).toBe('lmao')
  })
})

describe('expiry', () => {
  const s = (iso: string) => Date.parse(iso) / 1000
  it('rpki-client: the numeric `expires` of each VRP', () => {
    const parsed = parseVrpJson(fixture('rpki-client_2023-10-01_excerpt.json'))
    const doc = JSON.parse(fixture('rpki-client_2023-10-01_excerpt.json').toString()) as { roas: Array<{ prefix: string; expires: number }> }
    // the first IPv4 VRP in the file is 1.0.0.0/24 AS13335
    expect(doc.roas[0]).toMatchObject({ prefix: '1.0.0.0/24', expires: 1696688258 })
    expect(parsed.v4.expires[0]).toBe(1696688258)
    const all = [...parsed.v4.expires, ...parsed.v6.expires].sort((a, b) => a - b)
    expect(all).toEqual(doc.roas.map((r) => r.expires).sort((a, b) => a - b))
  })

  it('Routinator jsonext: the earliest notAfter/stale time of a source, the latest source', () => {
    const parsed = parseVrpJson(fixture('routinator_jsonext_2025-03-09_excerpt.json'))
    // 1.0.0.0/24: validity to 2031, chain to 2025-03-15T14:17:32Z, stale 2025-03-15T14:17:31Z
    expect(parsed.v4.expires[0]).toBe(s('2025-03-15T14:17:31Z'))
    // 2c0f:fff0::/32: chain to 2025-03-11T00:06:07Z, stale 2025-03-11T00:06:05Z
    expect(parsed.v6.expires[0]).toBe(s('2025-03-11T00:06:05Z'))
    const two = load(
      JSON.stringify({
        roas: [
          {
            asn: 'AS1',
            prefix: '192.0.2.0/24',
            maxLength: 24,
            source: [
              { type: 'roa', validity: { notAfter: '2030-01-01T00:00:00Z' }, chainValidity: { notAfter: '2026-05-01T00:00:00Z' }, stale: '2026-04-01T00:00:00Z' },
              { type: 'roa', validity: { notAfter: '2027-01-01T00:00:00+00:00' }, stale: '2026-09-01T12:00:00Z' },
            ],
          },
          { asn: 'AS2', prefix: '198.51.100.0/24', source: [{ type: 'roa', stale: '2026-04-01T00:00:00Z' }, { type: 'roa', uri: 'no times' }] },
          { asn: 'AS3', prefix: '203.0.113.0/24', source: [] },
        ],
      }),
    )
    expect([...two.v4.expires]).toEqual([s('2026-09-01T12:00:00Z'), 0, 0])
  })

  it('no expiry member: never expires; an unreadable one: not a VRP', () => {
    const parsed = load(
      JSON.stringify({
        roas: [
          { asn: 1, prefix: '192.0.2.0/24' },
          { asn: 1, prefix: '192.0.2.0/24', expires: 'soon' },
          { asn: 1, prefix: '192.0.2.0/24', expires: -5 },
          { asn: 1, prefix: '192.0.2.0/24', expires: 1.5 },
          { asn: 1, prefix: '192.0.2.0/24', expires: 0 },
          { asn: 1, prefix: '192.0.2.0/24', expires: 9_000_000_000 },
        ],
      }),
    )
    expect(parsed.rejected).toBe(3)
    // 0 would read as "not given": the epoch itself is stored as 1; past 2106 as the largest uint32
    expect([...parsed.v4.expires]).toEqual([0, 1, 0xffffffff])
  })

  it('dropExpired keeps what is valid at the time, and says when the next one goes', () => {
    const parsed = load(
      JSON.stringify({
        roas: [
          { asn: 1, prefix: '192.0.2.0/24', expires: 1000 },
          { asn: 2, prefix: '198.51.100.0/24', expires: 2000 },
          { asn: 3, prefix: '2001:db8::/32', expires: 1500 },
          { asn: 4, prefix: '203.0.113.0/24' },
        ],
      }),
    )
    expect(dropExpired(parsed, 999_999)).toMatchObject({ expired: 0, nextExpiryAt: 1_000_000 })
    expect(dropExpired(parsed, 999_999).parsed).toBe(parsed)
    const at1000 = dropExpired(parsed, 1_000_000) // expires is the first second it is no longer valid
    expect(at1000).toMatchObject({ expired: 1, nextExpiryAt: 1_500_000 })
    expect([...at1000.parsed.v4.asn]).toEqual([2, 4])
    const later = dropExpired(at1000.parsed, 1_700_000)
    expect(later).toMatchObject({ expired: 1, nextExpiryAt: 2_000_000 })
    expect(later.parsed.v6.n).toBe(0)
    const last = dropExpired(later.parsed, 5_000_000)
    expect(last).toMatchObject({ expired: 1, nextExpiryAt: null })
    expect(VrpIndex.build(last.parsed).stats).toMatchObject({ vrps: 1, ipv4: 1 })
    expect(VrpIndex.build(last.parsed).validate('203.0.113.0/24', 4)).toBe(1)
  })
})

describe('what the reader refuses', () => {
  it('entries that are not VRPs are counted and quoted, the rest kept', () => {
    const parsed = load(
      JSON.stringify({
        roas: [
          { asn: 1, prefix: '192.0.2.0/24', maxLength: 24 },
          { asn: 1, prefix: '192.0.2.1/24', maxLength: 24 }, // host bits
          { asn: 1, prefix: '192.0.2.0/24', maxLength: 23 }, // maxLength < length
          { asn: 1, prefix: '192.0.2.0/24', maxLength: 33 },
          { asn: 1, prefix: '2001:db8::/32', maxLength: 129 },
          { asn: 'ASX', prefix: '192.0.2.0/24', maxLength: 24 },
          { asn: -1, prefix: '192.0.2.0/24', maxLength: 24 },
          { asn: 4294967296, prefix: '192.0.2.0/24', maxLength: 24 },
          { asn: 1.5, prefix: '192.0.2.0/24', maxLength: 24 },
          { asn: 1, prefix: '192.0.2/24', maxLength: 24 },
          { asn: 1, prefix: '010.0.0.0/8', maxLength: 8 },
          { asn: 1, prefix: 'fe80::1%eth0/64', maxLength: 64 },
          { asn: 1, maxLength: 24 },
          { prefix: '192.0.2.0/24' },
          'not an object',
          { asn: 'as64500', prefix: '2001:DB8::/32' }, // kept: case-insensitive AS, maxLength defaults to the length
        ],
      }),
    )
    expect(parsed.v4.n + parsed.v6.n).toBe(2)
    expect(parsed.rejected).toBe(14)
    expect(parsed.rejectedSamples).toEqual(['192.0.2.1/24', '192.0.2.0/24 maxLength 23', '192.0.2.0/24 maxLength 33', '2001:db8::/32 maxLength 129', '192.0.2.0/24'])
    expect(parsed.asnStyle).toBe('mixed')
    expect(VrpIndex.build(parsed).explain('2001:db8::/32', 64500)?.matched).toEqual([{ prefix: '2001:db8::/32', max_length: 32, asn: 64500, ta: null }])
  })

  it('documents that are not VRP exports are errors naming the place', () => {
    expect(() => load('[]')).toThrow(/JSON object with a "roas" array/)
    expect(() => load('{"vrps": []}')).toThrow(/no "roas" array/)
    expect(() => load('{"roas": [{"asn": 1, "prefix": "1.0.0.0/24"}')).toThrow(/at byte/)
    expect(() => load('<html><body>503</body></html>')).toThrow(/not a VRP export/)
    expect(() => load('{"roas": []} trailing')).toThrow(/after the top-level object/)
    expect(() => load('{"roas": [{"asn": 1, "prefix": "1.0.0.0/24", "x": [1, {"y": ]}]}')).toThrow(/not a VRP export/)
  })

  it('escapes, odd whitespace, a BOM and members in any order are fine', () => {
    const text = '\ufeff {\r\n"roas" :\t[ { "ta":"r\\u0069pe", "maxLength" : 24 ,"prefix":"192.0.2.0\\/24","asn":"AS1","x":{"y":["]",{}]} } ] ,"metadata":{"generated":1741556754}}'
    const parsed = load(text)
    expect(parsed.rejected).toBe(0)
    expect(parsed.tas).toEqual(['', 'ripe'])
    expect(parsed.metadata.generatedAt).toBe('2025-03-09T21:45:54.000Z')
    expect(VrpIndex.build(parsed).validate('192.0.2.0/24', 1)).toBe(1)
  })

  it('duplicate VRPs (one VRP under two trust anchors) are indexed once', () => {
    const ix = VrpIndex.build(load(JSON.stringify({ roas: [
      { asn: 1, prefix: '192.0.2.0/24', maxLength: 24, ta: 'ripe' },
      { asn: 1, prefix: '192.0.2.0/24', maxLength: 24, ta: 'arin' },
      { asn: 1, prefix: '192.0.2.0/24', maxLength: 25, ta: 'arin' },
    ] })))
    expect(ix.stats).toMatchObject({ vrps: 2, duplicates: 1, prefixes: 1 })
  })
})

describe('prefix scanning', () => {
  const words = new Uint32Array(4)
  it('the byte scanner for IPv4 agrees with the string scanner', () => {
    for (const text of ['0.0.0.0/0', '192.0.2.0/24', '255.255.255.255/32', '10.0.0.0/8', '1.2.3.4/32', '1.2.3.4/31', '01.2.3.0/24', '1.2.3.0/024', '1.2.3.0/', '1.2.3/24', '256.0.0.0/8', '1.2.3.0/33', '1.2.3.0', '1.2.3.0/2x', '1..2.3/8', '1.2.3.4.5/8']) {
      const a = scanPrefix(text, words, 'reject')
      const wa = words[0]
      const b = scanIpv4PrefixBytes(Buffer.from(text), 0, text.length, words)
      expect(b, text).toBe(a)
      if (a !== INVALID) expect(words[0], text).toBe(wa)
    }
  })
})

describe('the validator\'s one-pass IPv4 scanner', () => {
  const words = new Uint32Array(4)
  const agree = (text: string) => {
    const want = scanPrefix(text, words, 'mask')
    const wantWord = words[0]
    const got = scanIpv4PrefixText(text, words)
    if (got === NOT_IPV4) {
      expect(text, text).toContain(':')
      return
    }
    expect(got, text).toBe(want)
    if (want !== INVALID) expect(words[0], text).toBe(wantWord)
  }

  it('agrees with scanPrefix, host bits cleared; hands IPv6 on', () => {
    for (const text of ['0.0.0.0/0', '192.0.2.77/24', '255.255.255.255/32', '1.2.3.4/33', '1.2.3.4/03', '1.2.3/8', '2001:db8::/32', '::ffff:1.2.3.4/128', '1.2.3.4/', '/8', '1.2.3.4/8/8', '1.2.3.04/32']) agree(text)
    expect(scanIpv4PrefixText('2001:db8::/32', words)).toBe(NOT_IPV4)
  })

  it('property: agrees on generated and mangled prefixes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(ipv4Safe, fc.integer({ min: 0, max: 40 })).map(([ip, len]) => `${ip}/${len}`), fc.string({ maxLength: 20 }), fc.tuple(ipv6Safe, fc.integer({ min: 0, max: 130 })).map(([ip, len]) => `${ip}/${len}`)), (text) => agree(text)),
      { numRuns: 3000 },
    )
  })
})

describe('reading in slices', () => {
  it('gives exactly what reading at once gives', async () => {
    const roas = Array.from({ length: 5000 }, (_, i) => ({ asn: i, prefix: i % 5 ? `10.${i >> 8}.${i & 255}.0/24` : `2001:db8:${i.toString(16)}::/48`, maxLength: i % 5 ? 24 : 48, ta: i % 2 ? 'a' : 'b' }))
    const bytes = Buffer.from(JSON.stringify({ metadata: { buildtime: '2026-01-01T00:00:00Z' }, roas }))
    const once = parseVrpJson(bytes)
    const sliced = await parseVrpJsonInSlices(bytes, 7)
    expect(sliced).toEqual(once)
    expect(once.v4.n).toBe(4000)
    expect(once.v6.n).toBe(1000)
    // and the index built step by step is the index built at once
    expect(await VrpIndex.buildInSlices(once)).toEqual(VrpIndex.build(once))
  })
})
