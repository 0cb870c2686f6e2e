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
