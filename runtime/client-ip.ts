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
