import { bogonCheck } from '../ip/bogon.ts'
import { embeddedIpv4 } from '../ip/embedded-ipv4.ts'
import { formatIp } from '../ip/format.ts'
import type { IpAddress } from '../ip/ip-types.ts'
import { parseIp } from '../ip/parse.ts'

// Which addresses the service may open a connection to. Everything that is not
// globally reachable by the IANA registries is refused: private, loopback,
// link-local (169.254.169.254, the cloud metadata address, lives there), CGNAT,
// multicast, reserved, documentation, "this network" (0.0.0.0 reaches localhost on
// Linux). IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4,
// Teredo) are judged by that address too, since that is where packets end up.

export type TargetVerdict = { allowed: true; address: string } | { allowed: false; address: string; reason: string }

const LOOPBACK_V4 = 127n << 24n
const isLoopback = (a: IpAddress): boolean => (a.version === 4 ? a.value >> 24n === LOOPBACK_V4 >> 24n : a.value === 1n)

export interface TargetPolicy {
  /** Loopback only (127.0.0.0/8 and ::1), for tests and local demos; nothing else opens. */
  allowLoopback: boolean
}

export function checkTarget(address: IpAddress, policy: TargetPolicy): TargetVerdict {
  const text = formatIp(address)
  if (isLoopback(address)) {
    return policy.allowLoopback ? { allowed: true, address: text } : { allowed: false, address: text, reason: `${text} is a loopback address` }
  }
  const verdict = bogonCheck(address)
  if (verdict.bogon) return { allowed: false, address: text, reason: verdict.reason }
  const embedded = embeddedIpv4(address)
  if (embedded) {
    const inner = parseIp(embedded.ipv4)
    if (inner.ok) {
      const innerVerdict = checkTarget(inner.value, { allowLoopback: false })
      if (!innerVerdict.allowed) return { allowed: false, address: text, reason: `${text} carries ${embedded.ipv4}: ${innerVerdict.reason}` }
    }
  }
  return { allowed: true, address: text }
}

/** The same check for an address in text form (as DNS and sockets give them). */
export function checkTargetText(text: string, policy: TargetPolicy): TargetVerdict {
  const parsed = parseIp(text.replace(/^\[(.*)\]$/, '$1'), { zone: 'reject' })
  if (!parsed.ok) return { allowed: false, address: text, reason: `"${text}" is not an IP address: ${parsed.error.reason}` }
  return checkTarget(parsed.value, policy)
}
