import { setImmediate as nextTurn } from 'node:timers/promises'
import type { VrpColumns } from './vrp-columns.ts'
import { VrpColumnsBuilder } from './vrp-columns.ts'
import { INVALID, scanPrefix } from './prefix-words.ts'

// A VRP export read straight from its bytes. JSON.parse of a 70 MB export builds
// millions of objects (about a second and a few hundred MB); this scanner walks
// the text once and writes each VRP into typed columns, skipping every member it
// does not need (Routinator's `source` arrays, ASPA, BGPsec keys).
//
// Accepted: a top-level object with a `roas` array of {asn, prefix, maxLength, ta}
// where asn is a number (rpki-client: 13335) or a string ("AS13335", Routinator
// and OctoRPKI), maxLength optional (RFC 6482: absent means the prefix length).
// `metadata` is kept for its build time. Entries that are not valid VRPs are
// counted and a few quoted; they never reach the index.
//
// Expiry, kept per VRP so the store can drop VRPs whose objects have expired:
// rpki-client's `expires` (seconds since the epoch: the earliest notAfter /
// nextUpdate of the certificates, CRLs and manifests the VRP rests on), or in
// Routinator's jsonext the `source` array, one entry per ROA publishing the VRP,
// each with `validity.notAfter`, `chainValidity.notAfter` and `stale`: an entry
// lasts until the earliest of its times, the VRP as long as its longest-lasting
// entry. Formats without either (Routinator's plain json) never expire here.
//
// The scan is resumable (`step`): the store runs it a slice at a time and yields
// to the event loop between slices, so loading a big export does not stall the
// requests being answered meanwhile.

export interface VrpMetadata {
  /** When the export was generated (rpki-client buildtime, Routinator generatedTime), ISO 8601. */
  generatedAt: string | null
  /** rpki-client's buildmachine, where given. */
  builtBy: string | null
}

export interface ParsedVrps {
  v4: VrpColumns
  v6: VrpColumns
  /** Trust-anchor names; index 0 is "not given". */
  tas: string[]
  metadata: VrpMetadata
  /** Entries that were not valid VRPs. */
  rejected: number
  /** Up to 5 of them, as text. */
  rejectedSamples: string[]
  /** How the ASNs were written: numbers (rpki-client), "AS…" strings (Routinator), or both. */
  asnStyle: 'number' | 'string' | 'mixed' | 'none'
}

export class VrpFormatError extends Error {
  override name = 'VrpFormatError'
}

const enum C {
  Quote = 34,
  Comma = 44,
  Minus = 45,
  Colon = 58,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  OpenBrace = 123,
  CloseBrace = 125,
}

const KEY_ASN = [97, 115, 110]
const KEY_PREFIX = [112, 114, 101, 102, 105, 120]
const KEY_MAXLENGTH = [109, 97, 120, 76, 101, 110, 103, 116, 104]
const KEY_TA = [116, 97]
const KEY_ROAS = [114, 111, 97, 115]
const KEY_METADATA = [109, 101, 116, 97, 100, 97, 116, 97]
const KEY_EXPIRES = [101, 120, 112, 105, 114, 101, 115]
const KEY_SOURCE = [115, 111, 117, 114, 99, 101]
const KEY_NOT_AFTER = [110, 111, 116, 65, 102, 116, 101, 114]
const KEY_STALE = [115, 116, 97, 108, 101]

/** Seconds since the epoch as stored in the expiry column: 0 means "not given", so a real 0 becomes 1. */
const expirySeconds = (s: number): number => (s < 1 ? 1 : s > 0xffffffff ? 0xffffffff : Math.floor(s))

type Phase = 'start' | 'top' | 'roas' | 'done'

export class VrpJsonScanner {
  private pos = 0
  private phase: Phase = 'start'
  private sawRoas = false
  private readonly v4: VrpColumnsBuilder
  private readonly v6: VrpColumnsBuilder
  private readonly tas: string[] = ['']
  private readonly taIndex = new Map<string, number>()
  private readonly words = new Uint32Array(4)
  private metadata: VrpMetadata = { generatedAt: null, builtBy: null }
  private rejected = 0
  private readonly rejectedSamples: string[] = []
  private numberAsns = 0
  private stringAsns = 0
  // Per-entry fields, reset for each VRP.
  private asn = -1
  private prefixCode = INVALID
  private prefixStart = -1
  private prefixEnd = -1
  private maxLength = -1
  private ta = 0
  private expires = 0
  private bad = false
  // The last member name read (byte range), without allocating.
  private ks = 0
  private ke = 0
  // The last trust-anchor name, to skip decoding the same bytes again.
  private lastTaStart = -1
  private lastTaEnd = -1
  private lastTa = 0

  private readonly text: Buffer

  constructor(private readonly b: Uint8Array) {
    this.text = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.length)
    // Roughly 85% of VRPs are IPv4; an entry is at least ~45 bytes of JSON.
    const estimate = Math.max(1024, Math.floor(b.length / 60))
    this.v4 = new VrpColumnsBuilder(4, estimate)
    this.v6 = new VrpColumnsBuilder(6, Math.max(256, estimate >> 3))
  }

  /** Reads up to `budget` VRP entries; true when the whole document has been read. */
  step(budget: number): boolean {
    if (this.phase === 'start') {
      this.ws()
      if (this.b[this.pos] === 0xef && this.b[this.pos + 1] === 0xbb && this.b[this.pos + 2] === 0xbf) this.pos += 3
      this.ws()
      if (this.b[this.pos] !== C.OpenBrace) throw this.error('a VRP export is a JSON object with a "roas" array')
      this.pos++
      this.phase = 'top'
      this.ws()
      if (this.b[this.pos] === C.CloseBrace) return this.end()
    }
    while (this.phase !== 'done') {
      if (this.phase === 'roas') {
        if (!this.entries(budget)) return false
        this.phase = 'top'
        if (!this.afterMember()) return this.end()
        continue
      }
      // top: one member of the top-level object
      this.key()
      const ks = this.ks
      const ke = this.ke
      if (this.keyIs(ks, ke, KEY_ROAS)) {
        this.ws()
        if (this.b[this.pos] !== C.OpenBracket) throw this.error('"roas" must be an array')
        this.pos++
        this.sawRoas = true
        this.phase = 'roas'
        this.ws()
        if (this.b[this.pos] === C.CloseBracket) {
          this.pos++
          this.phase = 'top'
          if (!this.afterMember()) return this.end()
        }
        continue
      }
      const vs = this.pos
      this.skipValue()
      if (this.keyIs(ks, ke, KEY_METADATA)) this.readMetadata(vs, this.pos)
      if (!this.afterMember()) return this.end()
    }
    return true
  }

  result(): ParsedVrps {
    if (this.phase !== 'done') throw new Error('the VRP export has not been read to its end yet')
    return {
      v4: this.v4.finish(),
      v6: this.v6.finish(),
      tas: this.tas,
      metadata: this.metadata,
      rejected: this.rejected,
      rejectedSamples: this.rejectedSamples,
      asnStyle: this.numberAsns && this.stringAsns ? 'mixed' : this.numberAsns ? 'number' : this.stringAsns ? 'string' : 'none',
    }
  }

  private end(): boolean {
    this.ws()
    if (this.pos !== this.b.length) throw this.error('unexpected data after the top-level object')
    if (!this.sawRoas) throw new VrpFormatError('the document has no "roas" array; expected rpki-client or Routinator JSON')
    this.phase = 'done'
    return true
  }

  /** After a top-level member: true if another follows, false at the closing brace. */
  private afterMember(): boolean {
    this.ws()
    const c = this.b[this.pos]
    if (c === C.Comma) {
      this.pos++
      return true
    }
    if (c === C.CloseBrace) {
      this.pos++
      return false
    }
    throw this.error('expected "," or "}" in the top-level object')
  }

  /** Reads VRP objects of the roas array; true when its closing bracket was read. */
  private entries(budget: number): boolean {
    const b = this.b
    for (let done = 0; done < budget; done++) {
      this.ws()
      this.entry()
      this.ws()
      const c = b[this.pos]
      if (c === C.Comma) {
        this.pos++
        continue
      }
      if (c === C.CloseBracket) {
        this.pos++
        return true
      }
      throw this.error('expected "," or "]" after a VRP')
    }
    return false
  }

  private entry(): void {
    const b = this.b
    const at = this.pos
    if (b[this.pos] !== C.OpenBrace) {
      // Not an object: not a VRP, but the array goes on.
      this.skipValue()
      this.reject(`entry at byte ${at} is not an object`)
      return
    }
    this.pos++
    this.asn = -1
    this.prefixCode = INVALID
    this.prefixStart = -1
    this.maxLength = -1
    this.ta = 0
    this.expires = 0
    this.bad = false
    this.ws()
    if (b[this.pos] === C.CloseBrace) {
      this.pos++
    } else {
      for (;;) {
        this.key()
        this.ws()
        // Dispatch on length and first byte; compare the rest only on a candidate.
        const ks = this.ks
        const kl = this.ke - ks
        const k0 = b[ks]
        if (kl === 3 && k0 === 97 && this.keyIs(ks, this.ke, KEY_ASN)) this.readAsn()
        else if (kl === 6 && k0 === 112 && this.keyIs(ks, this.ke, KEY_PREFIX)) this.readPrefix()
        else if (kl === 9 && k0 === 109 && this.keyIs(ks, this.ke, KEY_MAXLENGTH)) this.maxLength = this.readUint(255)
        else if (kl === 2 && k0 === 116 && this.keyIs(ks, this.ke, KEY_TA)) this.readTa()
        else if (kl === 7 && k0 === 101 && this.keyIs(ks, this.ke, KEY_EXPIRES)) this.readExpires()
        else if (kl === 6 && k0 === 115 && this.keyIs(ks, this.ke, KEY_SOURCE)) this.readSources()
        else this.skipValue()
        this.ws()
        const c = b[this.pos]
        if (c === C.Comma) {
          this.pos++
          continue
        }
        if (c === C.CloseBrace) {
          this.pos++
          break
        }
        throw this.error('expected "," or "}" in a VRP')
      }
    }
    this.store(at)
  }

  private store(at: number): void {
    const code = this.prefixCode
    if (this.bad || code === INVALID || this.asn < 0) {
      this.reject(this.prefixText(at))
      return
    }
    const family = code >> 8
    const len = code & 255
    const maxLen = this.maxLength < 0 ? len : this.maxLength
    if (maxLen < len || maxLen > (family === 4 ? 32 : 128)) {
      this.reject(`${this.prefixText(at)} maxLength ${maxLen}`)
      return
    }
    ;(family === 4 ? this.v4 : this.v6).add(this.words, 0, len, maxLen, this.asn, this.ta, this.expires)
  }

  /** The entry's prefix as written, for rejection samples only. */
  private prefixText(at: number): string {
    return this.prefixStart < 0 ? `entry at byte ${at}` : this.text.toString('utf8', this.prefixStart, this.prefixEnd)
  }

  /**
   * The prefix value, parsed into words. IPv4 (most of any export) is read from
   * the bytes without making a string; IPv6 goes through the IP library's scanner.
   */
  private readPrefix(): void {
    const b = this.b
    if (b[this.pos] !== C.Quote) {
      this.skipValue()
      this.bad = true
      return
    }
    const start = this.pos + 1
    let end = start
    let escaped = false
    let colon = false
    while (end < b.length && b[end] !== C.Quote) {
      const c = b[end]
      if (c === C.Backslash) {
        escaped = true
        end++
      } else if (c === C.Colon) colon = true
      end++
    }
    if (end >= b.length) throw this.error('unterminated string')
    this.pos = end + 1
    this.prefixStart = start
    this.prefixEnd = end
    if (!colon && !escaped) {
      this.prefixCode = scanIpv4PrefixBytes(b, start, end, this.words)
      return
    }
    const text = escaped ? this.readEscaped(start, end) : this.text.toString('latin1', start, end)
    this.prefixCode = scanPrefix(text, this.words, 'reject')
  }

  private readTa(): void {
    const b = this.b
    if (b[this.pos] !== C.Quote) {
      this.skipValue()
      return
    }
    const start = this.pos + 1
    let end = start
    let escaped = false
    while (end < b.length && b[end] !== C.Quote) {
      if (b[end] === C.Backslash) {
        escaped = true
        end++
      }
      end++
    }
    if (end >= b.length) throw this.error('unterminated string')
    this.pos = end + 1
    if (escaped) {
      this.ta = this.internTa(this.readEscaped(start, end))
      return
    }
    const len = end - start
    if (len === this.lastTaEnd - this.lastTaStart) {
      let same = true
      for (let i = 0; i < len && same; i++) same = b[start + i] === b[this.lastTaStart + i]
      if (same) {
        this.ta = this.lastTa
        return
      }
    }
    this.ta = this.internTa(this.text.toString('utf8', start, end))
    this.lastTaStart = start
    this.lastTaEnd = end
    this.lastTa = this.ta
  }

  private readEscaped(start: number, end: number): string {
    try {
      return JSON.parse(`"${this.text.toString('utf8', start, end)}"`) as string
    } catch {
      throw this.error('bad escape in a string')
    }
  }

  private reject(what: string): void {
    this.rejected++
    if (this.rejectedSamples.length < 5) this.rejectedSamples.push(what.slice(0, 120))
  }

  private readAsn(): void {
    const b = this.b
    if (b[this.pos] === C.Quote) {
      const s = this.readString()
      const m = s === null ? null : /^(?:AS)?(\d{1,10})$/i.exec(s)
      const n = m ? Number(m[1]) : -1
      if (n < 0 || n > 4_294_967_295) this.bad = true
      else {
        this.asn = n
        this.stringAsns++
      }
      return
    }
    const n = this.readUint(4_294_967_295)
    if (n >= 0) {
      this.asn = n
      this.numberAsns++
    }
  }

  /** rpki-client's `expires`: whole seconds since the epoch. An expiry that cannot be read makes the entry bad. */
  private readExpires(): void {
    const n = this.readUint(9_999_999_999)
    if (n >= 0) this.expires = expirySeconds(n)
  }

  /**
   * Routinator jsonext's `source` array: the VRP lasts as long as its
   * longest-lasting source, a source until the earliest time in it.
   */
  private readSources(): void {
    const b = this.b
    if (b[this.pos] !== C.OpenBracket) {
      this.skipValue()
      return
    }
    this.pos++
    let latest = 0
    let sources = 0
    this.ws()
    if (b[this.pos] === C.CloseBracket) {
      this.pos++
      return
    }
    for (;;) {
      this.ws()
      const earliest = this.earliestTime()
      sources++
      if (earliest > latest) latest = earliest
      this.ws()
      const c = b[this.pos]
      this.pos++
      if (c === C.CloseBracket) break
      if (c !== C.Comma) throw this.error('expected "," or "]" in a source array')
    }
    // A source without any time never expires, and neither does its VRP.
    if (sources > 0 && latest !== Infinity) this.expires = expirySeconds(latest)
  }

  /** The earliest `notAfter` or `stale` time (seconds) anywhere in one value; Infinity if it has none. */
  private earliestTime(): number {
    const b = this.b
    if (b[this.pos] !== C.OpenBrace) {
      this.skipValue()
      return Infinity
    }
    this.pos++
    let earliest = Infinity
    this.ws()
    if (b[this.pos] === C.CloseBrace) {
      this.pos++
      return earliest
    }
    for (;;) {
      this.key()
      this.ws()
      const ks = this.ks
      const ke = this.ke
      let t = Infinity
      if ((this.keyIs(ks, ke, KEY_NOT_AFTER) || this.keyIs(ks, ke, KEY_STALE)) && b[this.pos] === C.Quote) t = this.readTime()
      else if (b[this.pos] === C.OpenBrace) t = this.earliestTime()
      else this.skipValue()
      if (t < earliest) earliest = t
      this.ws()
      const c = b[this.pos]
      this.pos++
      if (c === C.CloseBrace) return earliest
      if (c !== C.Comma) throw this.error('expected "," or "}" in a source')
    }
  }

  /** A time string in seconds: "2025-03-15T14:17:31Z" read from the bytes, anything else by Date.parse; Infinity if unreadable. */
  private readTime(): number {
    const b = this.b
    const start = this.pos + 1
    let end = start
    while (end < b.length && b[end] !== C.Quote && b[end] !== C.Backslash) end++
    if (end - start === 20 && b[end] === C.Quote && b[start + 4] === 45 && b[start + 10] === 84 && b[start + 19] === 90) {
      const num = (at: number, digits: number) => {
        let n = 0
        for (let i = 0; i < digits; i++) {
          const d = (b[start + at + i] as number) - 48
          if (d < 0 || d > 9) return Number.NaN
          n = n * 10 + d
        }
        return n
      }
      const ms = Date.UTC(num(0, 4), num(5, 2) - 1, num(8, 2), num(11, 2), num(14, 2), num(17, 2))
      if (!Number.isNaN(ms)) {
        this.pos = end + 1
        return ms / 1000
      }
    }
    const s = this.readString()
    const ms = s === null ? Number.NaN : Date.parse(s)
    return Number.isNaN(ms) ? Infinity : ms / 1000
  }

  /** A plain non-negative integer up to `max`; anything else marks the entry bad and is skipped. */
  private readUint(max: number): number {
    const b = this.b
    const start = this.pos
    let n = 0
    while (this.pos < b.length) {
      const d = (b[this.pos] as number) - 48
      if (d < 0 || d > 9) break
      n = n * 10 + d
      this.pos++
    }
    const c = b[this.pos]
    if (this.pos === start || this.pos - start > 10 || n > max || c === 46 || c === 101 || c === 69) {
      this.pos = start
      this.skipValue()
      this.bad = true
      return -1
    }
    return n
  }

  /** A string value (escapes decoded); null, after skipping it, for any other value. */
  private readString(): string | null {
    const b = this.b
    if (b[this.pos] !== C.Quote) {
      this.skipValue()
      this.bad = true
      return null
    }
    const start = ++this.pos
    let escaped = false
    while (this.pos < b.length) {
      const c = b[this.pos]
      if (c === C.Quote) break
      if (c === C.Backslash) {
        escaped = true
        this.pos++
      }
      this.pos++
    }
    if (this.pos >= b.length) throw this.error('unterminated string')
    const end = this.pos++
    return escaped ? this.readEscaped(start, end) : this.text.toString('latin1', start, end)
  }

  private internTa(name: string | null): number {
    if (name === null) return 0
    const known = this.taIndex.get(name)
    if (known !== undefined) return known
    if (this.tas.length === 256) return 0 // more trust anchors than any real export: keep the VRP, drop the name
    this.tas.push(name)
    this.taIndex.set(name, this.tas.length - 1)
    return this.tas.length - 1
  }

  /** An object key: its byte range goes to ks/ke; leaves pos after the colon. */
  private key(): void {
    this.ws()
    const b = this.b
    if (b[this.pos] !== C.Quote) throw this.error('expected a member name')
    const start = ++this.pos
    while (this.pos < b.length && b[this.pos] !== C.Quote) {
      if (b[this.pos] === C.Backslash) this.pos++
      this.pos++
    }
    if (this.pos >= b.length) throw this.error('unterminated member name')
    const end = this.pos++
    this.ws()
    if (b[this.pos] !== C.Colon) throw this.error('expected ":" after a member name')
    this.pos++
    this.ks = start
    this.ke = end
  }

  private keyIs(start: number, end: number, name: readonly number[]): boolean {
    if (end - start !== name.length) return false
    for (let i = 0; i < name.length; i++) if (this.b[start + i] !== name[i]) return false
    return true
  }

  private ws(): void {
    const b = this.b
    for (;;) {
      const c = b[this.pos]
      if (c === 32 || c === 10 || c === 13 || c === 9) this.pos++
      else return
    }
  }

  /** Skips any JSON value, nested ones included, checking brackets balance. */
  private skipValue(): void {
    const b = this.b
    this.ws()
    const c = b[this.pos]
    if (c === C.Quote) {
      this.pos++
      while (this.pos < b.length && b[this.pos] !== C.Quote) {
        if (b[this.pos] === C.Backslash) this.pos++
        this.pos++
      }
      if (this.pos >= b.length) throw this.error('unterminated string')
      this.pos++
      return
    }
    if (c === C.OpenBrace || c === C.OpenBracket) {
      const stack: number[] = [c === C.OpenBrace ? C.CloseBrace : C.CloseBracket]
      this.pos++
      while (stack.length > 0) {
        if (this.pos >= b.length) throw this.error('unterminated object or array')
        const d = b[this.pos]
        if (d === C.Quote) {
          this.skipValue()
          continue
        }
        if (d === C.OpenBrace) stack.push(C.CloseBrace)
        else if (d === C.OpenBracket) stack.push(C.CloseBracket)
        else if (d === C.CloseBrace || d === C.CloseBracket) {
          if (stack.pop() !== d) throw this.error('mismatched bracket')
        }
        this.pos++
      }
      return
    }
    // number, true, false, null
    const start = this.pos
    while (this.pos < b.length) {
      const d = b[this.pos] as number
      if ((d >= 48 && d <= 57) || (d >= 97 && d <= 122) || d === C.Minus || d === 43 || d === 46 || d === 69) this.pos++
      else break
    }
    if (this.pos === start) throw this.error('expected a value')
  }

  private readMetadata(start: number, end: number): void {
    let meta: unknown
    try {
      meta = JSON.parse(this.text.toString('utf8', start, end))
    } catch {
      return // metadata is informational; a broken one does not void the VRPs
    }
    if (typeof meta !== 'object' || meta === null) return
    const m = meta as Record<string, unknown>
    const iso = (v: unknown): string | null => {
      if (typeof v === 'number' && Number.isFinite(v)) return new Date(v * 1000).toISOString()
      if (typeof v !== 'string') return null
      const t = Date.parse(v)
      return Number.isNaN(t) ? null : new Date(t).toISOString()
    }
    this.metadata = {
      generatedAt: iso(m.buildtime) ?? iso(m.generatedTime) ?? iso(m.generated),
      builtBy: typeof m.buildmachine === 'string' ? m.buildmachine : null,
    }
  }

  private error(message: string): VrpFormatError {
    return new VrpFormatError(`not a VRP export: ${message} (at byte ${this.pos})`)
  }
}

/**
 * `a.b.c.d/len` from bytes [from, to) into out[0], with the same rules as the IP
 * library's scanIpv4 (four decimal octets 0-255, no leading zeros) and
 * scanPrefix (length 0-32 without leading zeros, host bits refused).
 * Returns 4 * 256 + len, or INVALID.
 */
export function scanIpv4PrefixBytes(b: Uint8Array, from: number, to: number, out: Uint32Array): number {
  let value = 0
  let octet = 0
  let digits = 0
  let dots = 0
  let first = 0
  let i = from
  for (; i < to; i++) {
    const c = b[i] as number
    if (c === 46) {
      if (digits === 0 || dots === 3) return INVALID
      value = value * 256 + octet
      octet = 0
      digits = 0
      dots++
    } else if (c === 47) {
      break
    } else {
      const d = c - 48
      if (d < 0 || d > 9) return INVALID
      if (digits === 0) first = d
      else if (first === 0) return INVALID
      octet = octet * 10 + d
      if (octet > 255) return INVALID
      digits++
    }
  }
  if (dots !== 3 || digits === 0 || i === to) return INVALID
  value = value * 256 + octet
  const lenDigits = to - i - 1
  if (lenDigits < 1 || lenDigits > 2 || (lenDigits === 2 && b[i + 1] === 48)) return INVALID
  let len = 0
  for (let k = i + 1; k < to; k++) {
    const d = (b[k] as number) - 48
    if (d < 0 || d > 9) return INVALID
    len = len * 10 + d
  }
  if (len > 32) return INVALID
  const masked = len === 0 ? 0 : (value & (0xffffffff << (32 - len))) >>> 0
  if (masked !== value) return INVALID
  out[0] = masked
  return 4 * 256 + len
}

/** Reads a whole export at once (tests, benchmarks, small files). */
export function parseVrpJson(bytes: Uint8Array): ParsedVrps {
  const scanner = new VrpJsonScanner(bytes)
  scanner.step(Infinity)
  return scanner.result()
}

/** Reads an export `slice` VRPs at a time, letting the event loop run in between. */
export async function parseVrpJsonInSlices(bytes: Uint8Array, slice = 20_000): Promise<ParsedVrps> {
  const scanner = new VrpJsonScanner(bytes)
  while (!scanner.step(slice)) await nextTurn()
  return scanner.result()
}
