import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SuccessEnvelope } from '../../runtime/envelope.ts'
import { ROOT } from '../../runtime/app.ts'
import { loadRegistry } from '../../runtime/registry.ts'
import { csvFormat } from '../../plugins/format/csv-format.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { primePython, readCsv, readCsvPapa, readCsvTable, unquote } from '../support/csv-oracles.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// A list of plain values (a TXT record's character-strings) is one cell holding
// its JSON text, so the boundaries survive whatever the strings contain (DKIM and
// DMARC records are full of ";"). Cells a spreadsheet would run as formulas still
// start with a quote; reading back is "drop one leading quote", then JSON.parse.

const txt = (await loadRegistry([join(ROOT, 'registry')])).find((e) => e.name === 'dns.txt')!

/** A dns.txt answer whose records are these TXT records (lists of strings). */
function answer(records: readonly string[][]): SuccessEnvelope {
  return {
    success: true,
    data: {
      domain: 'example.com',
      type: 'TXT',
      rcode: 'NOERROR',
      status: 'answer',
      records: records.map((strings) => ({ name: 'example.com', type: 'TXT', ttl: 300, text: strings.join(''), strings })),
      chain: [],
      canonical_name: 'example.com',
      authenticated: false,
      ttl: 300,
      resolver: { name: 'r', address: '192.0.2.53', port: 53, transport: 'udp' },
      latency_ms: 1,
    },
    timestamp: '2026-01-01T00:00:00.000Z',
    request_id: '01M831T07RB0Q1X0NPXMYDTSBC',
  }
}

function csv(records: readonly string[][]): string {
  return csvFormat.success(answer(records), { pretty: false, endpoint: txt, headers: {} })
}

/** Records by column name, read by papaparse alone (fast enough for a property; python checks the texts after). */
function papaTable(text: string): Array<Record<string, string>> {
  const [header = [], ...records] = readCsvPapa(text)
  return records.map((record) => Object.fromEntries(header.map((name, i) => [unquote(name), record[i]!])))
}

function stringsOf(text: string): string[][] {
  return readCsvTable(text).rows.map((row) => JSON.parse(unquote(row['records.strings']!)) as string[])
}

/** No cell, header included, starts the way a spreadsheet formula does unless a quote guards it. */
function noFormulas(cells: readonly string[]): void {
  for (const cell of cells) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+\-@\t\r]/)
}

const NASTY = [';', ',', '"', "'", '\n', '\r', '\r\n', '\t', '=', '+', '-', '@', ' ', '[', ']', '\\', 'a', 'é', '\u2028', '"]']
const nastyString = fc.oneof(fc.string({ unit: fc.constantFrom(...NASTY), maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 12 }))

describe('TXT strings in CSV', () => {
  it('keep their boundaries where ";" joining lost them', () => {
    const dkim = ['v=DKIM1; k=rsa; ', 'p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC;x']
    const split = ['v=DKIM1', '; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC;x']
    expect(stringsOf(csv([dkim, split]))).toEqual([dkim, split])
    expect(stringsOf(csv([[''], [], ['', '']]))).toEqual([[''], [], ['', '']])
    expect(readCsvTable(csv([['a;b', 'c']])).rows[0]!['records.strings']).toBe('["a;b","c"]')
  })

  it('round-trip for any strings: ; , quotes, line breaks, empty strings, leading = + - @', () => {
    const texts: string[] = []
    fc.assert(
      fc.property(fc.array(fc.array(nastyString, { maxLength: 5 }), { minLength: 1, maxLength: 4 }), (records) => {
        const text = csv(records)
        texts.push(text)
        const rows = papaTable(text)
        expect(rows.map((row) => JSON.parse(unquote(row['records.strings']!)) as unknown)).toEqual(records)
        expect(rows.map((row) => unquote(row['records.text']!))).toEqual(records.map((r) => r.join('')))
        noFormulas(readCsvPapa(text).flat())
      }),
      { numRuns: 200 },
    )
    // The second reader: python's csv module reads every text to the same cells.
    primePython(texts)
    for (const text of texts) readCsv(text)
  })

  it('a formula with a line break after it is still escaped, and a leading quote is kept by doubling', () => {
    const text = csv([['=HYPERLINK("http://192.0.2.1")\nsecond line'], ["'quoted"], ['@SUM(1)']])
    noFormulas(readCsv(text).flat())
    const cells = readCsvTable(text).rows.map((row) => row['records.text'])
    expect(cells).toEqual(["'=HYPERLINK(\"http://192.0.2.1\")\nsecond line", "''quoted", "'@SUM(1)"])
    expect(cells.map((c) => unquote(c!))).toEqual(['=HYPERLINK("http://192.0.2.1")\nsecond line', "'quoted", '@SUM(1)'])
  })
})

describe('one column', () => {
  it('an empty cell is written "" and stays a row (an empty line would be no row, or no cells)', () => {
    const envelope = { ...answer([]), data: { records: [{ text: '' }, { text: 'x' }, { text: '' }] } }
    const text = csvFormat.success(envelope, { pretty: false, endpoint: txt, headers: {} })
    expect(readCsv(text)).toEqual([['records.text'], [''], ['x'], ['']])
  })
})

describe('TXT records through the service', () => {
  const ZONE = `
$ORIGIN strings.test.
$TTL 300
@    IN SOA ns hostmaster ( 1 3600 900 604800 300 )
@    IN NS  ns
ns   IN A   192.0.2.53
@    IN TXT "v=DKIM1; k=rsa; " "p=MIGf;MA0G,CSq\\"q\\"" "" "=cmd|' /C calc'!A0" "line\\010break" "+1" "-2" "@x"
@    IN TXT "v=DMARC1;p=reject;rua=mailto:d@example.com,mailto:e@example.com"
`
  let dns: LoopbackDns
  let t: TestApp
  beforeAll(async () => {
    dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ZONE] })
    t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  })
  afterAll(async () => {
    await t?.close()
    await dns?.close()
  })

  it('the CSV cells are the JSON answer\'s strings, boundaries and all', async () => {
    const json = await t.json('/api/dns/txt/strings.test?sort=text')
    const strings = (json.body.data.records as Array<{ strings: string[] }>).map((r) => r.strings)
    expect(strings).toContainEqual(['v=DKIM1; k=rsa; ', 'p=MIGf;MA0G,CSq"q"', '', "=cmd|' /C calc'!A0", 'line\nbreak', '+1', '-2', '@x'])
    const text = await (await t.request('/api/dns/txt/strings.test?sort=text&format=csv')).text()
    expect(stringsOf(text)).toEqual(strings)
    noFormulas(readCsv(text).flat())
  })
})
