import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { BlockList } from 'node:net'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IPV4_ADDRESS_SPACE, IPV6_ADDRESS_SPACE } from '../../runtime/ip/address-space-data.ts'
import { bogonCheck, isBogon } from '../../runtime/ip/bogon.ts'
import { IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE } from '../../runtime/ip/special-purpose-data.ts'
import { describeIp } from '../../runtime/ip/describe-ip.ts'
import { classify, lookupSpecialPurpose, REGISTRY_SOURCES } from '../../runtime/ip/special-purpose.ts'
import { mustCidr, mustIp, uint32, v4 } from './arbitraries.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const FIXTURES = new URL('../fixtures/iana/', import.meta.url)

function fixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8')
}

describe('generated registry data', () => {
  it('has every record of both special-purpose registries, with dates and sources', () => {
    expect(IPV4_SPECIAL_PURPOSE.entries).toHaveLength(fixture('iana-ipv4-special-registry.xml').split('<record').length - 1)
    expect(IPV6_SPECIAL_PURPOSE.entries).toHaveLength(fixture('iana-ipv6-special-registry.xml').split('<record').length - 1)
    expect(IPV4_SPECIAL_PURPOSE).toMatchObject({
      updated: '2021-02-04',
      source: 'https://www.iana.org/assignments/iana-ipv4-special-registry/iana-ipv4-special-registry.xml',
    })
    expect(IPV6_SPECIAL_PURPOSE).toMatchObject({
      updated: '2023-03-15',
      source: 'https://www.iana.org/assignments/iana-ipv6-special-registry/iana-ipv6-special-registry.xml',
    })
    expect(IPV4_ADDRESS_SPACE.entries).toHaveLength(256)
    expect(IPV6_ADDRESS_SPACE.entries.map((e) => e.prefix)).toContain('2000::/3')
    expect(REGISTRY_SOURCES.map((r) => r.updated)).toEqual(['2021-02-04', '2023-03-15', '2023-12-18', '2019-09-13'])
  })

  it('reads flags, RFCs, notes and multi-block entries faithfully', () => {
    const byBlock = (b: string) => [...IPV4_SPECIAL_PURPOSE.entries, ...IPV6_SPECIAL_PURPOSE.entries].find((e) => e.addressBlocks.includes(b))
    expect(byBlock('10.0.0.0/8')).toMatchObject({
      name: 'Private-Use',
      class: 'private',
      rfcs: ['RFC 1918'],
      allocated: '1996-02',
      terminated: null,
      source: true,
      destination: true,
      forwardable: true,
      globallyReachable: false,
      reservedByProtocol: false,
    })
    expect(byBlock('192.0.0.171/32')).toMatchObject({ addressBlocks: ['192.0.0.170/32', '192.0.0.171/32'], rfcs: ['RFC 8880', 'RFC 7050'] })
    expect(byBlock('192.88.99.0/24')).toMatchObject({ terminated: '2015-03', globallyReachable: null, source: null })
    expect(byBlock('2001::/32')).toMatchObject({ class: 'teredo', globallyReachable: null })
    expect(byBlock('2001::/32')?.notes.join(' ')).toMatch(/N\/A.*Section 5 of RFC 4380/)
    expect(byBlock('127.0.0.0/8')?.notes.join(' ')).toMatch(/exceptions/)
    for (const e of [...IPV4_SPECIAL_PURPOSE.entries, ...IPV6_SPECIAL_PURPOSE.entries]) {
      expect(e.class).not.toBe('special')
      expect(e.rfcs.length).toBeGreaterThan(0)
      // The registry's own consistency rule: no destination means not forwardable, not global.
      if (e.destination === false) {
        expect(e.forwardable).toBe(false)
        expect(e.globallyReachable).toBe(false)
      }
    }
  })

  it('is what the generator makes from the XML today (--check)', () => {
    const run = () =>
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/gen-special-purpose.ts', '--check'], { cwd: ROOT, stdio: 'pipe' })
    expect(run).not.toThrow()
  })
})

describe('lookupSpecialPurpose', () => {
  it('returns containing entries most specific first', () => {
    expect(lookupSpecialPurpose(mustIp('192.0.0.9')).matches.map((m) => m.prefix)).toEqual(['192.0.0.9/32', '192.0.0.0/24'])
    expect(lookupSpecialPurpose(mustIp('0.0.0.0')).matches.map((m) => m.prefix)).toEqual(['0.0.0.0/32', '0.0.0.0/8'])
    expect(lookupSpecialPurpose(mustIp('2001:0:1::1')).matches.map((m) => m.prefix)).toEqual(['2001::/32', '2001::/23'])
    expect(lookupSpecialPurpose(mustIp('8.8.8.8')).matches).toEqual([])
  })

  it('for a block, also lists the entries inside it', () => {
    const r = lookupSpecialPurpose(mustCidr('192.0.0.0/23'))
    expect(r.matches).toEqual([])
    expect(r.within.map((m) => m.prefix)).toEqual([
      '192.0.0.0/24',
      '192.0.0.0/29',
      '192.0.0.8/32',
      '192.0.0.9/32',
      '192.0.0.10/32',
      '192.0.0.170/32',
      '192.0.0.171/32',
    ])
    expect(lookupSpecialPurpose(mustCidr('10.20.0.0/16')).matches.map((m) => m.prefix)).toEqual(['10.0.0.0/8'])
  })
})

describe('classify', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', 'public'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['198.19.255.255', 'benchmarking'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this-network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.0.9', 'anycast'],
    ['8.8.8.8', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:10.0.0.1', 'ipv4-mapped'],
    ['64:ff9b::8.8.8.8', 'nat64'],
    ['100::1', 'discard'],
    ['2001::1', 'teredo'],
    ['2001:db8::1', 'documentation'],
    ['2002:c000:204::1', '6to4'],
    ['fd00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'reserved'],
    ['2606:4700::1111', 'public'],
    ['4000::1', 'reserved'],
  ])('%s is %s', (ip, cls) => {
    expect(classify(mustIp(ip)).class).toBe(cls)
  })

  it('classifies blocks by what contains them, or by agreement, or as mixed', () => {
    expect(classify(mustCidr('10.0.0.0/16'))).toMatchObject({ class: 'private', prefix: '10.0.0.0/8' })
    expect(classify(mustCidr('224.0.0.0/4'))).toMatchObject({ class: 'multicast', prefix: null })
    expect(classify(mustCidr('0.0.0.0/0')).class).toBe('mixed')
    expect(classify(mustCidr('2000::/3'))).toMatchObject({ class: 'public', prefix: '2000::/3' })
    expect(classify(mustCidr('::/0')).class).toBe('mixed')
  })
})

describe('bogons', () => {
  it.each([
    ['10.0.0.1', true],
    ['100.64.0.1', true],
    ['127.0.0.1', true],
    ['169.254.169.254', true],
    ['192.0.0.1', true],
    ['192.0.0.9', false],
    ['192.0.0.10', false],
    ['192.0.2.1', true],
    ['192.31.196.1', false],
    ['192.88.99.1', false],
    ['198.18.0.1', true],
    ['224.0.0.1', true],
    ['240.0.0.1', true],
    ['255.255.255.255', true],
    ['0.0.0.0', true],
    ['1.1.1.1', false],
    ['8.8.8.8', false],
    ['::', true],
    ['::1', true],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::8.8.8.8', false],
    ['64:ff9b::10.0.0.1', true],
    ['64:ff9b:1::1', true],
    ['2001:db8::1', true],
    ['2001:1::1', false],
    ['2001:4:112::1', false],
    ['2001:10::1', true],
    ['2001:20::1', false],
    ['2002:0808:0808::1', false],
    ['2002:0a00:0001::1', true],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', false],
    ['2620:4f:8000::1', false],
    ['fc00::1', true],
    ['fe80::1', true],
    ['fec0::1', true],
    ['ff02::1', true],
    ['4000::1', true],
    ['2606:4700::1111', false],
  ])('%s bogon=%s', (ip, bogon) => {
    const verdict = bogonCheck(mustIp(ip))
    expect(verdict.bogon).toBe(bogon)
    expect(verdict.reason.length).toBeGreaterThan(10)
  })

  it('never calls an IPv4 address a bogon that the Team Cymru full-bogon list (2022) does not', () => {
    const cymru = new BlockList()
    for (const line of fixture('team-cymru_fullbogons-ipv4_2022-03-16.txt').split('\n')) {
      if (line === '' || line.startsWith('#')) continue
      const [a, len] = line.split('/')
      cymru.addSubnet(a as string, Number(len), 'ipv4')
    }
    const edges = [...IPV4_SPECIAL_PURPOSE.entries.flatMap((e) => e.addressBlocks)].flatMap((b) => {
      const c = mustCidr(b)
      const last = c.network + (1n << BigInt(32 - c.prefixLength)) - 1n
      return [c.network - 1n, c.network, last, last + 1n].filter((x) => x >= 0n && x <= 0xffffffffn).map(Number)
    })
    const check = (n: number) => {
      if (isBogon({ version: 4, value: BigInt(n) })) expect(cymru.check(v4(n), 'ipv4'), v4(n)).toBe(true)
    }
    edges.forEach(check)
    fc.assert(fc.property(uint32, (n) => check(n)), { numRuns: 20000 })
  })
})

describe('describeIp', () => {
  it('gathers every local fact about an IPv4 address, JSON-safe', () => {
    const d = describeIp(mustIp('192.0.2.1'))
    expect(JSON.parse(JSON.stringify(d))).toEqual(d)
    expect(d).toMatchObject({
      version: 4,
      address: '192.0.2.1',
      expanded: '192.0.2.1',
      mixed: null,
      ipv4Mapped: '::ffff:192.0.2.1',
      decimal: '3221225985',
      hex: '0xc0000201',
      binary: '11000000000000000000001000000001',
      reversePointer: '1.2.0.192.in-addr.arpa',
      embeddedIpv4: null,
      classification: { class: 'documentation', prefix: '192.0.2.0/24' },
      bogon: { bogon: true, prefix: '192.0.2.0/24' },
    })
    expect(d.specialPurpose.map((m) => m.prefix)).toEqual(['192.0.2.0/24'])
  })

  it('and about an IPv6 one', () => {
    const d = describeIp(mustIp('::ffff:8.8.8.8'))
    expect(d).toMatchObject({
      address: '::ffff:808:808',
      expanded: '0000:0000:0000:0000:0000:ffff:0808:0808',
      mixed: '::ffff:8.8.8.8',
      ipv4Mapped: null,
      embeddedIpv4: { kind: 'mapped', ipv4: '8.8.8.8' },
      classification: { class: 'ipv4-mapped' },
      bogon: { bogon: true },
    })
    expect(describeIp(mustIp('2606:4700::1111'))).toMatchObject({ mixed: null, classification: { class: 'public' }, bogon: { bogon: false } })
  })
})
