import fc from 'fast-check'
import ipaddr from 'ipaddr.js'
import { describe, expect, it } from 'vitest'
import { analyzeCidr } from '../../plugins/network/cidr/analyze.ts'
import { expandCidr } from '../../plugins/network/cidr/expand.ts'
import { EXPAND_MAX_LIMIT } from '../../registry/network/schemas/cidr-expand-limits.ts'
import type { Cidr, IpVersion } from '../../runtime/ip/ip-types.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { anyIpv6, mustCidr, uint32 } from './arbitraries.ts'

describe('parseCidr', () => {
  it.each([
    ['192.0.2.0/24', 4, 0xc0000200n, 24, false],
    ['10.1.2.3/8', 4, 0x0a000000n, 8, true],
    ['0.0.0.0/0', 4, 0n, 0, false],
    ['255.255.255.255/32', 4, 0xffffffffn, 32, false],
    ['2001:db8::/32', 6, 0x20010db8n << 96n, 32, false],
    ['::/0', 6, 0n, 0, false],
    ['::1/128', 6, 1n, 128, false],
    ['[2001:db8::1]/64', 6, 0x20010db8n << 96n, 64, true],
  ])('%s', (text, version, network, prefixLength, hostBitsSet) => {
    const r = parseCidr(text)
    expect(r.ok && r.value).toMatchObject({ version, network, prefixLength, hostBitsSet })
  })

  it.each([
    ['1.2.3.4/33', /prefix length 33 is out of range; IPv4 prefix lengths are 0-32/],
    ['::1/129', /prefix length 129 is out of range; IPv6 prefix lengths are 0-128/],
    ['2001:db8::/', /prefix length after "\/" is missing; write a number 0-128/],
    ['1.2.3.4/', /prefix length after "\/" is missing; write a number 0-32/],
    ['/24', /address before "\/" is missing/],
    ['1.2.3.0/024', /prefix length "024" has a leading zero; write \/24/],
    ['1.2.3.0/00', /leading zero; write \/0/],
    ['1.2.3.0/+24', /must be a decimal number 0-32/],
    ['1.2.3.0/ 24', /must be a decimal number 0-32/],
    ['1.2.3.0/24/25', /more than one "\/"/],
    ['1.2.3.0/255.255.255.0', /"255\.255\.255\.0" is a netmask; write the prefix length \/24 instead/],
    ['1.2.3.0/255.0.255.0', /not a contiguous netmask/],
    ['1.2.3.4', /prefix length is missing; write it as 1\.2\.3\.4\/32/],
    ['::1', /write it as ::1\/128/],
    ['256.0.0.0/8', /octet 1 is 256/],
    ['01.0.0.0/8', /leading zero/],
    ['fe80::%eth0/64', /zone id/],
    ['', /the block is empty/],
  ])('refuses %j: %s', (text, reason) => {
    const r = parseCidr(text)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.reason).toMatch(reason)
      expect(r.error.input).toBe(text)
    }
  })

  it('reads a bare address as a host block when asked', () => {
    expect(parseCidr('192.0.2.1', { bare: 'host' })).toMatchObject({ ok: true, value: { prefixLength: 32 } })
    expect(parseCidr('::1', { bare: 'host' })).toMatchObject({ ok: true, value: { prefixLength: 128 } })
  })
})

const cidrArb = fc.oneof(
  fc.record({ version: fc.constant<IpVersion>(4), value: uint32.map(BigInt), prefixLength: fc.integer({ min: 0, max: 32 }) }),
  fc.record({ version: fc.constant<IpVersion>(6), value: anyIpv6, prefixLength: fc.integer({ min: 0, max: 128 }) }),
)

function toCidr(version: IpVersion, value: bigint, prefixLength: number): Cidr {
  const bits = version === 4 ? 32 : 128
  const host = (1n << BigInt(bits - prefixLength)) - 1n
  const network = value & ~host
  return { version, address: value, network, prefixLength, hostBitsSet: network !== value }
}

/** An address as ipaddr.js writes it (RFC 5952 for IPv6), from its bytes: no code under test involved. */
function addressText(version: IpVersion, value: bigint): string {
  const length = version === 4 ? 4 : 16
  const bytes = Array.from({ length }, (_, i) => Number((value >> BigInt(8 * (length - 1 - i))) & 0xffn))
  const address = ipaddr.fromByteArray(bytes)
  return address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString()
}

function ipValue(text: string): bigint {
  const r = parseIp(text)
  if (!r.ok) throw new Error(r.error.reason)
  return r.value.value
}

describe('analyzeCidr', () => {
  it('a /24 with host bits set', () => {
    expect(analyzeCidr(mustCidr('192.168.1.77/24'))).toEqual({
      version: 4,
      cidr: '192.168.1.0/24',
      address: '192.168.1.77',
      prefixLength: 24,
      hostBitsSet: true,
      network: '192.168.1.0',
      broadcast: '192.168.1.255',
      firstAddress: '192.168.1.0',
      lastAddress: '192.168.1.255',
      firstUsable: '192.168.1.1',
      lastUsable: '192.168.1.254',
      netmask: '255.255.255.0',
      wildcard: '0.0.0.255',
      totalAddresses: '256',
      usableHosts: '254',
      usableRule: 'ipv4-network-and-broadcast',
      usableNote: expect.any(String),
      bits: {
        totalBits: 32,
        networkBits: 24,
        hostBits: 8,
        network: '110000001010100000000001',
        host: '01001101',
        annotated: '11000000.10101000.00000001|01001101',
      },
      historicClass: 'C',
    })
  })

  it.each([
    ['10.0.0.0/30', { usableHosts: '2', totalAddresses: '4', firstUsable: '10.0.0.1', lastUsable: '10.0.0.2', broadcast: '10.0.0.3' }],
    // RFC 3021: both addresses of a /31, no broadcast.
    ['10.0.0.0/31', { usableHosts: '2', firstUsable: '10.0.0.0', lastUsable: '10.0.0.1', broadcast: null, usableRule: 'ipv4-rfc3021-point-to-point' }],
    ['10.0.0.7/32', { usableHosts: '1', firstUsable: '10.0.0.7', lastUsable: '10.0.0.7', broadcast: null, usableRule: 'single-address' }],
    ['0.0.0.0/0', { totalAddresses: '4294967296', usableHosts: '4294967294', netmask: '0.0.0.0', wildcard: '255.255.255.255' }],
    // RFC 6164: both addresses of a /127.
    ['2001:db8::/127', { usableHosts: '2', firstUsable: '2001:db8::', lastUsable: '2001:db8::1', usableRule: 'ipv6-rfc6164-point-to-point' }],
    ['2001:db8::5/128', { usableHosts: '1', usableRule: 'single-address' }],
    // Subnet-Router anycast (all zeros) excluded, no broadcast: last address usable.
    [
      '2001:db8::/64',
      {
        totalAddresses: '18446744073709551616',
        usableHosts: '18446744073709551615',
        firstUsable: '2001:db8::1',
        lastUsable: '2001:db8::ffff:ffff:ffff:ffff',
        broadcast: null,
        netmask: 'ffff:ffff:ffff:ffff::',
        wildcard: '::ffff:ffff:ffff:ffff',
      },
    ],
    ['::/0', { totalAddresses: '340282366920938463463374607431768211456', usableHosts: '340282366920938463463374607431768211455' }],
    ['2001:db8::/126', { totalAddresses: '4', usableHosts: '3', firstUsable: '2001:db8::1', lastUsable: '2001:db8::3' }],
  ])('%s', (text, expected) => {
    expect(analyzeCidr(mustCidr(text))).toMatchObject(expected)
  })

  it('counts follow 2^(bits - prefix) and the usable rules, exactly, for every block', () => {
    fc.assert(
      fc.property(cidrArb, ({ version, value, prefixLength }) => {
        const a = analyzeCidr(toCidr(version, value, prefixLength))
        const bits = version === 4 ? 32 : 128
        const hostBits = bits - prefixLength
        const total = 1n << BigInt(hostBits)
        expect(a.totalAddresses).toBe(total.toString())
        const reserved = hostBits === 0 || hostBits === 1 ? 0n : version === 4 ? 2n : 1n
        expect(a.usableHosts).toBe((total - reserved).toString())
        expect(a.bits.network.length + a.bits.host.length).toBe(bits)
        expect(a.bits.networkBits).toBe(prefixLength)
        expect(a.bits.annotated.split('|')).toHaveLength(2)
        const net = ipValue(a.network)
        const last = ipValue(a.lastAddress)
        const mask = ipValue(a.netmask)
        const wild = ipValue(a.wildcard)
        expect(last - net + 1n).toBe(total)
        expect(mask + wild).toBe((1n << BigInt(bits)) - 1n)
        expect(net & wild).toBe(0n)
        expect(net | wild).toBe(last)
        const maskBits = mask.toString(2).padStart(bits, '0')
        expect(maskBits).toBe('1'.repeat(prefixLength) + '0'.repeat(hostBits))
        const first = ipValue(a.firstUsable)
        const lastUsable = ipValue(a.lastUsable)
        expect(lastUsable - first + 1n).toBe(total - reserved)
        expect(a.broadcast === null).toBe(version === 6 || hostBits <= 1)
        expect(a.hostBitsSet).toBe((value & wild) !== 0n)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('expandCidr', () => {
  it('pages a small block', () => {
    expect(expandCidr(mustCidr('192.0.2.0/30'), 0, 3)).toEqual({
      ok: true,
      value: {
        version: 4,
        cidr: '192.0.2.0/30',
        total: '4',
        offset: '0',
        limit: 3,
        addresses: ['192.0.2.0', '192.0.2.1', '192.0.2.2'],
        nextOffset: '3',
      },
    })
    expect(expandCidr(mustCidr('192.0.2.0/30'), 3, 3)).toMatchObject({ value: { addresses: ['192.0.2.3'], nextOffset: null } })
    expect(expandCidr(mustCidr('192.0.2.0/30'), 4, 3)).toMatchObject({ value: { addresses: [], nextOffset: null } })
  })

  it('pages ::/0 at offsets beyond 2^53 and at its very end', () => {
    const all = mustCidr('::/0')
    const end = (1n << 128n) - 2n
    expect(expandCidr(all, end.toString(), 5)).toMatchObject({
      ok: true,
      value: {
        total: '340282366920938463463374607431768211456',
        addresses: ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
        nextOffset: null,
      },
    })
    expect(expandCidr(all, 2n ** 64n, 2)).toMatchObject({ value: { addresses: ['0:0:0:1::', '::1:0:0:0:1'], nextOffset: '18446744073709551618' } })
    expect(expandCidr(all, '9'.repeat(100), 2)).toMatchObject({ ok: true, value: { addresses: [], offset: '9'.repeat(100) } })
    expect(expandCidr(mustCidr('0.0.0.0/0'), 4294967295, 2)).toMatchObject({ value: { addresses: ['255.255.255.255'] } })
  })

  it('rejects bad offsets and limits with reasons', () => {
    const block = mustCidr('10.0.0.0/24')
    expect(expandCidr(block, -1)).toMatchObject({ ok: false, error: { code: 'offset' } })
    expect(expandCidr(block, 1.5)).toMatchObject({ ok: false, error: { code: 'offset' } })
    expect(expandCidr(block, 2 ** 60)).toMatchObject({ ok: false, error: { reason: expect.stringMatching(/decimal string/) } })
    expect(expandCidr(block, '12a')).toMatchObject({ ok: false, error: { code: 'offset' } })
    expect(expandCidr(block, 0, 0)).toMatchObject({ ok: false, error: { code: 'limit' } })
    expect(expandCidr(block, 0, EXPAND_MAX_LIMIT + 1)).toMatchObject({ ok: false, error: { code: 'limit' } })
  })

  it('page k equals the k-th slice of the whole block (addresses computed independently)', () => {
    const small = fc.oneof(
      fc.record({ version: fc.constant<IpVersion>(4), value: uint32.map(BigInt), prefixLength: fc.integer({ min: 22, max: 32 }) }),
      fc.record({ version: fc.constant<IpVersion>(6), value: anyIpv6, prefixLength: fc.integer({ min: 118, max: 128 }) }),
    )
    // k: nine draws in ten a page inside the block, else one of the first pages past its end
    const page = fc.oneof({ weight: 9, arbitrary: fc.nat().map((n) => ({ inside: true, n })) }, { weight: 1, arbitrary: fc.nat({ max: 2 }).map((n) => ({ inside: false, n })) })
    let nonEmpty = 0
    fc.assert(
      fc.property(small, fc.integer({ min: 1, max: 300 }), page, ({ version, value, prefixLength }, limit, pick) => {
        const bits = version === 4 ? 32 : 128
        const size = 1n << BigInt(bits - prefixLength)
        const network = (value >> BigInt(bits - prefixLength)) << BigInt(bits - prefixLength)
        const pages = Number((size + BigInt(limit) - 1n) / BigInt(limit))
        const k = pick.inside ? pick.n % pages : pages + pick.n
        const from = BigInt(k * limit)
        const expected: string[] = []
        for (let i = from; i < from + BigInt(limit) && i < size; i++) expected.push(addressText(version, network + i))

        const got = expandCidr(toCidr(version, value, prefixLength), k * limit, limit)
        if (!got.ok) throw new Error(got.error.reason)
        expect(got.value.total).toBe(size.toString())
        expect(got.value.addresses).toEqual(expected)
        expect(got.value.nextOffset).toBe(from + BigInt(limit) < size ? (from + BigInt(limit)).toString() : null)
        if (expected.length > 0) nonEmpty++
      }),
      { numRuns: 300 },
    )
    // the property is about pages with addresses on them, not mostly about empty ones
    expect(nonEmpty).toBeGreaterThan(200)
  })
})
