import { embeddedIpv4 } from './embedded-ipv4.ts'
import type { IpAddress } from './ip-types.ts'
import { parseIp } from './parse.ts'
import { addressSpaceEntryOf, specialBlocksOf } from './special-purpose.ts'

export interface BogonVerdict {
  bogon: boolean
  /** The registry block that decided, or null when no rule applied (ordinary unicast space). */
  prefix: string | null
  reason: string
}

/**
 * Whether an address should never appear as a public Internet source or
 * destination, judged from the IANA registries alone:
 *
 * 1. The most specific special-purpose block whose "Globally Reachable" is TRUE or
 *    FALSE decides (192.0.0.9/32 is TRUE inside the FALSE 192.0.0.0/24, so it is
 *    not a bogon). Blocks with an empty flag (the terminated 192.88.99.0/24 and
 *    2001:10::/28) are skipped in favour of the next wider rule.
 * 2. 6to4 (2002::/16) and Teredo (2001::/32) are "N/A" in the registry, and the
 *    NAT64 well-known prefix (64:ff9b::/96) must not carry non-global IPv4 (RFC
 *    6052 3.1): these are bogons exactly when an embedded IPv4 address is
 *    (for Teredo: the server or the client's public address).
 * 3. Otherwise the address-space registries: IPv4 /8s with status RESERVED (0/8,
 *    10/8, 127/8, multicast 224/4, future-use 240/4) and IPv6 outside 2000::/3
 *    that no special block claims (multicast ff00::/8, the deprecated site-local
 *    fec0::/10 and the other "Reserved by IETF" space) are bogons.
 * 4. Everything else is not.
 *
 * Not covered: space IANA delegated to an RIR that the RIR has not yet assigned
 * (the "full bogons" lists); that needs the RIRs' delegation files, not these
 * registries. IPv4-mapped addresses (::ffff:0:0/96) are bogons by rule 1: on the
 * wire they are never legitimate; callers guarding a socket should also check the
 * mapped IPv4 address itself (embeddedIpv4), since the OS connects to that.
 */
export function bogonCheck(address: IpAddress): BogonVerdict {
  for (const { prefix, entry } of specialBlocksOf(address)) {
    if (entry.class === '6to4' || entry.class === 'teredo' || (entry.class === 'nat64' && prefix === '64:ff9b::/96')) {
      return viaEmbedded(address, prefix, entry.name)
    }
    if (entry.globallyReachable === false) {
      return { bogon: true, prefix, reason: `${entry.name} (${prefix}) is not globally reachable (${entry.spec})` }
    }
    if (entry.globallyReachable === true) {
      return { bogon: false, prefix, reason: `${entry.name} (${prefix}) is globally reachable (${entry.spec})` }
    }
  }
  const space = addressSpaceEntryOf(address)
  if (space?.reserved) {
    return { bogon: true, prefix: space.prefix, reason: `${space.prefix} is ${space.name} space, not global unicast` }
  }
  if (address.version === 6 && space?.prefix !== '2000::/3') {
    return {
      bogon: true,
      prefix: space?.prefix ?? null,
      reason: 'outside 2000::/3, the only IPv6 space IANA allocates for global unicast',
    }
  }
  return { bogon: false, prefix: null, reason: 'ordinary unicast space in the IANA registries' }
}

export function isBogon(address: IpAddress): boolean {
  return bogonCheck(address).bogon
}

function viaEmbedded(address: IpAddress, prefix: string, name: string): BogonVerdict {
  const embedded = embeddedIpv4(address)
  const carried = embedded === null ? [] : embedded.kind === 'teredo' ? [embedded.server, embedded.ipv4] : [embedded.ipv4]
  for (const text of carried) {
    const v4 = parseIp(text)
    if (v4.ok && bogonCheck(v4.value).bogon) {
      return { bogon: true, prefix, reason: `${name} (${prefix}) carries the IPv4 bogon ${text}` }
    }
  }
  return {
    bogon: false,
    prefix,
    reason: `${name} (${prefix}) carries ${carried.length === 1 ? 'a globally reachable IPv4 address' : 'globally reachable IPv4 addresses'}`,
  }
}
