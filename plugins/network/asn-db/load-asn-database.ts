import { readFile } from 'node:fs/promises'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { AsnDatabase } from './asn-database.ts'
import { chunkEnd } from './csv-scan.ts'
import { Ipv4RangeParser } from './ipv4-ranges.ts'
import { Ipv6RangeParser } from './ipv6-ranges.ts'
import { OrgTable } from './org-table.ts'

/** The two CSVs of @ip-location-db/asn in their "-num" form (integer starts/ends). */
export interface AsnFiles {
  ipv4: string
  ipv6: string
}

export interface LoadOptions {
  /**
   * Bytes parsed between yields to the event loop. The parse is synchronous CPU
   * work; cutting it into ~4 MB steps keeps a server that loads on first use
   * answering other requests (each step is ~10-20 ms on the bench box).
   */
  chunkBytes?: number
}

interface Feedable {
  feed(buf: Uint8Array, from: number, to: number): void
}

async function feedAll(buf: Buffer, parser: Feedable, chunkBytes: number): Promise<void> {
  for (let from = 0; from < buf.length; ) {
    const to = chunkEnd(buf, from, chunkBytes)
    parser.feed(buf, from, to)
    from = to
    if (from < buf.length) await nextTurn()
  }
}

export async function loadAsnDatabase(files: AsnFiles, options: LoadOptions = {}): Promise<AsnDatabase> {
  const started = performance.now()
  const chunkBytes = options.chunkBytes ?? 4 << 20
  const [v4, v6] = await Promise.all([readFile(files.ipv4), readFile(files.ipv6)])
  const orgs = new OrgTable()
  // Capacity from the file size (rows are ~52 and ~110 bytes); parsers grow past it
  // if needed and keep exactly the rows at finish(). Counting lines first cost ~25 ms.
  const p4 = new Ipv4RangeParser(Math.ceil(v4.length / 40) + 16, orgs)
  await feedAll(v4, p4, chunkBytes)
  const p6 = new Ipv6RangeParser(Math.ceil(v6.length / 80) + 16, orgs)
  await feedAll(v6, p6, chunkBytes)
  const r4 = p4.finish()
  const r6 = p6.finish()
  if (r4.ranges.count === 0) throw new Error(`${files.ipv4} holds no IPv4 ranges (expected rows "start,end,asn,org" with integer addresses)`)
  if (r6.ranges.count === 0) throw new Error(`${files.ipv6} holds no IPv6 ranges (expected rows "start,end,asn,org" with integer addresses)`)
  const names = orgs.seal()
  return new AsnDatabase(r4.ranges, r6.ranges, names, {
    ipv4Ranges: r4.ranges.count,
    ipv6Ranges: r6.ranges.count,
    names: names.count,
    overlaps: r4.overlaps + r6.overlaps,
    skipped: p4.skipped + p6.skipped,
    loadMs: Math.round(performance.now() - started),
  })
}
