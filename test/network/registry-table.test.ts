import { describe, expect, it } from 'vitest'
import { IPV4_ADDRESS_SPACE, IPV6_ADDRESS_SPACE } from '../../runtime/ip/address-space-data.ts'
import { bogonCheck } from '../../runtime/ip/bogon.ts'
import type { IpAddress } from '../../runtime/ip/ip-types.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import { ipv4RegistryVerdict, registryVerdict } from '../../runtime/ip/registry-table.ts'
import { classify } from '../../runtime/ip/special-purpose.ts'
import { IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE } from '../../runtime/ip/special-purpose-data.ts'

// runtime/ip/registry-table.ts answers the IANA class and bogon verdict of an
// address by a binary search over precomputed intervals (POST /api/ip/bulk).
// classify() and bogonCheck() walk the registries block by block and are what
// /api/ip/{ip} answers with: the table must agree with them on every block's
// edges (where an interval table goes wrong) and on random addresses, including
// the 6to4, Teredo and NAT64 blocks whose verdict reads the IPv4 address inside.

function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

const expected = (address: IpAddress) => ({ class: classify(address).class, bogon: bogonCheck(address).bogon })

function edges(version: 4 | 6): bigint[] {
  const top = version === 4 ? (1n << 32n) - 1n : (1n << 128n) - 1n
  const blocks = [
    ...(version === 4 ? IPV4_SPECIAL_PURPOSE : IPV6_SPECIAL_PURPOSE).entries.flatMap((e) => e.addressBlocks),
    ...(version === 4 ? IPV4_ADDRESS_SPACE : IPV6_ADDRESS_SPACE).entries.map((e) => e.prefix),
  ].filter((p) => p.includes(':') === (version === 6))
  const values: bigint[] = [0n, top]
  for (const block of blocks) {
    const cidr = parseCidr(block)
    if (!cidr.ok) throw new Error(block)
    const size = 1n << BigInt((version === 4 ? 32 : 128) - cidr.value.prefixLength)
    const start = cidr.value.network
    for (const v of [start - 1n, start, start + 1n, start + size / 2n, start + size - 2n, start + size - 1n, start + size]) if (v >= 0n && v <= top) values.push(v)
  }
  return values
}

describe('registry table vs classify() and bogonCheck()', () => {
  it('agrees on every IPv4 block edge and 50,000 random IPv4 addresses (number and address forms)', () => {
    const rand = prng(4)
    const values = [...edges(4), ...Array.from({ length: 50_000 }, () => BigInt(Math.floor(rand() * 2 ** 32)))]
    expect(values.length).toBeGreaterThan(50_500)
    for (const value of values) {
      const address: IpAddress = { version: 4, value }
      const want = expected(address)
      expect(ipv4RegistryVerdict(Number(value)), `${value}`).toEqual(want)
      expect(registryVerdict(address), `${value}`).toEqual(want)
    }
  })

  it('agrees on every IPv6 block edge and random IPv6, inside 6to4, Teredo and NAT64 too', () => {
    const rand = prng(6)
    const r32 = () => BigInt(Math.floor(rand() * 2 ** 32))
    const random128 = () => (r32() << 96n) | (r32() << 64n) | (r32() << 32n) | r32()
    const low96 = (v: bigint) => v & ((1n << 96n) - 1n)
    const carriers: bigint[] = []
    for (let i = 0; i < 3000; i++) {
      const v4 = i % 3 === 0 ? r32() : [0x0a000001n, 0x7f000001n, 0xc0000201n, 0x08080808n, 0xc0a80101n][i % 5]!
      carriers.push((0x2002n << 112n) | (v4 << 80n) | (r32() << 32n) | r32()) // 6to4: v4 in bits 80-111
      carriers.push((0x20010000n << 96n) | low96(random128() ^ (v4 ^ 0xffffffffn))) // Teredo: client = ~last 32 bits
      carriers.push((0x0064ff9bn << 96n) | v4) // NAT64 well-known prefix
    }
    const values = [...edges(6), ...Array.from({ length: 20_000 }, random128), ...Array.from({ length: 5000 }, () => (0x2n << 124n) | low96(random128())), ...carriers]
    for (const value of values) {
      const address: IpAddress = { version: 6, value }
      expect(registryVerdict(address), value.toString(16)).toEqual(expected(address))
    }
    // The carriers do exercise both verdicts.
    const verdicts = carriers.map((value) => registryVerdict({ version: 6, value }).bogon)
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(100)
    expect(verdicts.filter((b) => !b).length).toBeGreaterThan(100)
  })
})
