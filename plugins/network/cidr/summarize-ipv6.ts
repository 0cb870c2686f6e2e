import { ipv6Groups } from '../../../runtime/ip/format.ts'
import { scanIpv6 } from '../../../runtime/ip/parse-ipv6.ts'
import { rangeToCidrs } from '../../../runtime/ip/range-to-cidrs.ts'
import { byteWorkspace } from './workspace.ts'

/**
 * The IPv6 half of summarize. Same independent-sort union as the IPv4 half (see
 * summarize-ipv4.ts), on 128-bit values held as four uint32 words in typed arrays
 * rather than as bigints: the bigint version spent most of its time allocating and
 * collecting bigints (measured ~5-9 us per entry, over half of it GC), this one
 * allocates per output block only. Bigints remain for the rare merged range that
 * is not a single block. Output text is written as bytes and split once, as in the
 * IPv4 half.
 */
export class Ipv6Ranges {
  /** Four words per range, most significant first. */
  starts: Uint32Array
  ends: Uint32Array
  count = 0

  constructor(capacity = 64) {
    this.starts = new Uint32Array(capacity * 4)
    this.ends = new Uint32Array(capacity * 4)
  }

  /** Adds the block of eight groups / prefix; returns whether host bits were set. */
  addGroups(g: Uint16Array, prefix: number): boolean {
    const at = this.reserve()
    let hostBitsSet = false
    for (let k = 0; k < 4; k++) {
      const word = (g[2 * k] as number) * 65536 + (g[2 * k + 1] as number)
      const mask = WORD_MASK[clampWordPrefix(prefix - 32 * k)] as number
      const start = (word & mask) >>> 0
      if (start !== word) hostBitsSet = true
      this.starts[at + k] = start
      this.ends[at + k] = (start | ~mask) >>> 0
    }
    return hostBitsSet
  }

  addBigint(network: bigint, prefix: number): void {
    GROUPS.set(ipv6Groups(network))
    this.addGroups(GROUPS, prefix)
  }

  private reserve(): number {
    if ((this.count + 1) * 4 > this.starts.length) {
      const bigger = new Uint32Array(this.starts.length * 2)
      bigger.set(this.starts)
      this.starts = bigger
      const biggerEnds = new Uint32Array(this.ends.length * 2)
      biggerEnds.set(this.ends)
      this.ends = biggerEnds
    }
    return 4 * this.count++
  }
}

const GROUPS = new Uint16Array(8)

/** Netmask of one 32-bit word holding `len` (0-32) prefix bits. */
const WORD_MASK = new Float64Array(33)
for (let len = 0; len <= 32; len++) WORD_MASK[len] = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0

function clampWordPrefix(len: number): number {
  return len < 0 ? 0 : len > 32 ? 32 : len
}

/**
 * Fast path for `addr/len` (or bare) IPv6 entries: no brackets, zone or
 * whitespace handling and no reason text. Returns -1 to send the entry to
 * parseCidr (which decides and explains), else 1 if host bits were set, 0 if not.
 */
export function scanIpv6Block(s: string, into: Ipv6Ranges): number {
  const slash = s.indexOf('/')
  let prefix = 128
  let addrEnd = s.length
  if (slash >= 0) {
    const digits = s.length - slash - 1
    if (digits < 1 || digits > 3) return -1
    prefix = 0
    for (let i = slash + 1; i < s.length; i++) {
      const d = s.charCodeAt(i) - 48
      if (d < 0 || d > 9 || (d === 0 && i === slash + 1 && digits > 1)) return -1
      prefix = prefix * 10 + d
    }
    if (prefix > 128) return -1
    addrEnd = slash
  }
  if (scanIpv6(s, 0, addrEnd, GROUPS) !== null) return -1
  return into.addGroups(GROUPS, prefix) ? 1 : 0
}

export interface Ipv6Summary {
  cidrs: string[]
  /** Addresses covered, exact. */
  addresses: bigint
}

export function summarizeIpv6(ranges: Ipv6Ranges): Ipv6Summary {
  const n = ranges.count
  if (n === 0) return { cidrs: [], addresses: 0n }
  const { starts, ends } = ranges
  const ps = sortIndex(starts, n)
  const pe = sortIndex(ends, n)
  const text = new CidrText(n)
  let lo = ps[0] as number
  for (let i = 0; i < n; i++) {
    const e = pe[i] as number
    const next = i + 1 < n ? (ps[i + 1] as number) : -1
    if (next < 0 || startsAfterEndPlusOne(starts, next, ends, e)) {
      emit(starts, lo, ends, e, text)
      if (next >= 0) lo = next
    }
  }
  let addresses = 0n
  for (let p = 0; p <= 128; p++) {
    const c = text.perPrefix[p] as number
    if (c > 0) addresses += BigInt(c) << BigInt(128 - p)
  }
  return { cidrs: text.lines(), addresses }
}

const HEX_DIGITS = new Uint8Array([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102])
/** Longest "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128\n". */
const MAX_LINE = 44

/** Newline-separated CIDR text in one byte buffer, and a count per prefix length. */
class CidrText {
  buf: Buffer
  pos = 0
  perPrefix = new Float64Array(129)

  constructor(expected: number) {
    this.buf = byteWorkspace(Math.max(1024, expected * MAX_LINE))
  }

  /** RFC 5952 text of eight groups, then "/len" and a newline. */
  block(g: Uint16Array, len: number): void {
    if (this.pos + MAX_LINE > this.buf.length) this.grow()
    const buf = this.buf
    let p = this.pos
    let bestStart = -1
    let bestLen = 1
    for (let i = 0; i < 8; ) {
      if (g[i] !== 0) {
        i++
        continue
      }
      let j = i
      while (j < 8 && g[j] === 0) j++
      if (j - i > bestLen) {
        bestStart = i
        bestLen = j - i
      }
      i = j
    }
    for (let i = 0; i < 8; i++) {
      if (i === bestStart) {
        if (i === 0) buf[p++] = 58
        buf[p++] = 58
        i += bestLen - 1
        continue
      }
      const x = g[i] as number
      if (x >= 0x1000) buf[p++] = HEX_DIGITS[x >>> 12] as number
      if (x >= 0x100) buf[p++] = HEX_DIGITS[(x >>> 8) & 15] as number
      if (x >= 0x10) buf[p++] = HEX_DIGITS[(x >>> 4) & 15] as number
      buf[p++] = HEX_DIGITS[x & 15] as number
      if (i < 7) buf[p++] = 58
    }
    buf[p++] = 47
    if (len >= 100) buf[p++] = 48 + Math.floor(len / 100)
    if (len >= 10) buf[p++] = 48 + (Math.floor(len / 10) % 10)
    buf[p++] = 48 + (len % 10)
    buf[p++] = 10
    this.pos = p
    this.perPrefix[len] = (this.perPrefix[len] as number) + 1
  }

  lines(): string[] {
    return this.pos === 0 ? [] : this.buf.toString('latin1', 0, this.pos - 1).split('\n')
  }

  private grow(): void {
    const bigger = byteWorkspace(this.buf.length * 2)
    this.buf.copy(bigger, 0, 0, this.pos)
    this.buf = bigger
  }
}

/** starts[s] > ends[e] + 1 (false when ends[e] is the last address). */
function startsAfterEndPlusOne(starts: Uint32Array, s: number, ends: Uint32Array, e: number): boolean {
  const b = 4 * e
  let x3 = (ends[b + 3] as number) + 1
  let x2 = ends[b + 2] as number
  let x1 = ends[b + 1] as number
  let x0 = ends[b] as number
  if (x3 === 4294967296) {
    x3 = 0
    if (++x2 === 4294967296) {
      x2 = 0
      if (++x1 === 4294967296) {
        x1 = 0
        if (++x0 === 4294967296) return false
      }
    }
  }
  const a = 4 * s
  const s0 = starts[a] as number
  if (s0 !== x0) return s0 > x0
  const s1 = starts[a + 1] as number
  if (s1 !== x1) return s1 > x1
  const s2 = starts[a + 2] as number
  if (s2 !== x2) return s2 > x2
  return (starts[a + 3] as number) > x3
}

const LO = new Float64Array(4)
const HI = new Float64Array(4)
const OUT_GROUPS = new Uint16Array(8)

/** Writes [starts[s], ends[e]] as CIDR text: one block in the common case. */
function emit(starts: Uint32Array, s: number, ends: Uint32Array, e: number, text: CidrText): void {
  for (let k = 0; k < 4; k++) {
    LO[k] = starts[4 * s + k] as number
    HI[k] = ends[4 * e + k] as number
  }
  // Length of the common prefix of lo and hi.
  let len = 128
  for (let k = 0; k < 4; k++) {
    const diff = ((LO[k] as number) ^ (HI[k] as number)) >>> 0
    if (diff !== 0) {
      len = 32 * k + Math.clz32(diff)
      break
    }
  }
  // One block iff below that prefix lo is all zeros and hi all ones.
  let single = true
  for (let k = 0; k < 4 && single; k++) {
    const host = ~(WORD_MASK[clampWordPrefix(len - 32 * k)] as number) >>> 0
    if (((LO[k] as number) & host) >>> 0 !== 0 || ((HI[k] as number) & host) >>> 0 !== host) single = false
  }
  if (single) {
    for (let k = 0; k < 4; k++) {
      const w = LO[k] as number
      OUT_GROUPS[2 * k] = w >>> 16
      OUT_GROUPS[2 * k + 1] = w & 0xffff
    }
    text.block(OUT_GROUPS, len)
    return
  }
  for (const block of rangeToCidrs(6, wordsToBigint(LO), wordsToBigint(HI))) {
    OUT_GROUPS.set(ipv6Groups(block.network))
    text.block(OUT_GROUPS, block.prefixLength)
  }
}

function wordsToBigint(w: Float64Array): bigint {
  return (
    (BigInt(w[0] as number) << 96n) | (BigInt(w[1] as number) << 64n) | (BigInt(w[2] as number) << 32n) | BigInt(w[3] as number)
  )
}

/**
 * Indices 0..n-1 ordered by the 128-bit values at words[4i..4i+3]: LSD radix over
 * eight 16-bit digits, skipping digits on which all values agree (aligned starts
 * share their zero low digits, ends their 0xffff ones). Small inputs use a
 * comparison sort, where 65536 counters per pass would cost more than they save.
 */
export function sortIndex(words: Uint32Array, n: number): Uint32Array {
  let perm = new Uint32Array(n)
  for (let i = 0; i < n; i++) perm[i] = i
  if (n < 2048) {
    const order = Array.from(perm).sort((a, b) => compareWords(words, a, b))
    perm.set(order)
    return perm
  }
  let next = new Uint32Array(n)
  const count = new Uint32Array(65536)
  for (let digit = 0; digit < 8; digit++) {
    const w = 3 - (digit >> 1)
    const shift = (digit & 1) * 16
    count.fill(0)
    // The histogram does not depend on order: read the words sequentially.
    for (let i = 0; i < n; i++) {
      const d = ((words[4 * i + w] as number) >>> shift) & 0xffff
      count[d] = (count[d] as number) + 1
    }
    if (count[((words[w] as number) >>> shift) & 0xffff] === n) continue
    let sum = 0
    for (let d = 0; d < 65536; d++) {
      const c = count[d] as number
      count[d] = sum
      sum += c
    }
    for (let i = 0; i < n; i++) {
      const idx = perm[i] as number
      const d = ((words[4 * idx + w] as number) >>> shift) & 0xffff
      const at = count[d] as number
      count[d] = at + 1
      next[at] = idx
    }
    const t = perm
    perm = next
    next = t
  }
  return perm
}

function compareWords(words: Uint32Array, a: number, b: number): number {
  for (let k = 0; k < 4; k++) {
    const x = words[4 * a + k] as number
    const y = words[4 * b + k] as number
    if (x !== y) return x - y
  }
  return 0
}
