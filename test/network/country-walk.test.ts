import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Reader } from 'maxmind'
import type { CountryResponse } from 'maxmind'
import { afterAll, describe, expect, it } from 'vitest'
import { loadCountryDatabase } from '../../plugins/network/asn-db/country-database.ts'
import { writeMmdb } from './mmdb-writer.ts'

// CountryDatabase.lookupIpv4 (bulk lookups, POST /api/ip/bulk) walks the mmdb
// search tree itself (plugins/network/asn-db/mmdb-ipv4-walk.ts) and keeps decoded
// records by offset. The maxmind package's own Reader, given the address as text,
// is the reference: on the bundled database and on one written by the tests'
// writer (a different tree: IPv6 with IPv4 under ::/96, nested and missing ranges).

function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}
const text = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
const dir = mkdtempSync(join(tmpdir(), 'infralens-walk-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Row = CountryResponse & { country_code?: string }

describe('IPv4 tree walk vs the maxmind reader', () => {
  it('agrees on 50,000 random addresses and the edges of the bundled database', async () => {
    const require = createRequire(import.meta.url)
    const file = join(dirname(require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/package.json')), 'geo-whois-asn-country.mmdb')
    const reader = new Reader<Row>(readFileSync(file))
    const db = await loadCountryDatabase(file)
    const rand = prng(7)
    const values = [0, 0xffffffff, 0x7f000001, 0x0a000001, 0x08080808, 0xc0000201, ...Array.from({ length: 50_000 }, () => Math.floor(rand() * 2 ** 32))]
    let found = 0
    for (const n of values) {
      const want = reader.get(text(n))?.country_code ?? null
      if (want !== null) found++
      expect(db.lookupIpv4(n), text(n)).toBe(want)
      // Twice: the second answer comes from the record cache.
      expect(db.lookupIpv4(n), text(n)).toBe(want)
    }
    expect(found).toBeGreaterThan(10_000)
  })

  it('agrees on a database written here, MaxMind-shaped records, gaps and nested networks', async () => {
    const path = join(dir, 'walk.mmdb')
    writeFileSync(
      path,
      writeMmdb(
        [
          { cidr: '192.0.2.0/25', data: { country: { iso_code: 'AA' } } },
          { cidr: '192.0.2.128/26', data: { country: { iso_code: 'BB' } } },
          { cidr: '198.51.100.0/24', data: { country: { iso_code: 'CC' } } },
          { cidr: '203.0.113.7/32', data: { country: { iso_code: 'DD' } } },
          { cidr: '2001:db8::/32', data: { country: { iso_code: 'EE' } } },
        ],
        { databaseType: 'walk-test', buildEpochSeconds: 1_700_000_000 },
      ),
    )
    const reader = new Reader<Row>(readFileSync(path))
    const db = await loadCountryDatabase(path)
    const probes = [0xc0000200, 0xc000027f, 0xc0000280, 0xc00002bf, 0xc00002c0, 0xc00002ff, 0xc6336400, 0xc63364ff, 0xcb007107, 0xcb007106, 0xcb007108, 0, 0xffffffff]
    for (let n = 0xc0000100; n < 0xc0000400; n++) probes.push(n)
    for (const n of probes) expect(db.lookupIpv4(n), text(n)).toBe(reader.get(text(n))?.country?.iso_code ?? null)
    expect([0xc0000201, 0xc0000281, 0xc0000301, 0xcb007107].map((n) => db.lookupIpv4(n))).toEqual(['AA', 'BB', null, 'DD'])
  })
})

/** /16s the registries have handed out densely (random IPv6 elsewhere is mostly no data). */
const DENSE = [0x2001, 0x2400, 0x2401, 0x2402, 0x2403, 0x2404, 0x2405, 0x2406, 0x2600, 0x2602, 0x2603, 0x2604, 0x2605, 0x2606, 0x2607, 0x2800, 0x2a00, 0x2a01, 0x2a02, 0x2a03, 0x2a04, 0x2a05, 0x2a06, 0x2a07, 0x2a0a, 0x2a0b, 0x2a0c, 0x2a0d, 0x2a0e, 0x2a0f, 0x2c0f]

/** Eight random groups: mostly in the dense /16s (small second group), some anywhere. */
function randomGroups(rand: () => number): Uint16Array {
  const g = Uint16Array.from({ length: 8 }, () => Math.floor(rand() * 0x10000))
  if (rand() < 0.9) {
    g[0] = DENSE[Math.floor(rand() * DENSE.length)]!
    g[1] = Math.floor(rand() * 0x1000)
  }
  return g
}
const v6Text = (g: Uint16Array) => new URL(`http://[${Array.from(g, (x) => x.toString(16)).join(':')}]/`).hostname.slice(1, -1)

describe('IPv6 tree walk (lookupIpv6) vs the maxmind reader', () => {
  it('agrees on 20,000 random addresses of the bundled database', async () => {
    const require = createRequire(import.meta.url)
    const file = join(dirname(require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/package.json')), 'geo-whois-asn-country.mmdb')
    const reader = new Reader<Row>(readFileSync(file))
    const db = await loadCountryDatabase(file)
    const rand = prng(66)
    let found = 0
    for (let i = 0; i < 20_000; i++) {
      const g = randomGroups(rand)
      const want = reader.get(v6Text(g))?.country_code ?? null
      if (want !== null) found++
      expect(db.lookupIpv6(g), v6Text(g)).toBe(want)
      expect(db.lookupIpv6(g), v6Text(g)).toBe(want)
    }
    expect(found).toBeGreaterThan(2_000)
  })

  it('agrees at the edges of a network in a database written here', async () => {
    const path = join(dir, 'walk6.mmdb')
    writeFileSync(
      path,
      writeMmdb(
        [
          { cidr: '2001:db8::/33', data: { country: { iso_code: 'EE' } } },
          { cidr: '2001:db8:8000::/33', data: { country: { iso_code: 'FF' } } },
          { cidr: '192.0.2.0/24', data: { country: { iso_code: 'AA' } } },
        ],
        { databaseType: 'walk-test', buildEpochSeconds: 1_700_000_000 },
      ),
    )
    const reader = new Reader<Row>(readFileSync(path))
    const db = await loadCountryDatabase(path)
    const probes = [
      [0x2001, 0xdb7, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff],
      [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0],
      [0x2001, 0xdb8, 0x7fff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff],
      [0x2001, 0xdb8, 0x8000, 0, 0, 0, 0, 1],
      [0x2001, 0xdb8, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff],
      [0x2001, 0xdb9, 0, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 0],
      [0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff],
    ].map((g) => Uint16Array.from(g))
    for (const g of probes) expect(db.lookupIpv6(g), v6Text(g)).toBe(reader.get(v6Text(g))?.country?.iso_code ?? null)
    expect(probes.slice(1, 6).map((g) => db.lookupIpv6(g))).toEqual(['EE', 'EE', 'FF', 'FF', null])
  })
})
