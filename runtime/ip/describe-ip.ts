import type { BogonVerdict } from './bogon.ts'
import { bogonCheck } from './bogon.ts'
import type { EmbeddedIpv4 } from './embedded-ipv4.ts'
import { embeddedIpv4, toIpv4Mapped } from './embedded-ipv4.ts'
import { formatIp, formatIpv6, formatIpv6Expanded, toBinary, toDecimal, toHex } from './format.ts'
import type { IpAddress, IpVersion } from './ip-types.ts'
import { reversePointer } from './reverse-pointer.ts'
import type { AddressClassification, SpecialPurposeMatch } from './special-purpose.ts'
import { classify, lookupSpecialPurpose } from './special-purpose.ts'

/** Everything the library knows about one address without the network; JSON-safe. */
export interface IpDetails {
  version: IpVersion
  /** Canonical text: dotted quad, or RFC 5952 section 4. */
  address: string
  /** IPv6: all 32 hex digits; IPv4: the dotted quad again (zero-padding octets would read as octal). */
  expanded: string
  /** IPv6 with a dotted IPv4 tail when it is IPv4-mapped/translated (RFC 5952 section 5), else null. */
  mixed: string | null
  /** IPv4 only: its IPv4-mapped IPv6 form, ::ffff:a.b.c.d. */
  ipv4Mapped: string | null
  decimal: string
  hex: string
  binary: string
  reversePointer: string
  embeddedIpv4: EmbeddedIpv4 | null
  classification: AddressClassification
  /** Special-purpose registry entries containing the address, most specific first. */
  specialPurpose: SpecialPurposeMatch[]
  bogon: BogonVerdict
}

export function describeIp(address: IpAddress): IpDetails {
  const text = formatIp(address)
  const mixed = address.version === 6 ? formatIpv6(address.value, { mixed: true }) : null
  return {
    version: address.version,
    address: text,
    expanded: address.version === 6 ? formatIpv6Expanded(address.value) : text,
    mixed: mixed !== null && mixed !== text ? mixed : null,
    ipv4Mapped: address.version === 4 ? formatIpv6(toIpv4Mapped(address).value, { mixed: true }) : null,
    decimal: toDecimal(address),
    hex: toHex(address),
    binary: toBinary(address),
    reversePointer: reversePointer(address),
    embeddedIpv4: embeddedIpv4(address),
    classification: classify(address),
    specialPurpose: lookupSpecialPurpose(address).matches,
    bogon: bogonCheck(address),
  }
}
