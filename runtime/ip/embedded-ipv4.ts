import { formatIpv4Number } from './format.ts'
import type { IpAddress } from './ip-types.ts'

/**
 * IPv4 addresses carried inside IPv6 ones. The prefixes below are disjoint, so an
 * address has at most one reading.
 *
 * Not covered: the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) and
 * network-specific NAT64 prefixes, because where the IPv4 bits sit depends on a
 * prefix length (RFC 6052 2.2) that only the operator knows; ISATAP is not asked for.
 */
export type EmbeddedIpv4 =
  | { kind: 'mapped'; prefix: '::ffff:0:0/96'; ipv4: string; rfc: 'RFC 4291' }
  | { kind: 'compatible'; prefix: '::/96'; ipv4: string; rfc: 'RFC 4291'; deprecated: true }
  | { kind: 'nat64'; prefix: '64:ff9b::/96'; ipv4: string; rfc: 'RFC 6052' }
  | { kind: '6to4'; prefix: '2002::/16'; ipv4: string; rfc: 'RFC 3056' }
  | {
      kind: 'teredo'
      prefix: '2001::/32'
      /** The client's public (NAT-mapped) address, de-obfuscated (stored XOR 0xffffffff). */
      ipv4: string
      server: string
      /** The client's public UDP port, de-obfuscated (stored XOR 0xffff). */
      clientPort: number
      flags: number
      /** RFC 4380 cone bit, the top bit of the flags. */
      cone: boolean
      rfc: 'RFC 4380'
    }

const LOW32 = 0xffffffffn

export function embeddedIpv4(address: IpAddress): EmbeddedIpv4 | null {
  if (address.version !== 6) return null
  const v = address.value
  const low = Number(v & LOW32)
  const top96 = v >> 32n
  if (top96 === 0xffffn) return { kind: 'mapped', prefix: '::ffff:0:0/96', ipv4: formatIpv4Number(low), rfc: 'RFC 4291' }
  // :: and ::1 are the unspecified and loopback addresses, not 0.0.0.0 and 0.0.0.1
  // in disguise.
  if (top96 === 0n && v > 1n) {
    return { kind: 'compatible', prefix: '::/96', ipv4: formatIpv4Number(low), rfc: 'RFC 4291', deprecated: true }
  }
  if (top96 === 0x64ff9b0000000000000000n) {
    return { kind: 'nat64', prefix: '64:ff9b::/96', ipv4: formatIpv4Number(low), rfc: 'RFC 6052' }
  }
  const top16 = Number(v >> 112n)
  if (top16 === 0x2002) {
    return { kind: '6to4', prefix: '2002::/16', ipv4: formatIpv4Number(Number((v >> 80n) & LOW32)), rfc: 'RFC 3056' }
  }
  if (v >> 96n === 0x20010000n) {
    const flags = Number((v >> 48n) & 0xffffn)
    return {
      kind: 'teredo',
      prefix: '2001::/32',
      ipv4: formatIpv4Number((low ^ 0xffffffff) >>> 0),
      server: formatIpv4Number(Number((v >> 64n) & LOW32)),
      clientPort: Number((v >> 32n) & 0xffffn) ^ 0xffff,
      flags,
      cone: (flags & 0x8000) !== 0,
      rfc: 'RFC 4380',
    }
  }
  return null
}

/** ::ffff:a.b.c.d for an IPv4 address (RFC 4291 2.5.5.2). */
export function toIpv4Mapped(address: IpAddress): IpAddress {
  if (address.version !== 4) throw new TypeError('toIpv4Mapped takes an IPv4 address')
  return { version: 6, value: 0xffff00000000n | address.value }
}
