import fc from 'fast-check'
import ipaddr from 'ipaddr.js'
import { describe, expect, it } from 'vitest'
import { embeddedIpv4, toIpv4Mapped } from '../../runtime/ip/embedded-ipv4.ts'
import {
  formatCidr,
  formatIp,
  formatIpv6,
  formatIpv6Expanded,
  toBinary,
  toDecimal,
  toHex,
} from '../../runtime/ip/format.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { reversePointer } from '../../runtime/ip/reverse-pointer.ts'
import { anyIpv6, ipv6Text, mustCidr, mustIp, uint32, v4 } from './arbitraries.ts'

describe('RFC 5952 section 4 compression', () => {
  it.each([
    // 4.1 leading zeros dropped; 4.2.1 longest run; 4.2.2 a single zero group stays;
    // 4.2.3 first run on a tie; 4.3 lowercase.
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:0:0:2:1', '2001:db8::2:1'],
    ['2001:db8:0000:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['2001:DB8::AAAA', '2001:db8::aaaa'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['1:0:0:0:0:0:0:0', '1::'],
    ['1:0:1:0:1:0:1:0', '1:0:1:0:1:0:1:0'],
    ['0:1:0:1:0:1:0:1', '0:1:0:1:0:1:0:1'],
    ['::ffff:1.2.3.4', '::ffff:102:304'],
  ])('%s -> %s', (input, expected) => {
    const ip = mustIp(input)
    expect(formatIp(ip)).toBe(expected)
  })

  it('matches WHATWG URL serialization and ipaddr.js toRFC5952String for any value', () => {
    fc.assert(
      fc.property(anyIpv6, (value) => {
        const ours = formatIpv6(value)
        const url = new URL(`http://[${formatIpv6Expanded(value)}]/`).hostname
        expect(`[${ours}]`).toBe(url)
        expect(ours).toBe(ipaddr.IPv6.parse(formatIpv6Expanded(value)).toRFC5952String())
      }),
      { numRuns: 3000 },
    )
  })

  it('is canonical: format(parse(x)) is the same for every spelling of a value', () => {
    fc.assert(
      fc.property(ipv6Text, ({ value, text }) => {
        const parsed = parseIp(text)
        expect(parsed.ok && formatIp(parsed.value)).toBe(formatIpv6(value))
      }),
    )
  })

  it('writes mapped and translated addresses with a dotted tail only when asked (section 5)', () => {
    expect(formatIpv6(mustIp('::ffff:192.0.2.1').value, { mixed: true })).toBe('::ffff:192.0.2.1')
    expect(formatIpv6(mustIp('::ffff:0:192.0.2.1').value, { mixed: true })).toBe('::ffff:0:192.0.2.1')
    expect(formatIpv6(mustIp('64:ff9b::192.0.2.1').value, { mixed: true })).toBe('64:ff9b::c000:201')
    expect(formatIpv6(mustIp('::1').value, { mixed: true })).toBe('::1')
  })
})

describe('other forms', () => {
  it('expanded IPv6 is eight four-digit groups', () => {
    expect(formatIpv6Expanded(mustIp('2001:db8::1').value)).toBe('2001:0db8:0000:0000:0000:0000:0000:0001')
    expect(formatIpv6Expanded(0n)).toBe('0000:0000:0000:0000:0000:0000:0000:0000')
    fc.assert(
      fc.property(anyIpv6, (value) => {
        const text = formatIpv6Expanded(value)
        expect(text).toMatch(/^([0-9a-f]{4}:){7}[0-9a-f]{4}$/)
        expect(ipaddr.parse(text).toNormalizedString()).toBe(ipaddr.parse(formatIpv6(value)).toNormalizedString())
      }),
    )
  })

  it('decimal, hex and binary', () => {
    const a = mustIp('192.0.2.1')
    expect(toDecimal(a)).toBe('3221225985')
    expect(toHex(a)).toBe('0xc0000201')
    expect(toBinary(a)).toBe('11000000000000000000001000000001')
    const b = mustIp('::1')
    expect(toDecimal(b)).toBe('1')
    expect(toHex(b)).toBe(`0x${'0'.repeat(31)}1`)
    expect(toBinary(b)).toBe(`${'0'.repeat(127)}1`)
    const max = mustIp('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')
    expect(toDecimal(max)).toBe('340282366920938463463374607431768211455')
  })

  it('dotted IPv4 round-trips through the number', () => {
    fc.assert(
      fc.property(uint32, (n) => {
        expect(formatIp({ version: 4, value: BigInt(n) })).toBe(v4(n))
      }),
    )
  })

  it('formats a CIDR by its network', () => {
    expect(formatCidr(mustCidr('10.1.2.3/8'))).toBe('10.0.0.0/8')
    expect(formatCidr(mustCidr('2001:DB8::1/32'))).toBe('2001:db8::/32')
  })
})

describe('reverse pointer names', () => {
  it.each([
    ['192.0.2.1', '1.2.0.192.in-addr.arpa'],
    ['0.0.0.0', '0.0.0.0.in-addr.arpa'],
    ['2001:db8::567:89ab', 'b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa'],
    ['::1', `1.${'0.'.repeat(31)}ip6.arpa`],
  ])('%s', (ip, name) => {
    expect(reversePointer(mustIp(ip))).toBe(name)
  })

  it('has 32 nibbles for any IPv6 address', () => {
    fc.assert(
      fc.property(anyIpv6, (value) => {
        const name = reversePointer({ version: 6, value })
        const nibbles = name.split('.').slice(0, 32)
        expect(BigInt(`0x${nibbles.reverse().join('')}`)).toBe(value)
      }),
    )
  })
})

describe('embedded IPv4', () => {
  it.each([
    ['::ffff:192.0.2.1', { kind: 'mapped', ipv4: '192.0.2.1' }],
    ['::192.0.2.1', { kind: 'compatible', ipv4: '192.0.2.1', deprecated: true }],
    ['64:ff9b::c000:221', { kind: 'nat64', ipv4: '192.0.2.33' }],
    ['2002:c000:204::1', { kind: '6to4', ipv4: '192.0.2.4' }],
    // RFC 4380 section 4's example: server 65.54.227.120, cone NAT, client 192.0.2.45:40000.
    [
      '2001:0000:4136:e378:8000:63bf:3fff:fdd2',
      { kind: 'teredo', ipv4: '192.0.2.45', server: '65.54.227.120', clientPort: 40000, flags: 0x8000, cone: true },
    ],
  ])('%s', (ip, expected) => {
    expect(embeddedIpv4(mustIp(ip))).toMatchObject(expected)
  })

  it.each(['::', '::1', '2001:db8::1', '64:ff9b:1::1', '192.0.2.1', '::fffe:1.2.3.4'])('%s carries none', (ip) => {
    expect(embeddedIpv4(mustIp(ip))).toBeNull()
  })

  it('maps IPv4 into ::ffff:0:0/96 and back', () => {
    fc.assert(
      fc.property(uint32, (n) => {
        const mapped = toIpv4Mapped({ version: 4, value: BigInt(n) })
        expect(formatIpv6(mapped.value, { mixed: true })).toBe(`::ffff:${v4(n)}`)
        expect(embeddedIpv4(mapped)).toMatchObject({ kind: 'mapped', ipv4: v4(n) })
      }),
    )
  })
})
