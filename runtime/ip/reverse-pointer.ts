import type { IpAddress } from './ip-types.ts'

/**
 * The PTR owner name of an address: `4.3.2.1.in-addr.arpa` (RFC 1035 3.5) or the
 * 32 reversed nibbles under `ip6.arpa` (RFC 3596 2.5). No trailing dot, as the
 * rest of the API writes names.
 */
export function reversePointer(address: IpAddress): string {
  if (address.version === 4) {
    const n = Number(address.value)
    return `${n & 255}.${(n >>> 8) & 255}.${(n >>> 16) & 255}.${n >>> 24}.in-addr.arpa`
  }
  const hex = address.value.toString(16).padStart(32, '0')
  const nibbles: string[] = []
  for (let i = 31; i >= 0; i--) nibbles.push(hex[i] as string)
  return `${nibbles.join('.')}.ip6.arpa`
}
