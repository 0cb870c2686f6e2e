import { org, scanOrgField, skipLine } from './csv-scan.ts'
import type { OrgTable } from './org-table.ts'
import { NUMBER_KEYS, flattenRanges, rangeOrder } from './flatten-ranges.ts'

/**
 * IPv4 ranges sorted by start, one row of four uint32 per range in a single array
 * (start, end, asn, name id: a lookup's row sits in one cache line, ~12% faster
 * than four parallel arrays, measured), plus a 2^16-bucket index on the top 16
 * bits: bucket[b] is the first row starting at or after b<<16, so a lookup
 * binary-searches only the handful of rows of its /16 instead of all 412k (cache
 * misses on the wide search were the cost; see bench/asn-lookup.bench.ts).
 */
export interface Ipv4Ranges {
  count: number
  /** [start, end, asn, orgId] per row */
  rows: Uint32Array
  bucket: Uint32Array
}

export const STRIDE = 4

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
    if (this.#overlaps === 0 && !this.#needsSort) return { ranges: interleave(count, starts, ends, this.#asns, this.#orgIds), overlaps: 0 }
    const startOf = (i: number) => starts[i] as number
    const endOf = (i: number) => ends[i] as number
    // A cluster of k mutually overlapping rows flattens into at most 2k - 1 pieces.
    const capacity = count + this.#overlaps
    const out = {
      starts: new Uint32Array(capacity),
      ends: new Uint32Array(capacity),
      asns: new Uint32Array(capacity),
      orgIds: new Uint32Array(capacity),
    }
    let n = 0
    const emit = (from: number, to: number, row: number) => {
      out.starts[n] = from
      out.ends[n] = to
      out.asns[n] = this.#asns[row] as number
      out.orgIds[n] = this.#orgIds[row] as number
      n++
    }
    if (this.#needsSort) {
      flattenRanges(rangeOrder(count, startOf, endOf, NUMBER_KEYS), startOf, endOf, NUMBER_KEYS, emit)
    } else {
      // Sorted with a few overlaps (the packaged file has one): copy the disjoint
      // rows straight and flatten only the clusters of overlapping ones.
      for (let i = 0; i < count; ) {
        let j = i + 1
        let maxEnd = ends[i] as number
        while (j < count && (starts[j] as number) <= maxEnd) {
          if ((ends[j] as number) > maxEnd) maxEnd = ends[j] as number
          j++
        }
        if (j === i + 1) emit(starts[i] as number, ends[i] as number, i)
        else flattenRanges(range(i, j), startOf, endOf, NUMBER_KEYS, emit)
        i = j
      }
    }
    return { ranges: interleave(n, out.starts, out.ends, out.asns, out.orgIds), overlaps: this.#overlaps }
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k)
}

function interleave(count: number, starts: Uint32Array, ends: Uint32Array, asns: Uint32Array, orgIds: Uint32Array): Ipv4Ranges {
  const rows = new Uint32Array(count * STRIDE)
  for (let i = 0, j = 0; i < count; i++, j += STRIDE) {
    rows[j] = starts[i] as number
    rows[j + 1] = ends[i] as number
    rows[j + 2] = asns[i] as number
    rows[j + 3] = orgIds[i] as number
  }
  return { count, rows, bucket: buildBucketIndex(starts, count) }
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
  const rows = r.rows
  if (hi < lo || (rows[lo * STRIDE] as number) > ip) return -1
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if ((rows[mid * STRIDE] as number) <= ip) lo = mid
    else hi = mid - 1
  }
  return (rows[lo * STRIDE + 1] as number) >= ip ? lo : -1
}
