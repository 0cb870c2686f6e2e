import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AsnDatabase } from '../../plugins/network/asn-db/asn-database.ts'
import { readDecimal128 } from '../../plugins/network/asn-db/ipv6-ranges.ts'
import { loadAsnDatabase } from '../../plugins/network/asn-db/load-asn-database.ts'
import { packagedIpDataFiles } from '../../plugins/network/ip-data-files.ts'
import { formatIp } from '../../runtime/ip/format.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { random } from '../../bench/random-prefixes.ts'
import { csvLookup, csvRows } from './asn-csv-reference.ts'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'asn-db-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let n = 0
async function load(ipv4: string, ipv6 = '42540766411282592856903984951653826560,42540766411282592856903984951653826815,64496,Doc\n', chunkBytes?: number) {
  const files = { ipv4: join(dir, `v4-${n}.csv`), ipv6: join(dir, `v6-${n++}.csv`) }
  writeFileSync(files.ipv4, ipv4)
  writeFileSync(files.ipv6, ipv6)
  return loadAsnDatabase(files, chunkBytes === undefined ? {} : { chunkBytes })
}

const v4 = (text: string) => {
  const r = parseIp(text)
  if (!r.ok || r.value.version !== 4) throw new Error(text)
  return Number(r.value.value)
}

function at(db: AsnDatabase, text: string) {
  const r = parseIp(text)
  if (!r.ok) throw new Error(text)
  const m = db.lookup(r.value)
  return m && `${m.asn} ${m.name} ${m.rangeStart}-${m.rangeEnd}`
}

describe('ASN CSV parsing', () => {
  it('reads quoted names with commas and doubled quotes, CRLF lines, and skips headers and junk', async () => {
    const db = await load(
      'start,end,asn,org\r\n' +
        `${v4('1.0.0.0')},${v4('1.0.0.255')},13335,"Cloudflare, Inc."\r\n` +
        `${v4('2.0.0.0')},${v4('2.0.0.255')},64500,"The ""Quoted"" Co"\r\n` +
        'garbage line\n' +
        '\n' +
        `${v4('3.0.0.0')},${v4('3.0.0.255')},64501,Plain Name\n` +
        `${v4('4.0.0.0')},${v4('4.0.0.255')},64502,Ünïcödé ГмбХ`,
    )
    expect(db.stats).toMatchObject({ ipv4Ranges: 4, ipv6Ranges: 1, skipped: 2, overlaps: 0 })
    expect(at(db, '1.0.0.1')).toBe('13335 Cloudflare, Inc. 1.0.0.0-1.0.0.255')
    expect(at(db, '2.0.0.9')).toBe('64500 The "Quoted" Co 2.0.0.0-2.0.0.255')
    expect(at(db, '3.0.0.255')).toBe('64501 Plain Name 3.0.0.0-3.0.0.255')
    expect(at(db, '4.0.0.0')).toBe('64502 Ünïcödé ГмбХ 4.0.0.0-4.0.0.255')
    expect(at(db, '0.255.255.255')).toBeNull()
    expect(at(db, '1.0.1.0')).toBeNull()
    expect(at(db, '255.255.255.255')).toBeNull()
    expect(at(db, '2001:db8::ff')).toBe('64496 Doc 2001:db8::-2001:db8::ff')
    expect(at(db, '2001:db8::100')).toBeNull()
  })

  it('gives an ASN a second name only when the data does, and shares one name between its ranges', async () => {
    const db = await load(`1,1,64500,First\n3,3,64500,First\n5,5,64500,Renamed\n7,7,64501,First\n`)
    expect([1, 3, 5, 7].map((ip) => db.ipv4Name(db.findIpv4(ip)))).toEqual(['First', 'First', 'Renamed', 'First'])
    // Names are kept per ASN: 64500's two, 64501's copy of "First", and the IPv6 row's.
    expect(db.stats.names).toBe(4)
  })

  it('cuts overlapping ranges: the later (more specific) one wins, an enclosing range keeps both sides', async () => {
    const db = await load(
      [
        '0,100,64500,Outer', // encloses the next two
        '10,20,64501,InnerA',
        '50,60,64502,InnerB',
        '90,150,64503,Straddle', // overlaps the end of Outer
        '200,300,64504,Same start long',
        '200,250,64505,Same start short', // equal starts: the shorter wins
      ].join('\n'),
    )
    const owner = (ip: number) => {
      const row = db.findIpv4(ip)
      return row < 0 ? null : db.ipv4Asn(row)
    }
    expect([0, 9, 10, 20, 21, 49, 50, 60, 61, 89, 90, 100, 150, 151, 199, 200, 250, 251, 300, 301].map(owner)).toEqual([
      64500, 64500, 64501, 64501, 64500, 64500, 64502, 64502, 64500, 64500, 64503, 64503, 64503, null, null, 64505, 64505, 64504, 64504, null,
    ])
    expect(db.stats.overlaps).toBe(4)
  })

  it('sorts unsorted input', async () => {
    const db = await load('50,59,64502,C\n0,9,64500,A\n20,29,64501,B\n')
    expect([5, 25, 55, 15].map((ip) => db.findIpv4(ip)).map((r) => (r < 0 ? null : db.ipv4Name(r)))).toEqual(['A', 'B', 'C', null])
  })

  it('parses in chunks without splitting rows', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `${i * 10},${i * 10 + 4},${64512 + (i % 7)},"Org ${i % 7}, Ltd"`)
    const whole = await load(lines.join('\n'))
    const chunked = await load(lines.join('\n'), undefined, 97)
    for (let ip = 0; ip < 10_000; ip += 3) {
      const a = whole.findIpv4(ip)
      const b = chunked.findIpv4(ip)
      expect(b).toBe(a)
      if (a >= 0) expect(chunked.ipv4Name(b)).toBe(whole.ipv4Name(a))
    }
  })

  it('reads 128-bit decimals exactly and refuses anything wider', () => {
    const w = new Uint32Array(4)
    const read = (s: string) => {
      const buf = Buffer.from(`${s},`)
      const end = readDecimal128(buf, 0, w)
      return end === 0 ? null : (BigInt(w[0]!) << 96n) | (BigInt(w[1]!) << 64n) | (BigInt(w[2]!) << 32n) | BigInt(w[3]!)
    }
    for (const v of [0n, 1n, 999_999n, 1_000_000n, 2n ** 53n + 1n, 2n ** 64n, 2n ** 96n - 1n, (1n << 128n) - 1n]) expect(read(v.toString())).toBe(v)
    expect(read((1n << 128n).toString())).toBeNull()
    expect(read('x')).toBeNull()
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), (v) => read(v.toString()) === v))
  })

  it('agrees with a brute-force scan on random ranges, overlaps included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 5 })), { minLength: 1, maxLength: 40 }),
        async (specs) => {
          const rows = specs.map(([start, len, asn]) => ({ start, end: start + len, asn }))
          const db = await load(rows.map((r) => `${r.start},${r.end},${r.asn},AS${r.asn}`).join('\n'))
          for (let ip = 0; ip <= 1100; ip++) {
            let best: (typeof rows)[number] | null = null
            for (const r of rows) {
              if (r.start <= ip && ip <= r.end && (!best || r.start > best.start || (r.start === best.start && r.end <= best.end))) best = r
            }
            const row = db.findIpv4(ip)
            if ((row < 0 ? null : db.ipv4Asn(row)) !== (best?.asn ?? null)) return false
          }
          return true
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe('the packaged data (@ip-location-db/asn)', () => {
  let db: AsnDatabase
  beforeAll(async () => {
    const files = packagedIpDataFiles()
    db = await loadAsnDatabase({ ipv4: files.asnIpv4, ipv6: files.asnIpv6 })
  })

  it('loads every row of both files, resolving the one known overlap', () => {
    // The overlapping pair becomes two disjoint pieces: the count is unchanged.
    expect(db.stats.ipv4Ranges).toBe(csvRows('asn-ipv4-num.csv').length)
    expect(db.stats.ipv6Ranges).toBe(csvRows('asn-ipv6-num.csv').length)
    expect(db.stats).toMatchObject({ overlaps: 1, skipped: 0 })
  })

  it('answers like a linear scan of the CSV for random IPv4 and IPv6 addresses and every range boundary sampled', () => {
    const next = random(20261123)
    const v4rows = csvRows('asn-ipv4-num.csv')
    const probes: bigint[] = []
    for (let i = 0; i < 150; i++) probes.push(BigInt(next()))
    for (let i = 0; i < 100; i++) {
      const row = v4rows[next() % v4rows.length]!
      probes.push(row.start, row.end, row.end + 1n, row.start - 1n)
    }
    for (const value of probes) {
      if (value < 0n || value > 0xffffffffn) continue
      const expected = csvLookup(4, value)
      const got = db.lookup({ version: 4, value })
      expect(got && { asn: got.asn, name: got.name }, formatIp({ version: 4, value })).toEqual(expected && { asn: expected.asn, name: expected.org })
    }
    const v6rows = csvRows('asn-ipv6-num.csv')
    for (let i = 0; i < 100; i++) {
      const row = v6rows[next() % v6rows.length]!
      for (const value of [row.start, row.end, row.end + 1n, (row.start + row.end) / 2n]) {
        const expected = csvLookup(6, value)
        const got = db.lookup({ version: 6, value })
        expect(got && { asn: got.asn, name: got.name }, formatIp({ version: 6, value })).toEqual(expected && { asn: expected.asn, name: expected.org })
      }
    }
  })
})
