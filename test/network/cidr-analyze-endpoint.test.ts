import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

const analyze = async (cidr: string, encode = true) => {
  const res = await t.json(`/api/cidr/analyze/${encode ? encodeURIComponent(cidr) : cidr}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

const TWO_128 = (1n << 128n).toString()

describe('GET /api/cidr/analyze/{cidr}', () => {
  it('answers every field for an IPv4 block with host bits set', async () => {
    const res = await t.json('/api/cidr/analyze/192.168.1.77%2F24')
    expect(res.status).toBe(200)
    expect(res.body.meta).toEqual({ cache: 'miss', category: 'network', endpoint: 'network.cidr-analyze', tier: 'anonymous' })
    expect(res.body.data).toEqual({
      cidr: '192.168.1.0/24',
      input: '192.168.1.77/24',
      version: 4,
      prefix_length: 24,
      host_bits_set: true,
      network: '192.168.1.0',
      broadcast: '192.168.1.255',
      first_address: '192.168.1.0',
      last_address: '192.168.1.255',
      first_usable: '192.168.1.1',
      last_usable: '192.168.1.254',
      netmask: '255.255.255.0',
      wildcard: '0.0.0.255',
      total_addresses: '256',
      usable_hosts: '254',
      usable_rule: 'ipv4-network-and-broadcast',
      usable_note: 'the network and broadcast addresses are not assignable to hosts',
      bits: {
        total_bits: 32,
        network_bits: 24,
        host_bits: 8,
        network: '110000001010100000000001',
        host: '01001101',
        annotated: '11000000.10101000.00000001|01001101',
      },
      historic_class: 'C',
      classification: { class: 'private', name: 'Private-Use', prefix: '192.168.0.0/16', registry: 'special-purpose' },
      special_purpose: [
        {
          prefix: '192.168.0.0/16',
          name: 'Private-Use',
          class: 'private',
          rfcs: ['RFC 1918'],
          spec: 'RFC 1918',
          allocated: '1996-02',
          terminated: null,
          source: true,
          destination: true,
          forwardable: true,
          globally_reachable: false,
          reserved_by_protocol: false,
          notes: [],
        },
      ],
      special_purpose_within: [],
    })
  })

  it('answers every field for an IPv6 /64, counts beyond 2^53 exact', async () => {
    const d = await analyze('2001:db8:1234:5678::/64')
    expect(d).toMatchObject({
      cidr: '2001:db8:1234:5678::/64',
      version: 6,
      prefix_length: 64,
      host_bits_set: false,
      network: '2001:db8:1234:5678::',
      broadcast: null,
      first_address: '2001:db8:1234:5678::',
      last_address: '2001:db8:1234:5678:ffff:ffff:ffff:ffff',
      first_usable: '2001:db8:1234:5678::1',
      last_usable: '2001:db8:1234:5678:ffff:ffff:ffff:ffff',
      netmask: 'ffff:ffff:ffff:ffff::',
      wildcard: '::ffff:ffff:ffff:ffff',
      total_addresses: '18446744073709551616',
      usable_hosts: '18446744073709551615',
      usable_rule: 'ipv6-subnet-router-anycast',
      historic_class: null,
      classification: { class: 'documentation', prefix: '2001:db8::/32', registry: 'special-purpose' },
    })
    expect(d.bits).toMatchObject({ total_bits: 128, network_bits: 64, host_bits: 64 })
    expect(d.bits.annotated).toBe(
      '0010000000000001:0000110110111000:0001001000110100:0101011001111000|0000000000000000:0000000000000000:0000000000000000:0000000000000000',
    )
    expect(d.special_purpose.map((s: { prefix: string }) => s.prefix)).toEqual(['2001:db8::/32'])
  })

  // RFC 3021 (/31), host routes, RFC 6164 (/127), and the widest blocks.
  it.each([
    ['10.0.0.0/30', '4', '2', 'ipv4-network-and-broadcast', '10.0.0.1', '10.0.0.2', '10.0.0.3'],
    ['10.0.0.0/31', '2', '2', 'ipv4-rfc3021-point-to-point', '10.0.0.0', '10.0.0.1', null],
    ['10.0.0.7/32', '1', '1', 'single-address', '10.0.0.7', '10.0.0.7', null],
    ['0.0.0.0/0', '4294967296', '4294967294', 'ipv4-network-and-broadcast', '0.0.0.1', '255.255.255.254', '255.255.255.255'],
    ['2001:db8::/126', '4', '3', 'ipv6-subnet-router-anycast', '2001:db8::1', '2001:db8::3', null],
    ['2001:db8::/127', '2', '2', 'ipv6-rfc6164-point-to-point', '2001:db8::', '2001:db8::1', null],
    ['2001:db8::1/128', '1', '1', 'single-address', '2001:db8::1', '2001:db8::1', null],
    ['::/0', TWO_128, (1n << 128n) - 1n + '', 'ipv6-subnet-router-anycast', '::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
  ])('%s: %s addresses, %s usable (%s)', async (cidr, total, usable, rule, first, last, broadcast) => {
    const d = await analyze(cidr)
    expect(d.total_addresses).toBe(total)
    expect(d.usable_hosts).toBe(usable)
    expect(d.usable_rule).toBe(rule)
    expect(d.first_usable).toBe(first)
    expect(d.last_usable).toBe(last)
    expect(d.broadcast).toBe(broadcast)
  })

  it.each([
    ['100.64.0.0/10', 'cgnat', 'Shared Address Space'],
    ['192.0.2.0/24', 'documentation', 'Documentation (TEST-NET-1)'],
    ['127.0.0.0/8', 'loopback', 'Loopback'],
    ['169.254.0.0/16', 'link-local', 'Link Local'],
    ['224.0.0.0/4', 'multicast', 'Multicast'],
    ['8.8.8.0/24', 'public', 'Administered by ARIN'],
    ['fc00::/7', 'unique-local', 'Unique-Local'],
    ['2002::/16', '6to4', '6to4'],
    ['64:ff9b::/96', 'nat64', 'IPv4-IPv6 Translat.'],
  ])('%s is classed %s', async (cidr, cls, name) => {
    const d = await analyze(cidr)
    expect(d.classification.class).toBe(cls)
    expect(d.classification.name).toBe(name)
  })

  it('lists registry blocks inside a wide block, and calls a block spanning differently classed space "mixed"', async () => {
    expect((await analyze('0.0.0.0/0')).classification).toEqual({ class: 'mixed', name: 'spans differently classed registry blocks', prefix: null, registry: null })
    const d = await analyze('192.0.0.0/16')
    expect(d.classification).toEqual({ class: 'public', name: 'Administered by ARIN', prefix: '192.0.0.0/8', registry: 'address-space' })
    expect(d.special_purpose).toEqual([])
    expect(d.special_purpose_within.map((s: { prefix: string }) => s.prefix)).toEqual(
      expect.arrayContaining(['192.0.0.0/24', '192.0.0.0/29', '192.0.0.9/32', '192.0.2.0/24']),
    )
  })

  it('accepts the block with the slash as %2F, unencoded (two segments), bracketed IPv6, and as ?cidr=', async () => {
    const expected = await analyze('10.1.2.3/8')
    for (const path of ['/api/cidr/analyze/10.1.2.3%2F8', '/api/cidr/analyze/10.1.2.3%2f8', '/api/cidr/analyze/10.1.2.3/8', '/api/cidr/analyze?cidr=10.1.2.3%2F8']) {
      const res = await t.json(path)
      expect(res.status, path).toBe(200)
      expect(res.body.data, path).toEqual(expected)
    }
    expect(expected).toMatchObject({ cidr: '10.0.0.0/8', input: '10.1.2.3/8', host_bits_set: true })
    const v6 = await t.json('/api/cidr/analyze/2001:DB8::1/64')
    expect(v6.body.data).toMatchObject({ cidr: '2001:db8::/64', input: '2001:db8::1/64', host_bits_set: true })
    expect((await t.json(`/api/cidr/analyze/${encodeURIComponent('[2001:db8::1]/64')}`)).body.data.cidr).toBe('2001:db8::/64')
  })

  it.each([
    ['1.2.3.4/33', 'the prefix length 33 is out of range; IPv4 prefix lengths are 0-32'],
    ['::1/129', 'the prefix length 129 is out of range; IPv6 prefix lengths are 0-128'],
    ['2001:db8::/', 'the prefix length after "/" is missing; write a number 0-128, like /64'],
    ['256.1.1.1/8', 'octet 1 is 256'],
    ['01.2.3.4/8', 'octet 1 "01" has a leading zero'],
    ['1.2.3/24', 'IPv4'],
    ['10.0.0.0', 'the prefix length is missing; write it as 10.0.0.0/32'],
    ['10.0.0.0/255.0.0.0', '"255.0.0.0" is a netmask; write the prefix length /8 instead'],
    ['fe80::/64%eth0', 'the prefix length "64%eth0" must be a decimal number 0-128'],
    ['example.com/24', 'host name'],
  ])('%s is 400 with the reason', async (cidr, reason) => {
    const res = await t.json(`/api/cidr/analyze/${encodeURIComponent(cidr)}`)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error.code).toBe('bad_request')
    expect(res.body.error.details.param).toBe('cidr')
    expect(res.body.error.message).toMatch(/^Invalid "cidr": /)
    expect(res.body.error.message).toContain(reason)
  })

  it('an unencoded trailing slash is dropped by the router, and the message still says what to write', async () => {
    const res = await t.json('/api/cidr/analyze/2001:db8::/')
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain('the prefix length is missing; write it as 2001:db8::/128')
  })

  it('a missing block is 400 (or the bare path asks for it)', async () => {
    const res = await t.json('/api/cidr/analyze')
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('Missing required parameter "cidr".')
  })

  it('serializes as csv and yaml', async () => {
    const res = await t.request('/api/cidr/analyze/10.0.0.0%2F31?format=csv')
    expect(res.headers.get('content-type')).toMatch(/text\/csv/)
    const [header, row] = (await res.text()).trim().split('\r\n')
    const cols = header!.split(',')
    const cells = row!.split(',')
    expect(cells[cols.indexOf('usable_hosts')]).toBe('2')
    expect(cells[cols.indexOf('broadcast')]).toBe('')
  })
})
