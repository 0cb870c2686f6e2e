import { EncodedJson } from './encoded-json.ts'

// Writes JSON as UTF-8 bytes into large buffers, for answers too large to build
// as objects and stringify (runtime/encoded-json.ts). Hand-written: no library
// writes JSON bytes from values piece by piece without building a string first
// (JSON.stringify and the fast-json-stringify family return strings, which then
// cost a UTF-8 encoding of the whole answer as well). What it writes is what
// JSON.stringify writes for the same values, byte for byte: test/gateway/json-bytes.test.ts
// checks that on arbitrary strings (every Unicode class, lone surrogates) and numbers.

const CHUNK = 1 << 20
const QUOTE = 0x22
const BACKSLASH = 0x5c

/** Strings seen often (an AS name, a country, a class) keep their encoded form. */
const MAX_REMEMBERED = 50_000

/**
 * Text that is already JSON (a key with its quotes and colon: `,"asn":`), as the
 * bytes a writer copies. Measured on this box: copying bytes from a Uint8Array
 * runs ~3x faster than charCodeAt over a string, and faster than latin1Write or
 * set() for pieces of a few bytes (set() wins from ~16: bytes()).
 */
export function jsonPiece(text: string): Uint8Array {
  return Buffer.from(text, 'utf8')
}

const NULL = jsonPiece('null')
const TRUE = jsonPiece('true')
const FALSE = jsonPiece('false')
/** 0-255 as decimal text (small numbers: prefix lengths, most counts). */
const OCTETS: readonly Uint8Array[] = Array.from({ length: 256 }, (_, i) => jsonPiece(String(i)))
const DOT = 0x2e

export class JsonBytes {
  #chunks: Uint8Array[] = []
  #buffer: Buffer = Buffer.allocUnsafe(CHUNK)
  #pos = 0
  #total = 0
  #remembered = new Map<string, Uint8Array>()

  /** Room for n more bytes in the current buffer. */
  #room(n: number): void {
    if (this.#pos + n <= this.#buffer.length) return
    if (this.#pos > 0) this.#chunks.push(this.#buffer.subarray(0, this.#pos))
    this.#total += this.#pos
    this.#buffer = Buffer.allocUnsafe(Math.max(CHUNK, n))
    this.#pos = 0
  }

  /** One byte (punctuation: `{`, `,`, `:` ...). */
  byte(b: number): void {
    this.#room(1)
    this.#buffer[this.#pos++] = b
  }

  /** Bytes that are already JSON (UTF-8): a jsonPiece, an encoded string. */
  bytes(bytes: Uint8Array): void {
    const n = bytes.length
    this.#room(n)
    const buffer = this.#buffer
    let pos = this.#pos
    if (n > 16) {
      buffer.set(bytes, pos)
      pos += n
    } else {
      for (let i = 0; i < n; i++) buffer[pos++] = bytes[i]!
    }
    this.#pos = pos
  }

  /** Text the caller knows is printable ASCII with nothing to escape, written as it is. */
  ascii(s: string): void {
    const n = s.length
    this.#room(n)
    const buffer = this.#buffer
    let pos = this.#pos
    for (let i = 0; i < n; i++) buffer[pos++] = s.charCodeAt(i)
    this.#pos = pos
  }

  /**
   * A string value, quoted and escaped as JSON.stringify does. Its bytes are
   * remembered (up to MAX_REMEMBERED strings): a list repeats its AS names,
   * countries and classes thousands of times.
   */
  string(s: string): void {
    const known = this.#remembered.get(s)
    if (known !== undefined) return this.bytes(known)
    const bytes = encodeString(s)
    if (this.#remembered.size < MAX_REMEMBERED) this.#remembered.set(s, bytes)
    this.bytes(bytes)
  }

  /** A string value or null. */
  stringOrNull(s: string | null): void {
    if (s === null) this.bytes(NULL)
    else this.string(s)
  }

  /** A whole number 0 <= n < 2^53, or null. */
  uint(n: number | null): void {
    if (n === null) return this.bytes(NULL)
    if (!Number.isSafeInteger(n) || n < 0) return this.ascii(JSON.stringify(n))
    if (n < 256) return this.bytes(OCTETS[n]!)
    let digits = 1
    for (let m = n; m >= 10; m = Math.floor(m / 10)) digits++
    this.#room(digits)
    const buffer = this.#buffer
    let pos = this.#pos + digits
    this.#pos = pos
    for (let m = n; ; ) {
      buffer[--pos] = 0x30 + (m % 10)
      m = Math.floor(m / 10)
      if (m === 0) break
    }
  }

  boolean(b: boolean): void {
    this.bytes(b ? TRUE : FALSE)
  }

  /**
   * An IPv4 address (unsigned 32-bit) as a dotted quad, without quotes: one
   * room check and the digits written in place (a bulk answer writes two per
   * address; seven piece copies each cost ~3x this).
   */
  ipv4(value: number): void {
    this.#room(15)
    const buffer = this.#buffer
    let pos = this.#pos
    for (let shift = 24; shift >= 0; shift -= 8) {
      const octet = (value >>> shift) & 0xff
      if (octet >= 100) {
        const hundreds = (octet / 100) | 0
        const rest = octet - hundreds * 100
        const tens = (rest / 10) | 0
        buffer[pos++] = 0x30 + hundreds
        buffer[pos++] = 0x30 + tens
        buffer[pos++] = 0x30 + rest - tens * 10
      } else if (octet >= 10) {
        const tens = (octet / 10) | 0
        buffer[pos++] = 0x30 + tens
        buffer[pos++] = 0x30 + octet - tens * 10
      } else buffer[pos++] = 0x30 + octet
      if (shift > 0) buffer[pos++] = DOT
    }
    this.#pos = pos
  }

  /** Any JSON value, through JSON.stringify (for the rare item the fast paths do not take). */
  value(v: unknown): void {
    this.bytes(Buffer.from(JSON.stringify(v) ?? 'null', 'utf8'))
  }

  /** Bytes written so far. */
  get byteLength(): number {
    return this.#total + this.#pos
  }

  /** The value written, as an EncodedJson; the writer is spent. */
  finish(): EncodedJson {
    const chunks = this.#pos > 0 ? [...this.#chunks, this.#buffer.subarray(0, this.#pos)] : this.#chunks
    const encoded = new EncodedJson(chunks, this.#total + this.#pos)
    this.#chunks = []
    this.#buffer = Buffer.alloc(0)
    this.#pos = 0
    this.#total = 0
    return encoded
  }
}

/** A string as JSON.stringify writes it, in UTF-8 (for callers that keep the bytes of their own strings). */
export function encodeString(s: string): Uint8Array {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    // Anything to escape or beyond ASCII: JSON.stringify's own escaping (lone
    // surrogates become \udxxx, so the UTF-8 is well formed).
    if (c < 0x20 || c === QUOTE || c === BACKSLASH || c > 0x7e) return Buffer.from(JSON.stringify(s), 'utf8')
  }
  const bytes = Buffer.allocUnsafe(s.length + 2)
  bytes[0] = QUOTE
  for (let i = 0; i < s.length; i++) bytes[i + 1] = s.charCodeAt(i)
  bytes[s.length + 1] = QUOTE
  return bytes
}
