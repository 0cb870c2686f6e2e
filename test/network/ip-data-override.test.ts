import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadCountryDatabase } from '../../plugins/network/asn-db/country-database.ts'
import { packagedIpDataFiles } from '../../plugins/network/ip-data-files.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { writeMmdb } from './mmdb-writer.ts'

// INFRALENS_ASN_IPV4_CSV / INFRALENS_ASN_IPV6_CSV / INFRALENS_COUNTRY_MMDB: an
// operator's own data replaces the bundled packages, and /api/ip names it as the
// source. The country file here is shaped like MaxMind's (country.iso_code), with one
// record in ip-location-db's shape (country_code), and dated by its own metadata.

const dir = mkdtempSync(join(tmpdir(), 'infralens-ipdata-'))
const files = {
  v4: join(dir, 'my-asn-ipv4-num.csv'),
  v6: join(dir, 'my-asn-ipv6-num.csv'),
  mmdb: join(dir, 'my-country.mmdb'),
}
const BUILT = Date.parse('2026-01-01T00:00:00Z') / 1000

function writeData(): void {
  // 192.0.2.0/24 and 2001:db8::/32 as integers, the ip-location-db "-num" layout
  writeFileSync(files.v4, '3221225984,3221226239,64500,"Example Test Org, Ltd"\n')
  const start = 0x20010db8n << 96n
  writeFileSync(files.v6, `${start},${start + (1n << 96n) - 1n},64501,Example Six\n`)
  const modified = new Date('2025-03-04T05:06:07Z')
  utimesSync(files.v4, modified, modified)
  utimesSync(files.v6, new Date('2025-02-01T00:00:00Z'), new Date('2025-02-01T00:00:00Z'))
  writeFileSync(
    files.mmdb,
    writeMmdb(
      [
        { cidr: '192.0.2.0/24', data: { country: { iso_code: 'NZ', names: { en: 'New Zealand' } }, registered_country: { iso_code: 'AU' } } },
        { cidr: '198.51.100.0/24', data: { country_code: 'IS' } },
        { cidr: '2001:db8::/32', data: { country: { iso_code: 'JP' } } },
      ],
      { databaseType: 'Test-Country', buildEpochSeconds: BUILT, description: { en: 'Test country data for infralens' } },
    ),
  )
}

let t: TestApp
beforeAll(async () => {
  writeData()
  t = await startTestApp({
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
    INFRALENS_ASN_IPV4_CSV: files.v4,
    INFRALENS_ASN_IPV6_CSV: files.v6,
    INFRALENS_COUNTRY_MMDB: files.mmdb,
  })
})
afterAll(async () => {
  await t?.close()
  rmSync(dir, { recursive: true, force: true })
})

const ip = async (text: string) => {
  const res = await t.json(`/api/ip/${encodeURIComponent(text)}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

describe('the operator\'s own IP data', () => {
  it('answers ASN and country from the operator\'s files, MaxMind\'s country.iso_code shape included', async () => {
    const v4 = await ip('192.0.2.77')
    expect(v4.asn).toEqual({ number: 64500, name: 'Example Test Org, Ltd', range: { start: '192.0.2.0', end: '192.0.2.255' }, looked_up: '192.0.2.77' })
    expect(v4.country).toEqual({ code: 'NZ', looked_up: '192.0.2.77' })
    const v6 = await ip('2001:db8::1')
    expect(v6.asn).toMatchObject({ number: 64501, name: 'Example Six' })
    expect(v6.country).toEqual({ code: 'JP', looked_up: '2001:db8::1' })
    // ip-location-db's flat shape in the same file
    expect((await ip('198.51.100.9')).country).toEqual({ code: 'IS', looked_up: '198.51.100.9' })
    // the bundled data is not consulted: 8.8.4.4 is in neither of these files (the bundled data has it)
    expect(await ip('8.8.4.4')).toMatchObject({ asn: null, country: null })
  })

  it('names the operator\'s data as the source: type and build date from the mmdb metadata, the CSVs by file time', async () => {
    const { data_source } = await ip('192.0.2.1')
    expect(data_source.country).toMatchObject({
      name: 'Test-Country',
      version: null,
      date: '2026-01-01',
      attribution: 'Test country data for infralens',
      notes: [expect.stringMatching(/INFRALENS_COUNTRY_MMDB; database type "Test-Country", built 2026-01-01T00:00:00\.000Z/)],
    })
    expect(data_source.country.licence).toMatch(/operator supplied this file/)
    expect(data_source.asn).toMatchObject({
      name: 'operator-supplied ASN data (my-asn-ipv4-num.csv, my-asn-ipv6-num.csv)',
      version: null,
      date: '2025-03-04',
      notes: [expect.stringMatching(/INFRALENS_ASN_IPV4_CSV and INFRALENS_ASN_IPV6_CSV/)],
    })
    // no server path leaks into a public answer
    expect(JSON.stringify(data_source)).not.toContain(dir)
  })
})

describe('start-up checks of the variables', () => {
  it('one ASN file without the other, or a file that cannot be read, stops start-up naming the variable', async () => {
    await expect(startTestApp({ INFRALENS_ASN_IPV4_CSV: files.v4 })).rejects.toThrow(/INFRALENS_ASN_IPV4_CSV and INFRALENS_ASN_IPV6_CSV go together/)
    await expect(startTestApp({ INFRALENS_COUNTRY_MMDB: join(dir, 'missing.mmdb') })).rejects.toThrow(/INFRALENS_COUNTRY_MMDB: cannot read .*missing\.mmdb \(ENOENT\)/)
  })
})

describe('the bundled country database states its own metadata', () => {
  it('database type and build time come from the mmdb', async () => {
    const db = await loadCountryDatabase(packagedIpDataFiles().countryMmdb)
    expect(db.info.databaseType).toBe('country ipvAll')
    expect(db.info.builtAt.getTime()).toBeGreaterThan(Date.parse('2024-01-01T00:00:00Z'))
    expect(db.lookup('8.8.4.4')).toMatch(/^[A-Z]{2}$/)
  })
})
