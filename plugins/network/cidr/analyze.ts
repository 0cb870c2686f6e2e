import { blockSize, hostMask, prefixMask, toBitString } from '../../../runtime/ip/bits.ts'
import { formatAddress } from '../../../runtime/ip/format.ts'
import type { Cidr, IpVersion } from '../../../runtime/ip/ip-types.ts'
import { BITS } from '../../../runtime/ip/ip-types.ts'

/**
 * How many addresses of a block can be given to hosts, and which ones:
 *
 * - IPv4 /0-/30: all but the network (all-zeros) and broadcast (all-ones) address.
 * - IPv4 /31: both (RFC 3021 point-to-point links have no broadcast).
 * - IPv4 /32, IPv6 /128: the one address.
 * - IPv6 /127: both (RFC 6164: routers on a /127 must not use the Subnet-Router
 *   anycast address, so nothing is reserved).
 * - IPv6 /0-/126: all but the all-zeros address, which RFC 4291 2.6.1 makes the
 *   Subnet-Router anycast address every router on the link answers to. IPv6 has no
 *   broadcast, so the all-ones address is usable. The RFC 2526 reserved anycast
 *   IDs (top 128 of an EUI-64 /64) are not subtracted: they only bind interface-ID
 *   formats that are no longer mandatory (RFC 7136), and counting them would make
 *   the number depend on how hosts pick IDs.
 */
export type UsableRule =
  | 'ipv4-network-and-broadcast'
  | 'ipv4-rfc3021-point-to-point'
  | 'single-address'
  | 'ipv6-rfc6164-point-to-point'
  | 'ipv6-subnet-router-anycast'

export const USABLE_RULE_NOTES: Record<UsableRule, string> = {
  'ipv4-network-and-broadcast': 'the network and broadcast addresses are not assignable to hosts',
  'ipv4-rfc3021-point-to-point': 'a /31 is a point-to-point link (RFC 3021): both addresses are usable, no broadcast',
  'single-address': 'a host route: the single address is usable',
  'ipv6-rfc6164-point-to-point': 'a /127 is an inter-router link (RFC 6164): both addresses are usable',
  'ipv6-subnet-router-anycast':
    'the all-zeros address is the Subnet-Router anycast address (RFC 4291 2.6.1); IPv6 has no broadcast',
}

export interface BitLayout {
  totalBits: 32 | 128
  networkBits: number
  hostBits: number
  /** The first `networkBits` bits of the address as written. */
  network: string
  /** The remaining bits of the address as written (host bits possibly set). */
  host: string
  /** Full width, octets ('.') or 16-bit groups (':') apart, "|" at the prefix boundary. */
  annotated: string
}

export interface CidrAnalysis {
  version: IpVersion
  /** Canonical block name, host bits cleared. */
  cidr: string
  /** The address as written, canonical form. */
  address: string
  prefixLength: number
  hostBitsSet: boolean
  network: string
  /** IPv4 /0-/30 only; null for /31, /32 and all IPv6 (which has no broadcast). */
  broadcast: string | null
  firstAddress: string
  lastAddress: string
  firstUsable: string
  lastUsable: string
  netmask: string
  /** Host mask (Cisco wildcard): the complement of the netmask. */
  wildcard: string
  /** Exact decimal; a string because IPv6 counts exceed 2^53. */
  totalAddresses: string
  usableHosts: string
  usableRule: UsableRule
  usableNote: string
  bits: BitLayout
  /** Historic class of an IPv4 block's first address (RFC 791 / RFC 1112); null for IPv6. */
  historicClass: 'A' | 'B' | 'C' | 'D' | 'E' | null
}

export function analyzeCidr(cidr: Cidr): CidrAnalysis {
  const { version, network, prefixLength } = cidr
  const total = blockSize(version, prefixLength)
  const last = network | hostMask(version, prefixLength)
  const rule = usableRule(version, prefixLength)
  const excludesFirst = rule === 'ipv4-network-and-broadcast' || rule === 'ipv6-subnet-router-anycast'
  const excludesLast = rule === 'ipv4-network-and-broadcast'
  const usable = total - (excludesFirst ? 1n : 0n) - (excludesLast ? 1n : 0n)
  const fmt = (v: bigint): string => formatAddress(version, v)
  return {
    version,
    cidr: `${fmt(network)}/${prefixLength}`,
    address: fmt(cidr.address),
    prefixLength,
    hostBitsSet: cidr.hostBitsSet,
    network: fmt(network),
    broadcast: excludesLast ? fmt(last) : null,
    firstAddress: fmt(network),
    lastAddress: fmt(last),
    firstUsable: fmt(excludesFirst ? network + 1n : network),
    lastUsable: fmt(excludesLast ? last - 1n : last),
    netmask: fmt(prefixMask(version, prefixLength)),
    wildcard: fmt(hostMask(version, prefixLength)),
    totalAddresses: total.toString(),
    usableHosts: usable.toString(),
    usableRule: rule,
    usableNote: USABLE_RULE_NOTES[rule],
    bits: bitLayout(version, cidr.address, prefixLength),
    historicClass: version === 4 ? historicClass(Number(network >> 24n)) : null,
  }
}

export function usableRule(version: IpVersion, prefixLength: number): UsableRule {
  const hostBits = BITS[version] - prefixLength
  if (hostBits === 0) return 'single-address'
  if (hostBits === 1) return version === 4 ? 'ipv4-rfc3021-point-to-point' : 'ipv6-rfc6164-point-to-point'
  return version === 4 ? 'ipv4-network-and-broadcast' : 'ipv6-subnet-router-anycast'
}

function bitLayout(version: IpVersion, address: bigint, prefixLength: number): BitLayout {
  const totalBits = BITS[version]
  const all = toBitString(version, address)
  const unit = version === 4 ? 8 : 16
  const sep = version === 4 ? '.' : ':'
  let annotated = ''
  for (let i = 0; i < totalBits; i++) {
    if (i === prefixLength) annotated += '|'
    else if (i > 0 && i % unit === 0) annotated += sep
    annotated += all[i]
  }
  if (prefixLength === totalBits) annotated += '|'
  return {
    totalBits,
    networkBits: prefixLength,
    hostBits: totalBits - prefixLength,
    network: all.slice(0, prefixLength),
    host: all.slice(prefixLength),
    annotated,
  }
}

function historicClass(firstOctet: number): 'A' | 'B' | 'C' | 'D' | 'E' {
  if (firstOctet < 128) return 'A'
  if (firstOctet < 192) return 'B'
  if (firstOctet < 224) return 'C'
  if (firstOctet < 240) return 'D'
  return 'E'
}
