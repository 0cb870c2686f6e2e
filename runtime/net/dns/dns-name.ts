// Domain names on the wire (RFC 1035 §3.1, §4.1.4). dns-packet's name codec neither
// checks label lengths nor understands presentation escapes, and it returns text, not
// the bytes; queries and DNSSEC need exact wire names, so these few helpers do that.

export class DnsNameError extends Error {
  override readonly name = 'DnsNameError'
}

const MAX_NAME = 255
const MAX_LABEL = 63
// A name of 255 bytes has at most 127 labels, so more jumps than that is a loop.
const MAX_POINTERS = 127

/**
 * Presentation form to uncompressed wire form. Accepts a trailing dot or not, `.` or
 * '' for the root, and RFC 1035 §5.1 escapes (`\.`, `\\`, `\DDD`). Non-ASCII text is
 * written as UTF-8: callers are expected to hand in A-labels (punycode).
 */
export function encodeName(text: string): Buffer {
  if (text === '' || text === '.') return Buffer.from([0])
  const labels: Buffer[] = []
  let current: number[] = []
  let sawChar = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string
    if (ch === '.') {
      if (!sawChar) throw new DnsNameError(`empty label in "${text}"`)
      labels.push(Buffer.from(current))
      current = []
      sawChar = false
      continue
    }
    sawChar = true
    if (ch === '\\') {
      const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4))
      if (digits) {
        const value = Number(digits[0])
        if (value > 255) throw new DnsNameError(`escape \\${digits[0]} is not a byte in "${text}"`)
        current.push(value)
        i += 3
      } else {
        const next = text[i + 1]
        if (next === undefined) throw new DnsNameError(`dangling backslash in "${text}"`)
        current.push(...Buffer.from(next))
        i += 1
      }
      continue
    }
    current.push(...Buffer.from(ch))
  }
  if (sawChar) labels.push(Buffer.from(current))
  const parts: Buffer[] = []
  let length = 1
  for (const label of labels) {
    if (label.length > MAX_LABEL) throw new DnsNameError(`label longer than ${MAX_LABEL} bytes in "${text}"`)
    parts.push(Buffer.from([label.length]), label)
    length += label.length + 1
  }
  if (length > MAX_NAME) throw new DnsNameError(`name longer than ${MAX_NAME} bytes: "${text}"`)
  parts.push(Buffer.from([0]))
  return Buffer.concat(parts, length)
}

export interface WireName {
  /** The name with every compression pointer followed, as it would be sent uncompressed. */
  wire: Buffer
  /** Offset just past the name where it started (past the first pointer, if any). */
  end: number
}

/** Reads a possibly compressed name; pointers may only go backwards (RFC 1035 §4.1.4). */
export function readName(buf: Buffer, offset: number): WireName {
  const out: number[] = []
  let pos = offset
  let end = -1
  let jumps = 0
  let floor = offset
  for (;;) {
    if (pos >= buf.length) throw new DnsNameError('name runs past the end of the message')
    const len = buf[pos] as number
    if (len === 0) {
      out.push(0)
      if (end < 0) end = pos + 1
      break
    }
    const kind = len & 0xc0
    if (kind === 0xc0) {
      if (pos + 1 >= buf.length) throw new DnsNameError('compression pointer runs past the end of the message')
      const target = ((len & 0x3f) << 8) | (buf[pos + 1] as number)
      if (target >= floor) throw new DnsNameError('compression pointer does not point backwards')
      if (++jumps > MAX_POINTERS) throw new DnsNameError('compression pointer loop')
      if (end < 0) end = pos + 2
      floor = target
      pos = target
      continue
    }
    if (kind !== 0) throw new DnsNameError(`unsupported label type 0x${kind.toString(16)}`)
    if (pos + 1 + len > buf.length) throw new DnsNameError('label runs past the end of the message')
    for (let i = pos; i <= pos + len; i++) out.push(buf[i] as number)
    if (out.length + 1 > MAX_NAME) throw new DnsNameError(`name longer than ${MAX_NAME} bytes`)
    pos += len + 1
  }
  return { wire: Buffer.from(out), end }
}

function foldAscii(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte
}

/** Names compare case-insensitively for ASCII letters only (RFC 4343), so 0x20-mixed case matches. */
export function wireNamesEqual(a: Buffer, b: Buffer): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (foldAscii(a[i] as number) !== foldAscii(b[i] as number)) return false
  return true
}

/** ASCII-lowercased copy, the canonical form DNSSEC (RFC 4034 §6.2) and zone lookups use. */
export function lowercaseWire(wire: Buffer): Buffer {
  const out = Buffer.from(wire)
  // Length bytes are at most 63, below 'A', so folding every byte leaves them intact.
  for (let i = 0; i < out.length; i++) out[i] = foldAscii(out[i] as number)
  return out
}

/** Labels of an uncompressed wire name, root excluded. */
export function wireLabels(wire: Buffer): Buffer[] {
  const labels: Buffer[] = []
  let pos = 0
  while (pos < wire.length && wire[pos] !== 0) {
    const len = wire[pos] as number
    labels.push(wire.subarray(pos + 1, pos + 1 + len))
    pos += len + 1
  }
  return labels
}

/**
 * Wire name to presentation text without the trailing dot (root is "."), escaping
 * dots, backslashes, and bytes outside printable ASCII as \DDD so it round-trips
 * through encodeName.
 */
export function nameToText(wire: Buffer): string {
  const labels = wireLabels(wire)
  if (labels.length === 0) return '.'
  return labels
    .map((label) => {
      let s = ''
      for (const byte of label) {
        if (byte === 0x2e || byte === 0x5c) s += '\\' + String.fromCharCode(byte)
        else if (byte <= 0x20 || byte >= 0x7f) s += '\\' + String(byte).padStart(3, '0')
        else s += String.fromCharCode(byte)
      }
      return s
    })
    .join('.')
}
