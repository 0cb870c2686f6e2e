// Byte-level scanning of the @ip-location-db CSV rows (`start,end,asn,org`). The
// files are 32 MB together; going through strings (split, parseInt, a CSV library)
// costs seconds and hundreds of MB, scanning bytes costs ~100 ms and nothing.

/** Where the last scanned organisation field lies, to avoid allocating a result per row. */
export const org = { from: 0, to: 0, hash: 0, quoted: false }

const QUOTE = 34
const CR = 13
const LF = 10

/**
 * Scans the last field of a row starting at `p`, recording it in `org`, and
 * returns the position after the row's line feed. A quoted field ("Cloudflare,
 * Inc.") is recorded without its quotes; `quoted` means doubled quotes inside
 * still need undoing.
 */
export function scanOrgField(buf: Uint8Array, p: number, to: number): number {
  // FNV-1a over the raw field bytes: cheap, and enough to tell names of one ASN apart.
  let hash = 0x811c9dc5
  if (buf[p] === QUOTE) {
    p++
    const from = p
    let escaped = false
    for (; p < to; p++) {
      const c = buf[p] as number
      if (c === QUOTE) {
        if (buf[p + 1] !== QUOTE) break
        escaped = true
        hash = Math.imul(hash ^ c, 0x01000193)
        p++
      }
      hash = Math.imul(hash ^ c, 0x01000193)
    }
    org.from = from
    org.to = p
    org.quoted = escaped
    org.hash = hash >>> 0
    return skipLine(buf, p, to)
  }
  const from = p
  for (; p < to; p++) {
    const c = buf[p] as number
    if (c === LF || c === CR) break
    hash = Math.imul(hash ^ c, 0x01000193)
  }
  org.from = from
  org.to = p
  org.quoted = false
  org.hash = hash >>> 0
  return skipLine(buf, p, to)
}

/** Position after the next line feed at or after `p` (or `to`). */
export function skipLine(buf: Uint8Array, p: number, to: number): number {
  while (p < to && buf[p] !== LF) p++
  return p + 1
}

/**
 * End of the next chunk: the line boundary at or after from + size, so a parse
 * step can yield to the event loop between chunks without splitting a row.
 */
export function chunkEnd(buf: Buffer, from: number, size: number): number {
  if (from + size >= buf.length) return buf.length
  const lf = buf.indexOf(LF, from + size)
  return lf < 0 ? buf.length : lf + 1
}
