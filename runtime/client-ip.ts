import { isIPv4, isIPv6 } from 'node:net'
import ipaddr from 'ipaddr.js'

type Cidr = readonly [ipaddr.IPv4 | ipaddr.IPv6, number]

function parseIp(text: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!text) return undefined
  const bare = text.trim().replace(/^\[(.*)\]$/, '$1')
  if (!ipaddr.isValid(bare)) return undefined
  const parsed = ipaddr.parse(bare)
  // Dual-stack sockets report IPv4 peers as ::ffff:a.b.c.d; limits must see one form.
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed
}

function trusted(ip: ipaddr.IPv4 | ipaddr.IPv6, proxies: readonly Cidr[]): boolean {
  return proxies.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))
}

/**
 * The client address: the socket peer, unless that peer is a trusted proxy, in
 * which case X-Forwarded-For is walked from the right past every trusted hop
 * (the left part of the header is whatever the client wrote, so it is never read
 * blindly).
 */
export function clientIp(socketAddress: string | undefined, forwardedFor: string | null, proxies: readonly Cidr[]): string {
  if (proxies.length === 0 && socketAddress !== undefined) {
    // Hot path: node reports peers in canonical text already; only the IPv4-mapped
    // form of a dual-stack socket needs unwrapping.
    if (isIPv4(socketAddress)) return socketAddress
    if (socketAddress.startsWith('::ffff:') && isIPv4(socketAddress.slice(7))) return socketAddress.slice(7)
    if (isIPv6(socketAddress)) return socketAddress
  }
  const peer = parseIp(socketAddress)
  if (!peer) return socketAddress ?? 'unknown'
  if (proxies.length === 0 || !forwardedFor || !trusted(peer, proxies)) return peer.toString()
  const hops = forwardedFor.split(',')
  let client = peer
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseIp(hops[i])
    if (!hop) break
    client = hop
    if (!trusted(hop, proxies)) break
  }
  return client.toString()
}

/** One 1-4 digit hex group of text[from, to), or -1. */
function hexGroup(text: string, from: number, to: number): number {
  if (to <= from || to - from > 4) return -1
  let value = 0
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) | 0x20 // ASCII lower case; digits are unchanged
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1
    if (digit < 0) return -1
    value = value * 16 + digit
  }
  return value
}

/**
 * The first four groups (the /64) of an IPv6 address in any text form: `::`
 * anywhere, leading zeros, upper case, a dotted IPv4 tail, a %zone. Undefined
 * when the text is not IPv6. Hand-written rather than the address library: it
 * runs on every request from an IPv6 client, and only ever needs 64 bits.
 */
export function ipv6Prefix64(text: string): [number, number, number, number] | undefined {
  const zone = text.indexOf('%')
  const end = zone < 0 ? text.length : zone
  const gap = text.indexOf('::')
  const groups: [number, number, number, number] = [0, 0, 0, 0]
  // Groups before the "::" (or all of them): read until four are known.
  const headEnd = gap < 0 ? end : gap
  let count = 0
  let from = 0
  while (count < 4 && from < headEnd) {
    let to = text.indexOf(':', from)
    if (to < 0 || to > headEnd) to = headEnd
    const group = hexGroup(text, from, to)
    if (group < 0) return undefined
    groups[count++] = group
    from = to + 1
  }
  if (count === 4) return groups
  if (gap < 0) return undefined // fewer than four groups and no "::": not IPv6
  // Groups after the "::" are right-aligned; the gap is zeros. A dotted IPv4 tail
  // stands for two groups (it only ever covers the last two, never the first four).
  const tailStart = gap + 2
  let tail = 0
  if (tailStart < end) {
    tail = 1
    for (let i = tailStart; i < end; i++) if (text.charCodeAt(i) === 0x3a) tail++
    if (text.lastIndexOf('.', end) > tailStart) tail++
  }
  const zeros = 8 - count - tail
  if (zeros < 1) return undefined
  from = tailStart
  for (let index = count + zeros; index < 4; index++) {
    let to = text.indexOf(':', from)
    if (to < 0 || to > end) to = end
    const group = hexGroup(text, from, to)
    if (group < 0) return undefined
    groups[index] = group
    from = to + 1
  }
  return groups
}

/**
 * What anonymous callers are rate-limited (and otherwise counted) by. IPv4: the
 * address. IPv6: its /64, the smallest block an ISP hands a customer (a host
 * picks any of its 2^64 addresses at will, so per-address limits would be no
 * limit). The few IPv6 addresses with a zero /64 (::1, IPv4-mapped) stay
 * per address, a mapped one as the IPv4 address.
 */
export function anonymousPrincipal(ip: string): string {
  if (ip.indexOf(':') < 0) return `ip:${ip}`
  const groups = ipv6Prefix64(ip)
  if (groups === undefined) return `ip:${ip}`
  const [a, b, c, d] = groups
  if ((a | b | c | d) === 0) {
    const parsed = parseIp(ip)
    return `ip:${parsed ? parsed.toString() : ip}`
  }
  // RFC 5952 text of the block: the four zero groups of the host part are the
  // longest zero run, so "::" stands for them and any zero groups just before.
  const kept = d !== 0 ? 4 : c !== 0 ? 3 : b !== 0 ? 2 : 1
  let text = a.toString(16)
  if (kept > 1) text += `:${b.toString(16)}`
  if (kept > 2) text += `:${c.toString(16)}`
  if (kept > 3) text += `:${d.toString(16)}`
  return `ip:${text}::/64`
}
