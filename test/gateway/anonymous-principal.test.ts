import fc from 'fast-check'
import ipaddr from 'ipaddr.js'
import { describe, expect, it } from 'vitest'
import { formatIpv6 } from '../../runtime/ip/format.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { anonymousPrincipal, ipv6Prefix64 } from '../../runtime/client-ip.ts'
import { ipv6Text, ipLikeText, uint32, v4 } from '../network/arbitraries.ts'

// Anonymous callers are counted per IPv4 address and per IPv6 /64; the /64 comes
// from a hand-written reader, checked here against the address library and ipaddr.js.

/** The /64 as the address library sees it: parse, clear the host half, RFC 5952. */
function reference(text: string): string {
  const parsed = parseIp(text, { zone: 'strip' })
  if (!parsed.ok || parsed.value.version !== 6) throw new Error(`${text}: not IPv6`)
  return `${formatIpv6((parsed.value.value >> 64n) << 64n)}/64`
}

const zone = fc.option(fc.constantFrom('%eth0', '%1', '%en0.100', '%lo'), { nil: '' })

describe('ipv6Prefix64', () => {
  it('reads the same first four groups as the address library and ipaddr.js, for every text form', () => {
    fc.assert(
      fc.property(ipv6Text, zone, ({ value, text }, z) => {
        const want = [3, 2, 1, 0].map((i) => Number((value >> BigInt(64 + i * 16)) & 0xffffn))
        expect(ipv6Prefix64(text + z)).toEqual(want)
        expect(ipaddr.IPv6.parse(text).parts.slice(0, 4)).toEqual(want)
      }),
      { numRuns: 5000 },
    )
  })

  it('never throws on junk, and says undefined when the first four groups are not IPv6', () => {
    fc.assert(fc.property(fc.oneof(ipLikeText, fc.string()), (text) => void ipv6Prefix64(text)))
    for (const junk of ['', 'unknown', '1.2.3.4', 'g::1', '12345::', '1:2:3', ':1:2:3:4::']) expect(ipv6Prefix64(junk), junk).toBeUndefined()
  })
})

describe('anonymousPrincipal', () => {
  it('IPv6: the /64 in RFC 5952 text, whatever form the address came in', () => {
    fc.assert(
      fc.property(ipv6Text, zone, ({ value, text }, z) => {
        fc.pre(value >> 64n !== 0n)
        expect(anonymousPrincipal(text + z)).toBe(`ip:${reference(text)}`)
      }),
      { numRuns: 5000 },
    )
  })

  it('examples', () => {
    expect(anonymousPrincipal('2001:db8::')).toBe('ip:2001:db8::/64')
    expect(anonymousPrincipal('2001:db8::1')).toBe('ip:2001:db8::/64')
    expect(anonymousPrincipal('2001:db8:0:0:1::1')).toBe('ip:2001:db8::/64')
    expect(anonymousPrincipal('2001:DB8:0:1:ffff:ffff:ffff:ffff')).toBe('ip:2001:db8:0:1::/64')
    expect(anonymousPrincipal('2001:0:0:1::')).toBe('ip:2001:0:0:1::/64')
    expect(anonymousPrincipal('0:0:0:1::5')).toBe('ip:0:0:0:1::/64')
    expect(anonymousPrincipal('fe80::1%eth0')).toBe('ip:fe80::/64')
    expect(anonymousPrincipal('64:ff9b::192.0.2.1')).toBe('ip:64:ff9b::/64')
    expect(anonymousPrincipal('1:2:3:4:5:6:192.0.2.1')).toBe('ip:1:2:3:4::/64')
  })

  it('IPv4 stays per address; IPv4-mapped IPv6 is the IPv4 address; ::1 is itself', () => {
    fc.assert(
      fc.property(uint32, (n) => {
        expect(anonymousPrincipal(v4(n))).toBe(`ip:${v4(n)}`)
      }),
    )
    expect(anonymousPrincipal('::ffff:192.0.2.7')).toBe('ip:192.0.2.7')
    expect(anonymousPrincipal('::FFFF:c000:207')).toBe('ip:192.0.2.7')
    expect(anonymousPrincipal('::1')).toBe('ip:::1')
    expect(anonymousPrincipal('::2')).toBe('ip:::2')
    expect(anonymousPrincipal('unknown')).toBe('ip:unknown')
  })
})
