import { toBitString } from './bits.ts'
import type { Cidr, IpAddress, IpVersion } from './ip-types.ts'

/** Dotted quad of an unsigned 32-bit number. */
export function formatIpv4Number(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`
}

export function formatIpv4(value: bigint): string {
  return formatIpv4Number(Number(value))
}

/** The eight 16-bit groups of an IPv6 value. */
export function ipv6Groups(value: bigint): number[] {
  // Three bigint-to-number conversions (48 + 32 + 48 bits, each exact in a double)
  // instead of a hex round trip: formatting is on the expand hot path.
  const hi = Number(value >> 80n)
  const mid = Number((value >> 48n) & 0xffffffffn)
  const lo = Number(value & 0xffffffffffffn)
  return [
    Math.floor(hi / 4294967296),
    Math.floor(hi / 65536) % 65536,
    hi % 65536,
    Math.floor(mid / 65536),
    mid % 65536,
    Math.floor(lo / 4294967296),
    Math.floor(lo / 65536) % 65536,
    lo % 65536,
  ]
}

export interface FormatIpv6Options {
  /**
   * Write IPv4-mapped (::ffff:0:0/96) and IPv4-translated (::ffff:0:0:0/96)
   * addresses with a dotted tail, as RFC 5952 section 5 recommends for prefixes
   * known to embed IPv4. Off by default so the output is the section 4 form that
   * WHATWG URLs, Python and most libraries print.
   */
  mixed?: boolean
}

/**
 * RFC 5952 section 4: lowercase, no leading zeros, the longest run of two or more
 * zero groups as "::" (the first such run on a tie), a lone zero group kept as "0".
 */
export function formatIpv6(value: bigint, options: FormatIpv6Options = {}): string {
  const g = ipv6Groups(value)
  if (options.mixed && g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0) {
    const mapped = g[4] === 0 && g[5] === 0xffff
    const translated = g[4] === 0xffff && g[5] === 0
    if (mapped || translated) {
      const v4 = formatIpv4Number(Number(value & 0xffffffffn))
      return mapped ? `::ffff:${v4}` : `::ffff:0:${v4}`
    }
  }
  return formatIpv6Groups(g)
}

/** RFC 5952 section 4 text of eight 16-bit groups (summarize formats without bigints). */
export function formatIpv6Groups(g: ArrayLike<number>): string {
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
  let out = ''
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      out += i === 0 ? '::' : ':'
      i += bestLen - 1
      continue
    }
    out += (g[i] as number).toString(16)
    if (i < 7) out += ':'
  }
  return out
}

/** All eight groups, four hex digits each: 2001:0db8:0000:...:0001. */
export function formatIpv6Expanded(value: bigint): string {
  const hex = value.toString(16).padStart(32, '0')
  return hex.replace(/(.{4})(?!$)/g, '$1:')
}

/** Canonical text of an address: dotted quad, or RFC 5952 section 4. */
export function formatIp(address: IpAddress): string {
  return address.version === 4 ? formatIpv4(address.value) : formatIpv6(address.value)
}

export function formatAddress(version: IpVersion, value: bigint): string {
  return version === 4 ? formatIpv4(value) : formatIpv6(value)
}

/** `network/len` with the host bits cleared: the block's canonical name. */
export function formatCidr(cidr: Cidr): string {
  return `${formatAddress(cidr.version, cidr.network)}/${cidr.prefixLength}`
}

export function toDecimal(address: IpAddress): string {
  return address.value.toString(10)
}

/** 0x-prefixed, zero-padded to the family's width (8 or 32 hex digits). */
export function toHex(address: IpAddress): string {
  return `0x${address.value.toString(16).padStart(address.version === 4 ? 8 : 32, '0')}`
}

/** 32 or 128 binary digits. */
export function toBinary(address: IpAddress): string {
  return toBitString(address.version, address.value)
}
