import { scanIpv4 } from '../../runtime/ip/parse-ipv4.ts'
import type { JsonBytes } from '../../runtime/json-bytes.ts'

// A bulk list (POST /api/ip/bulk) answered in two orders: the plain dotted quads
// (most of any list) are looked up in address order, the answers written in the
// list's order. Each lookup walks three large tables (the country tree, the ASN
// rows, the VRP index): for addresses in a random order nearly every deep step is
// a cache miss, while in address order neighbours share most of their path and
// the rest sits in lines just read. Measured on 89,895 random IPv4 addresses
// (bench/RESULTS-network.md, "ip/bulk in address order"): 140 ms with RPKI in the
// list's order, 77 ms sorted. The answers go through columns (typed arrays, one
// slot per entry), so the list's order costs a pass over them, not a lookup.

/** One slot per entry: what a dotted quad's answer is written from. */
export class Ipv4Columns {
  /** Id of the country/class/bogon piece (the lookup's own numbering). */
  readonly tail: Uint32Array
  /** The ASN table's row, -1 when unrouted. */
  readonly row: Int32Array
  /** Prefix length of the block holding the address. */
  readonly length: Uint8Array
  /** RPKI state code (the lookup's own numbering; 0: no VRP set). */
  readonly state: Uint8Array

  constructor(size: number) {
    this.tail = new Uint32Array(size)
    this.row = new Int32Array(size)
    this.length = new Uint8Array(size)
    this.state = new Uint8Array(size)
  }

  /** Slot `to` says what slot `from` says (the same address twice). */
  copy(from: number, to: number): void {
    this.tail[to] = this.tail[from] as number
    this.row[to] = this.row[from] as number
    this.length[to] = this.length[from] as number
    this.state[to] = this.state[from] as number
  }
}

/** What the lookup (bulk-lookup.ts) does for the batch; `Judge` is its RPKI judge, passed through. */
export interface Ipv4Answers<Judge> {
  /** Looks up the dotted quad `value` into slot `at`; `judge` adds the RPKI state. */
  resolve(value: number, judge: Judge, columns: Ipv4Columns, at: number): void
  /** Writes the answer for `value` from slot `at`. */
  write(value: number, columns: Ipv4Columns, at: number, out: JsonBytes): void
  /** Any other entry (IPv6, IPv4 inside IPv6, a bad one), written whole; whether it was an address. */
  other(entry: unknown, judge: Judge, out: JsonBytes): boolean
}

/** An entry's kind: a plain dotted quad (looked up in address order); 0 is anything else (written by Ipv4Answers.other). */
const DOTTED_QUAD = 1

export interface BulkBatch {
  /**
   * The work, a step at a time: each step is at most about `slice` entries' worth
   * (the caller gives the event loop a turn between steps). The answers go into
   * `out` in the list's order with the byte `between` between two (a comma for a
   * JSON array's elements, a newline for NDJSON lines), none before the first or
   * after the last.
   */
  steps(slice: number, out: JsonBytes, between?: number): Generator<void, void, void>
  /** Entries that were addresses (after the steps are done). */
  readonly valid: number
}

export function defineBulkBatch<Judge>(answers: Ipv4Answers<Judge>, entries: readonly unknown[], judge: Judge): BulkBatch {
  const size = entries.length
  const kind = new Uint8Array(size)
  const values = new Uint32Array(size)
  let valid = 0

  /** Marks the dotted quads among entries [from, to) and keeps their values; returns how many. */
  const scan = (from: number, to: number): number => {
    let quads = 0
    for (let i = from; i < to; i++) {
      const entry = entries[i]
      if (typeof entry !== 'string') continue
      // As /api/ip/{ip} reads its parameter: surrounding whitespace does not count.
      const text = entry.trim()
      const value = scanIpv4(text, 0, text.length)
      if (value < 0) continue
      kind[i] = DOTTED_QUAD
      values[i] = value
      quads++
    }
    return quads
  }

  function* steps(slice: number, out: JsonBytes, between = 0x2c): Generator<void, void, void> {
    let quads = 0
    for (let from = 0; from < size; from += slice) {
      if (from > 0) yield
      quads += scan(from, Math.min(size, from + slice))
    }
    const order = addressOrder(kind, values, quads)
    const columns = new Ipv4Columns(size)
    for (let from = 0; from < quads; from += slice) {
      yield
      const to = Math.min(quads, from + slice)
      // The same address again (lists repeat): the slot before it already says it.
      let previous = from > 0 ? (order[from - 1] as number) : -1
      for (let rank = from; rank < to; rank++) {
        const at = order[rank] as number
        if (previous >= 0 && values[previous] === values[at]) columns.copy(previous, at)
        else answers.resolve(values[at] as number, judge, columns, at)
        previous = at
      }
    }
    for (let from = 0; from < size; from += slice) {
      yield
      const to = Math.min(size, from + slice)
      for (let i = from; i < to; i++) {
        if (i > 0) out.byte(between)
        if (kind[i] === DOTTED_QUAD) {
          answers.write(values[i] as number, columns, i, out)
          valid++
        } else if (answers.other(entries[i], judge, out)) valid++
      }
    }
  }

  return {
    steps,
    get valid() {
      return valid
    },
  }
}

const low = new Uint32Array(65537)
const high = new Uint32Array(65537)

/**
 * The indexes of the dotted quads (kind DOTTED_QUAD), ordered by value: two
 * stable counting-sort passes on the 16-bit halves (an LSD radix sort; 2-3 ms
 * for 100k random values, against ~10 ms for Float64Array#sort of value and
 * index packed in one number, measured side by side). Hand-written: the sort
 * libraries on npm sort values, not an index by a key column;
 * test/network/bulk-batch.test.ts holds it to Array#sort.
 */
export function addressOrder(kind: Uint8Array, values: Uint32Array, quads: number): Uint32Array {
  low.fill(0)
  high.fill(0)
  const first = new Uint32Array(quads)
  let n = 0
  for (let i = 0; i < kind.length; i++) {
    if (kind[i] !== DOTTED_QUAD) continue
    const value = values[i] as number
    low[(value & 0xffff) + 1] = (low[(value & 0xffff) + 1] as number) + 1
    high[(value >>> 16) + 1] = (high[(value >>> 16) + 1] as number) + 1
    first[n++] = i
  }
  for (let d = 1; d <= 65536; d++) {
    low[d] = (low[d] as number) + (low[d - 1] as number)
    high[d] = (high[d] as number) + (high[d - 1] as number)
  }
  const second = new Uint32Array(quads)
  for (let k = 0; k < quads; k++) {
    const i = first[k] as number
    const digit = (values[i] as number) & 0xffff
    const at = low[digit] as number
    low[digit] = at + 1
    second[at] = i
  }
  for (let k = 0; k < quads; k++) {
    const i = second[k] as number
    const digit = (values[i] as number) >>> 16
    const at = high[digit] as number
    high[digit] = at + 1
    first[at] = i
  }
  return first
}
