import ipaddr from 'ipaddr.js'

// The client address as SPF sees it: an IPv4-mapped IPv6 address is an IPv4
// connection (RFC 7208 §5 / §5.6), for matching and for macros alike.

export interface ClientIp {
  version: 4 | 6
  address: ipaddr.IPv4 | ipaddr.IPv6
}

export function parseClientIp(text: string): ClientIp | null {
  const bare = text.trim().replace(/^\[(.*)\]$/, '$1')
  if (!ipaddr.isValid(bare) || bare.includes('%')) return null
  let address = ipaddr.parse(bare)
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address()
  return { version: address.kind() === 'ipv4' ? 4 : 6, address }
}

/** Does the client fall in network/bits? An address of the other family never does. */
export function ipMatches(client: ClientIp, network: string, bits: number): boolean {
  let net: ipaddr.IPv4 | ipaddr.IPv6
  try {
    net = ipaddr.parse(network)
  } catch {
    return false
  }
  if (net.kind() !== client.address.kind()) return false
  return client.address.match(net, bits)
}

/** %{i}: dotted quad, or for IPv6 the 32 nibbles dot-separated (lowercase, as RFC 7208 §7.4's example). */
export function dotFormat(client: ClientIp): string {
  if (client.version === 4) return client.address.toString()
  return Buffer.from(client.address.toByteArray())
    .toString('hex')
    .split('')
    .join('.')
}

/** %{c}: the readable form (RFC 5952 compressed IPv6). */
export function readableIp(client: ClientIp): string {
  return client.address.toString()
}

/** The PTR query name of the address. */
export function reverseName(client: ClientIp): string {
  return `${dotFormat(client).split('.').reverse().join('.')}.${client.version === 4 ? 'in-addr' : 'ip6'}.arpa`
}

export function sameIp(client: ClientIp, text: string): boolean {
  const other = parseClientIp(text)
  return other !== null && other.version === client.version && other.address.toString() === client.address.toString()
}
