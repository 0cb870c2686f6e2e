import { formatIpv4Number, formatIpv6Groups } from '../../../runtime/ip/format.ts'
import { scanIpv4 } from '../../../runtime/ip/parse-ipv4.ts'
import { scanIpv6 } from '../../../runtime/ip/parse-ipv6.ts'

// Prefix text <-> 32-bit words, allocation-free on the success path: the VRP
// loader reads half a million prefixes with this and the validator's string API
// one per call. The address parsers are the IP library's strict ones (no
// inet_aton forms, RFC 4291 IPv6), so a VRP file is held to the same syntax as
// the API's own input.

const groups = new Uint16Array(8)

/** Result of scanPrefix: -1, or family * 256 + prefix length. */
export const INVALID = -1

/**
 * Reads `addr/len` from s into `out` (1 word for IPv4, 4 for IPv6). Host bits:
 * 'reject' refuses them (a VRP with host bits set is malformed), 'mask' clears
 * them (a route given as 10.1.2.3/8 is the block 10.0.0.0/8).
 */
export function scanPrefix(s: string, out: Uint32Array, hostBits: 'reject' | 'mask'): number {
  const slash = s.indexOf('/')
  if (slash <= 0) return INVALID
  const six = s.indexOf(':') >= 0
  const bits = six ? 128 : 32
  // The length: plain decimal, no sign, no leading zero.
  const digits = s.length - slash - 1
  if (digits < 1 || digits > 3) return INVALID
  let len = 0
  for (let i = slash + 1; i < s.length; i++) {
    const d = s.charCodeAt(i) - 48
    if (d < 0 || d > 9) return INVALID
    len = len * 10 + d
  }
  if (len > bits || (digits > 1 && s.charCodeAt(slash + 1) === 48)) return INVALID
  if (!six) {
    const a = scanIpv4(s, 0, slash)
    if (a < 0) return INVALID
    const masked = len === 0 ? 0 : (a & (0xffffffff << (32 - len))) >>> 0
    if (masked !== a && hostBits === 'reject') return INVALID
    out[0] = masked
    return 4 * 256 + len
  }
  if (scanIpv6(s, 0, slash, groups) !== null) return INVALID
  let dirty = false
  for (let k = 0; k < 4; k++) {
    const w = ((groups[2 * k] as number) * 65536 + (groups[2 * k + 1] as number)) >>> 0
    const keep = len - 32 * k
    const masked = keep >= 32 ? w : keep <= 0 ? 0 : (w & (0xffffffff << (32 - keep))) >>> 0
    if (masked !== w) dirty = true
    out[k] = masked
  }
  if (dirty && hostBits === 'reject') return INVALID
  return 6 * 256 + len
}

/** scanIpv4PrefixText: the text is not IPv4 (it has a ":"); try scanPrefix. */
export const NOT_IPV4 = -2

/**
 * The validator's hot path: IPv4 `a.b.c.d/len` in one pass, host bits cleared,
 * by the same rules as scanPrefix (strict dotted quad, length 0-32 without a
 * leading zero). Returns 4 * 256 + len, INVALID, or NOT_IPV4 at the first ":".
 */
export function scanIpv4PrefixText(s: string, out: Uint32Array): number {
  const code = scanIpv4Text(s, out)
  // IPv6 text fails the IPv4 scan somewhere (often at "2001" > 255): hand it on.
  return code === INVALID && s.indexOf(':') >= 0 ? NOT_IPV4 : code
}

function scanIpv4Text(s: string, out: Uint32Array): number {
  let value = 0
  let octet = 0
  let digits = 0
  let dots = 0
  let first = 0
  let i = 0
  const n = s.length
  for (; i < n; i++) {
    const c = s.charCodeAt(i)
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
  if (dots !== 3 || digits === 0 || i === n) return INVALID
  value = value * 256 + octet
  const lenDigits = n - i - 1
  if (lenDigits < 1 || lenDigits > 2) return INVALID
  const d0 = s.charCodeAt(i + 1) - 48
  if (d0 < 0 || d0 > 9 || (lenDigits === 2 && d0 === 0)) return INVALID
  let len = d0
  if (lenDigits === 2) {
    const d1 = s.charCodeAt(i + 2) - 48
    if (d1 < 0 || d1 > 9) return INVALID
    len = len * 10 + d1
  }
  if (len > 32) return INVALID
  out[0] = len === 0 ? 0 : (value & (0xffffffff << (32 - len))) >>> 0
  return 4 * 256 + len
}

const outGroups = new Uint16Array(8)

/** Canonical text (RFC 5952 for IPv6) of the prefix whose words start at `offset`. */
export function formatPrefixWords(family: 4 | 6, words: ArrayLike<number>, offset: number, len: number): string {
  if (family === 4) return `${formatIpv4Number(words[offset] as number)}/${len}`
  for (let k = 0; k < 4; k++) {
    const w = words[offset + k] as number
    outGroups[2 * k] = w >>> 16
    outGroups[2 * k + 1] = w & 0xffff
  }
  return `${formatIpv6Groups(outGroups)}/${len}`
}
