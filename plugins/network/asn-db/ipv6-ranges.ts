import { org, scanOrgField, skipLine } from './csv-scan.ts'
import { BIGINT_KEYS, flattenRanges, rangeOrder } from './flatten-ranges.ts'
import type { OrgTable } from './org-table.ts'

/**
 * IPv6 ranges sorted by start. Each 128-bit key is four uint32 words, most
 * significant first, at [4i, 4i+4) of `starts`/`ends`: comparisons stay on small
 * integers (no bigint per row at load or per probe at lookup).
 */
export interface Ipv6Ranges {
  count: number
  starts: Uint32Array
  ends: Uint32Array
  asns: Uint32Array
  orgIds: Uint32Array
}

const TWO32 = 4294967296
/** Six decimal digits at a time keep word * 10^6 + carry below 2^53 (exact in a double). */
const CHUNK = 1_000_000

/** Parses `start,end,asn,org` rows with decimal 128-bit starts and ends. */
export class Ipv6RangeParser {
  #starts: Uint32Array
  #ends: Uint32Array
  #asns: Uint32Array
  #orgIds: Uint32Array
  #count = 0
  skipped = 0
  #overlaps = 0
  /** Row with the largest end so far: a start at or below it overlaps. */
  #widest = -1
  readonly #orgs: OrgTable
  readonly #words = new Uint32Array(4)

  constructor(capacity: number, orgs: OrgTable) {
    this.#starts = new Uint32Array(capacity * 4)
    this.#ends = new Uint32Array(capacity * 4)
    this.#asns = new Uint32Array(capacity)
    this.#orgIds = new Uint32Array(capacity)
    this.#orgs = orgs
  }

  feed(buf: Uint8Array, from: number, to: number): void {
    const w = this.#words
    let p = from
    while (p < to) {
      const lineStart = p
      if (this.#count === this.#asns.length) this.#grow()
      const n = this.#count
      let q = readDecimal128(buf, p, w)
      let ok = q > p && buf[q] === 44
      if (ok) {
        this.#starts.set(w, n * 4)
        p = q + 1
        q = readDecimal128(buf, p, w)
        ok = q > p && buf[q] === 44
      }
      let asn = 0
      if (ok) {
        this.#ends.set(w, n * 4)
        p = q + 1
        const at = p
        let c = buf[p] as number
        while (c >= 48 && c <= 57) {
          asn = asn * 10 + (c - 48)
          c = buf[++p] as number
        }
        ok = c === 44 && p > at && asn <= 0xffffffff && compareAt(this.#starts, n, this.#ends, n) <= 0
      } else {
        p = q
      }
      if (!ok) {
        const first = buf[lineStart]
        if (first !== 10 && first !== 13) this.skipped++
        p = skipLine(buf, p, to)
        continue
      }
      p = scanOrgField(buf, p + 1, to)
      const widest = this.#widest
      if (widest < 0 || compareAt(this.#ends, n, this.#ends, widest) > 0) this.#widest = n
      if (widest >= 0 && compareAt(this.#starts, n, this.#ends, widest) <= 0) this.#overlaps++
      else if (n > 0 && compareAt(this.#starts, n, this.#starts, n - 1) < 0) this.#overlaps++
      this.#asns[n] = asn
      this.#orgIds[n] = this.#orgs.intern(asn, buf, org.from, org.to, org.hash, org.quoted)
      this.#count = n + 1
    }
  }

  #grow(): void {
    const rows = Math.max(1024, this.#asns.length * 2)
    const grow = (a: Uint32Array, size: number) => {
      const b = new Uint32Array(size)
      b.set(a)
      return b
    }
    this.#starts = grow(this.#starts, rows * 4)
    this.#ends = grow(this.#ends, rows * 4)
    this.#asns = grow(this.#asns, rows)
    this.#orgIds = grow(this.#orgIds, rows)
  }

  finish(): { ranges: Ipv6Ranges; overlaps: number } {
    const count = this.#count
    if (this.#overlaps === 0) {
      return {
        ranges: {
          count,
          starts: this.#starts.slice(0, count * 4),
          ends: this.#ends.slice(0, count * 4),
          asns: this.#asns.slice(0, count),
          orgIds: this.#orgIds.slice(0, count),
        },
        overlaps: 0,
      }
    }
    // Rare (the packaged file has no overlap): bigints are fine here.
    const starts = Array.from({ length: count }, (_, i) => wordsToBigint(this.#starts, i))
    const ends = Array.from({ length: count }, (_, i) => wordsToBigint(this.#ends, i))
    const startOf = (i: number) => starts[i] as bigint
    const endOf = (i: number) => ends[i] as bigint
    const pieces: Array<[bigint, bigint, number]> = []
    flattenRanges(rangeOrder(count, startOf, endOf, BIGINT_KEYS), startOf, endOf, BIGINT_KEYS, (a, b, row) => pieces.push([a, b, row]))
    const out: Ipv6Ranges = {
      count: pieces.length,
      starts: new Uint32Array(pieces.length * 4),
      ends: new Uint32Array(pieces.length * 4),
      asns: new Uint32Array(pieces.length),
      orgIds: new Uint32Array(pieces.length),
    }
    pieces.forEach(([a, b, row], i) => {
      bigintToWords(a, out.starts, i)
      bigintToWords(b, out.ends, i)
      out.asns[i] = this.#asns[row] as number
      out.orgIds[i] = this.#orgIds[row] as number
    })
    return { ranges: out, overlaps: this.#overlaps }
  }
}

/**
 * Reads decimal digits at p into four uint32 words (most significant first);
 * returns the position after them, or p when there are none or the number needs
 * more than 128 bits.
 */
export function readDecimal128(buf: Uint8Array, p: number, w: Uint32Array): number {
  let w0 = 0
  let w1 = 0
  let w2 = 0
  let w3 = 0
  let chunk = 0
  let scale = 1
  const from = p
  for (;;) {
    const c = buf[p] as number
    const digit = c >= 48 && c <= 57
    if (digit) {
      chunk = chunk * 10 + (c - 48)
      scale *= 10
      p++
    }
    if (scale === CHUNK || (!digit && scale > 1)) {
      // (w0..w3) = (w0..w3) * scale + chunk
      let x = w3 * scale + chunk
      let carry = Math.floor(x / TWO32)
      w3 = x - carry * TWO32
      x = w2 * scale + carry
      carry = Math.floor(x / TWO32)
      w2 = x - carry * TWO32
      x = w1 * scale + carry
      carry = Math.floor(x / TWO32)
      w1 = x - carry * TWO32
      x = w0 * scale + carry
      carry = Math.floor(x / TWO32)
      w0 = x - carry * TWO32
      if (carry !== 0) return from
      chunk = 0
      scale = 1
    }
    if (!digit) break
  }
  w[0] = w0
  w[1] = w1
  w[2] = w2
  w[3] = w3
  return p
}

/** Sign of key a[4i..] - key b[4j..]. */
function compareAt(a: Uint32Array, i: number, b: Uint32Array, j: number): number {
  const x = i * 4
  const y = j * 4
  for (let k = 0; k < 4; k++) {
    const d = (a[x + k] as number) - (b[y + k] as number)
    if (d !== 0) return d
  }
  return 0
}

/** Row whose range contains the address (w0 most significant), or -1. */
export function findIpv6(r: Ipv6Ranges, w0: number, w1: number, w2: number, w3: number): number {
  const s = r.starts
  let lo = 0
  let hi = r.count - 1
  if (hi < 0 || lessThanAt(w0, w1, w2, w3, s, 0)) return -1
  // Last row whose start <= the address.
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (lessThanAt(w0, w1, w2, w3, s, mid)) hi = mid - 1
    else lo = mid
  }
  return lessThanAt(w0, w1, w2, w3, r.ends, lo) || equalAt(w0, w1, w2, w3, r.ends, lo) ? lo : -1
}

/** address < key i of a */
function lessThanAt(w0: number, w1: number, w2: number, w3: number, a: Uint32Array, i: number): boolean {
  const x = i * 4
  const k0 = a[x] as number
  if (w0 !== k0) return w0 < k0
  const k1 = a[x + 1] as number
  if (w1 !== k1) return w1 < k1
  const k2 = a[x + 2] as number
  if (w2 !== k2) return w2 < k2
  return w3 < (a[x + 3] as number)
}

function equalAt(w0: number, w1: number, w2: number, w3: number, a: Uint32Array, i: number): boolean {
  const x = i * 4
  return a[x] === w0 && a[x + 1] === w1 && a[x + 2] === w2 && a[x + 3] === w3
}

export function wordsToBigint(a: Uint32Array, i: number): bigint {
  const x = i * 4
  return (BigInt(a[x] as number) << 96n) | (BigInt(a[x + 1] as number) << 64n) | (BigInt(a[x + 2] as number) << 32n) | BigInt(a[x + 3] as number)
}

export function bigintToWords(v: bigint, a: Uint32Array, i: number): void {
  const x = i * 4
  a[x] = Number((v >> 96n) & 0xffffffffn)
  a[x + 1] = Number((v >> 64n) & 0xffffffffn)
  a[x + 2] = Number((v >> 32n) & 0xffffffffn)
  a[x + 3] = Number(v & 0xffffffffn)
}
