import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

// A deliberately naive reading of the @ip-location-db/asn CSVs (split, regex,
// BigInt, linear scan), so tests check the service's engine against the data
// itself rather than against the engine's own parser.

export interface CsvRow {
  start: bigint
  end: bigint
  asn: number
  org: string
}

const ROW = /^(\d+),(\d+),(\d+),(?:"((?:[^"]|"")*)"|(.*))$/

const require = createRequire(import.meta.url)
const dir = dirname(require.resolve('@ip-location-db/asn/package.json'))
const cache = new Map<string, CsvRow[]>()
/** Starts and ends as doubles, for a quick pre-check before the exact bigint one. */
const approx = new Map<string, { lo: Float64Array; hi: Float64Array }>()

export function csvRows(file: 'asn-ipv4-num.csv' | 'asn-ipv6-num.csv'): CsvRow[] {
  let rows = cache.get(file)
  if (!rows) {
    rows = []
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const m = ROW.exec(line.replace(/\r$/, ''))
      if (!m) continue
      rows.push({ start: BigInt(m[1]!), end: BigInt(m[2]!), asn: Number(m[3]), org: m[4] !== undefined ? m[4].replaceAll('""', '"') : m[5]! })
    }
    cache.set(file, rows)
    approx.set(file, { lo: Float64Array.from(rows, (r) => Number(r.start)), hi: Float64Array.from(rows, (r) => Number(r.end)) })
  }
  return rows
}

/** The row containing the address; where rows overlap, the one starting last (the more specific). */
export function csvLookup(version: 4 | 6, value: bigint): CsvRow | null {
  const file = version === 4 ? 'asn-ipv4-num.csv' : 'asn-ipv6-num.csv'
  const rows = csvRows(file)
  const { lo, hi } = approx.get(file)!
  // Doubles round IPv6 values (by up to 2^75 here), so the pre-check keeps a margin.
  const v = Number(value)
  const slack = version === 4 ? 0 : 2 ** 80
  let best: CsvRow | null = null
  for (let i = 0; i < rows.length; i++) {
    if (lo[i]! > v + slack || hi[i]! < v - slack) continue
    const row = rows[i]!
    if (row.start <= value && value <= row.end && (best === null || row.start > best.start || (row.start === best.start && row.end < best.end))) best = row
  }
  return best
}
