import { org, scanOrgField, skipLine } from './csv-scan.ts'
import type { OrgTable } from './org-table.ts'
import { NUMBER_KEYS, flattenRanges, rangeOrder } from './flatten-ranges.ts'

/**
 * IPv4 ranges as parallel Uint32Arrays sorted by start, plus a 2^16-bucket index
 * on the top 16 bits: bucket[b] is the first row starting at or after b<<16, so a
 * lookup binary-searches only the handful of rows of its /16 instead of all 412k
 * (cache misses on the wide search were the cost; see bench/asn-lookup.bench.ts).
 */
export interface Ipv4Ranges {
  count: number
  starts: Uint32Array
  ends: Uint32Array
  asns: Uint32Array
  orgIds: Uint32Array
  bucket: Uint32Array
}

const U32_MAX = 0xffffffff

/** Parses `start,end,asn,org` rows with integer IPv4 starts and ends, chunk by chunk. */
export class Ipv4RangeParser {
  #starts: Uint32Array
  #ends: Uint32Array
  #asns: Uint32Array
  #orgIds: Uint32Array
  #count = 0
  /** Non-empty lines that were not `number,number,number,org` with start <= end < 2^32. */
  skipped = 0
  #overlaps = 0
  #needsSort = false
  #prevStart = -1
  #prevEnd = -1
  #maxEnd = -1
  readonly #orgs: OrgTable

  constructor(capacity: number, orgs: OrgTable) {
    this.#starts = new Uint32Array(capacity)
    this.#ends = new Uint32Array(capacity)
    this.#asns = new Uint32Array(capacity)
    this.#orgIds = new Uint32Array(capacity)
    this.#orgs = orgs
  }

  /** Parses the whole rows in buf[from, to); `to` must be a line boundary. */
  feed(buf: Uint8Array, from: number, to: number): void {
    let p = from
    while (p < to) {
      const lineStart = p
      let start = 0
      let c = buf[p] as number
      while (c >= 48 && c <= 57) {
        start = start * 10 + (c - 48)
        c = buf[++p] as number
      }
      let ok = c === 44 && p > lineStart
      let end = 0
      let asn = 0
      if (ok) {
        const at = ++p
        c = buf[p] as number
        while (c >= 48 && c <= 57) {
          end = end * 10 + (c - 48)
          c = buf[++p] as number
        }
        ok = c === 44 && p > at
      }
      if (ok) {
        const at = ++p
        c = buf[p] as number
        while (c >= 48 && c <= 57) {
          asn = asn * 10 + (c - 48)
          c = buf[++p] as number
        }
        ok = c === 44 && p > at && start <= end && end <= U32_MAX && asn <= U32_MAX
      }
      if (!ok) {
        // A header, a blank line or a malformed row.
        const first = buf[lineStart]
        if (first !== 10 && first !== 13) this.skipped++
        p = skipLine(buf, p, to)
        continue
      }
      p = scanOrgField(buf, p + 1, to)
      this.#push(start, end, asn, this.#orgs.intern(asn, buf, org.from, org.to, org.hash, org.quoted))
    }
  }

  #push(start: number, end: number, asn: number, orgId: number): void {
    const n = this.#count
    if (n === this.#starts.length) this.#grow()
    if (start <= this.#maxEnd) this.#overlaps++
    if (start < this.#prevStart || (start === this.#prevStart && end > this.#prevEnd)) this.#needsSort = true
    this.#prevStart = start
    this.#prevEnd = end
    if (end > this.#maxEnd) this.#maxEnd = end
    this.#starts[n] = start
    this.#ends[n] = end
    this.#asns[n] = asn
    this.#orgIds[n] = orgId
    this.#count = n + 1
  }

  #grow(): void {
    const size = Math.max(1024, this.#starts.length * 2)
    const grow = (a: Uint32Array) => {
      const b = new Uint32Array(size)
      b.set(a)
      return b
    }
    this.#starts = grow(this.#starts)
    this.#ends = grow(this.#ends)
    this.#asns = grow(this.#asns)
    this.#orgIds = grow(this.#orgIds)
  }

  /** The sorted, disjoint table with its bucket index; `overlaps` counts rows that overlapped an earlier one. */
  finish(): { ranges: Ipv4Ranges; overlaps: number } {
    const count = this.#count
    const starts = this.#starts
    const ends = this.#ends
    if (this.#overlaps === 0 && !this.#needsSort) {
      // Trim the capacity estimate (blank or skipped lines) so memory holds only rows.
      const s = starts.slice(0, count)
      const ranges = { count, starts: s, ends: ends.slice(0, count), asns: this.#asns.slice(0, count), orgIds: this.#orgIds.slice(0, count), bucket: buildBucketIndex(s, count) }
      return { ranges, overlaps: 0 }
    }
    const startOf = (i: number) => starts[i] as number
    const endOf = (i: number) => ends[i] as number
    const order = this.#needsSort ? rangeOrder(count, startOf, endOf, NUMBER_KEYS) : identity(count)
    const out = { starts: [] as number[], ends: [] as number[], asns: [] as number[], orgIds: [] as number[] }
    flattenRanges(order, startOf, endOf, NUMBER_KEYS, (from, to, row) => {
      out.starts.push(from)
      out.ends.push(to)
      out.asns.push(this.#asns[row] as number)
      out.orgIds.push(this.#orgIds[row] as number)
    })
    const s = Uint32Array.from(out.starts)
    const ranges = {
      count: s.length,
      starts: s,
      ends: Uint32Array.from(out.ends),
      asns: Uint32Array.from(out.asns),
      orgIds: Uint32Array.from(out.orgIds),
      bucket: buildBucketIndex(s, s.length),
    }
    return { ranges, overlaps: this.#overlaps }
  }
}

function identity(count: number): Uint32Array {
  const order = new Uint32Array(count)
  for (let i = 0; i < count; i++) order[i] = i
  return order
}

function buildBucketIndex(starts: Uint32Array, count: number): Uint32Array {
  const bucket = new Uint32Array(65_537)
  let row = 0
  for (let b = 0; b <= 65_536; b++) {
    const first = b * 65_536
    while (row < count && (starts[row] as number) < first) row++
    bucket[b] = row
  }
  return bucket
}

/** Row whose range contains `ip` (an unsigned 32-bit number), or -1. */
export function findIpv4(r: Ipv4Ranges, ip: number): number {
  const b = ip >>> 16
  // The containing row starts in this /16, or is the last row starting before it.
  let lo = (r.bucket[b] as number) - 1
  let hi = (r.bucket[b + 1] as number) - 1
  if (lo < 0) lo = 0
  const starts = r.starts
  if (hi < lo || (starts[lo] as number) > ip) return -1
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if ((starts[mid] as number) <= ip) lo = mid
    else hi = mid - 1
  }
  return (r.ends[lo] as number) >= ip ? lo : -1
}
