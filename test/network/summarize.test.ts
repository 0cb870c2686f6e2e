import { execFileSync } from 'node:child_process'
import { BlockList } from 'node:net'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatIpv6 } from '../../runtime/ip/format.ts'
import { radixSortUint32 } from '../../plugins/network/cidr/radix-sort.ts'
import { summarize } from '../../plugins/network/cidr/summarize.ts'
import { formatCidr } from '../../runtime/ip/format.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import { ipLikeText, ipv6Text, mustCidr, uint32, v4 } from './arbitraries.ts'

type Range = [bigint, bigint]

function rangeOf(text: string): Range {
  const c = mustCidr(text)
  const bits = c.version === 4 ? 32 : 128
  return [c.network, c.network + (1n << BigInt(bits - c.prefixLength)) - 1n]
}

/** The reference union: sort pairs, merge overlapping and adjacent ones. */
function union(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const out: Range[] = []
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1]
    if (last && lo <= last[1] + 1n) {
      if (hi > last[1]) last[1] = hi
    } else out.push([lo, hi])
  }
  return out
}

/** Output invariants: sorted, disjoint, no two blocks that are siblings (mergeable). */
function checkCanonical(cidrs: string[]): void {
  const blocks = cidrs.map((t) => ({ text: t, range: rangeOf(t), c: mustCidr(t) }))
  for (const b of blocks) expect(b.c.hostBitsSet).toBe(false)
  for (let i = 1; i < blocks.length; i++) {
    const prev = blocks[i - 1]!
    const cur = blocks[i]!
    expect(prev.range[1] < cur.range[0]).toBe(true)
  }
  const present = new Set(cidrs)
  for (const b of blocks) {
    if (b.c.prefixLength === 0) continue
    const bits = b.c.version === 4 ? 32 : 128
    const size = 1n << BigInt(bits - b.c.prefixLength)
    const sibling = b.c.network ^ size
    const text = b.c.version === 4 ? v4(Number(sibling)) : formatIpv6(sibling)
    expect(present.has(`${text}/${b.c.prefixLength}`)).toBe(false)
  }
}

function checkSameAddresses(input: string[], output: string[]): void {
  expect(union(output.map(rangeOf))).toEqual(union(input.map(rangeOf)))
}

/** A prefix inside base/baseLen, at least baseLen long: small universes make exact checks cheap. */
function prefixIn(base: number, baseLen: number) {
  return fc.record({ offset: fc.nat({ max: 2 ** (32 - baseLen) - 1 }), len: fc.integer({ min: baseLen, max: 32 }) }).map(({ offset, len }) => {
    const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0
    return `${v4(((base + offset) & mask) >>> 0)}/${len}`
  })
}

const anyV4Prefix = fc.record({ a: uint32, len: fc.integer({ min: 0, max: 32 }) }).map(({ a, len }) => {
  const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0
  return `${v4((a & mask) >>> 0)}/${len}`
})

const v6Prefix = fc
  .record({ low: fc.bigInt({ min: 0n, max: (1n << 12n) - 1n }), len: fc.integer({ min: 116, max: 128 }) })
  .map(({ low, len }) => {
    const base = 0x20010db8n << 96n
    const host = (1n << BigInt(128 - len)) - 1n
    return `${formatIpv6((base | low) & ~host)}/${len}`
  })

describe('summarize: tables', () => {
  it('merges siblings and adjacent blocks, drops covered ones', () => {
    const r = summarize([
      '10.0.0.0/25',
      '10.0.0.128/25',
      '10.0.1.0/24',
      '10.0.2.0/23',
      '10.0.3.7/32',
      '192.0.2.0/24',
      '192.0.2.77',
      '198.51.100.1/32',
      '198.51.100.2/32',
    ])
    expect(r.ipv4).toEqual(['10.0.0.0/22', '192.0.2.0/24', '198.51.100.1/32', '198.51.100.2/32'])
    expect(r.invalid).toEqual([])
    expect(r.stats).toMatchObject({ entries: 9, valid: 9, ipv4Input: 9, ipv4Output: 4, ipv4Addresses: String(1024 + 256 + 2) })
  })

  it('splits a range into the fewest aligned blocks', () => {
    // 10.0.0.1 - 10.0.0.254 cannot be one block.
    const hosts = Array.from({ length: 254 }, (_, i) => `10.0.0.${i + 1}`)
    expect(summarize(hosts).ipv4).toEqual([
      '10.0.0.1/32',
      '10.0.0.2/31',
      '10.0.0.4/30',
      '10.0.0.8/29',
      '10.0.0.16/28',
      '10.0.0.32/27',
      '10.0.0.64/26',
      '10.0.0.128/26',
      '10.0.0.192/27',
      '10.0.0.224/28',
      '10.0.0.240/29',
      '10.0.0.248/30',
      '10.0.0.252/31',
      '10.0.0.254/32',
    ])
  })

  it('handles the edges of the address space', () => {
    expect(summarize(['0.0.0.0/1', '128.0.0.0/1']).ipv4).toEqual(['0.0.0.0/0'])
    expect(summarize(['255.255.255.255/32', '255.255.255.254/32']).ipv4).toEqual(['255.255.255.254/31'])
    expect(summarize(['0.0.0.0/32', '0.0.0.1/32']).ipv4).toEqual(['0.0.0.0/31'])
    expect(summarize(['::/1', '8000::/1']).ipv6).toEqual(['::/0'])
    expect(summarize(['ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/127', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']).ipv6).toEqual([
      'ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/127',
    ])
    expect(summarize([]).ipv4).toEqual([])
  })

  it('keeps families apart, mapped IPv6 included, and sorts each', () => {
    const r = summarize(['2001:db8:0:1::/64', '10.0.0.0/8', '2001:db8::/64', '::ffff:10.0.0.0/104', '1.0.0.0/8'])
    expect(r.ipv4).toEqual(['1.0.0.0/8', '10.0.0.0/8'])
    expect(r.ipv6).toEqual(['::ffff:a00:0/104', '2001:db8::/63'])
    expect(r.stats).toMatchObject({ ipv4Input: 2, ipv6Input: 3, ipv4Output: 2, ipv6Output: 2 })
  })

  it('normalizes host bits and whitespace, and counts what it normalized', () => {
    const r = summarize(['10.1.2.3/8', '  192.0.2.0/24\t', '2001:db8::1/32'])
    expect(r.ipv4).toEqual(['10.0.0.0/8', '192.0.2.0/24'])
    expect(r.ipv6).toEqual(['2001:db8::/32'])
    expect(r.stats.hostBitsCleared).toBe(2)
  })

  it('lists every invalid entry with its index, input and reason, and still summarizes the rest', () => {
    const r = summarize(['10.0.0.0/8', '1.2.3.4/33', 'nope', '', '01.2.3.4/8', 42, null, '::1/129', 'fe80::1%eth0/64', '10.0.0.0/08'])
    expect(r.ipv4).toEqual(['10.0.0.0/8'])
    expect(r.invalid.map((e) => [e.index, e.input])).toEqual([
      [1, '1.2.3.4/33'],
      [2, 'nope'],
      [3, ''],
      [4, '01.2.3.4/8'],
      [5, '42'],
      [6, 'null'],
      [7, '::1/129'],
      [8, 'fe80::1%eth0/64'],
      [9, '10.0.0.0/08'],
    ])
    expect(r.invalid[0]?.reason).toMatch(/prefix length 33 is out of range/)
    expect(r.invalid[3]?.reason).toMatch(/leading zero/)
    expect(r.invalid[4]?.reason).toMatch(/expected a CIDR string, got a number/)
    expect(r.invalid[8]?.reason).toMatch(/leading zero; write \/8/)
    expect(r.stats).toMatchObject({ entries: 10, valid: 1, invalid: 9 })
  })
})

describe('summarize: properties', () => {
  it('covers exactly the input addresses in a small IPv4 universe (address sets)', () => {
    const base = 0x0a000000
    fc.assert(
      fc.property(fc.array(prefixIn(base, 22), { maxLength: 40 }), (input) => {
        const r = summarize(input)
        const want = new Uint8Array(1024)
        for (const t of input) {
          const [lo, hi] = rangeOf(t)
          for (let a = Number(lo); a <= Number(hi); a++) want[a - base] = 1
        }
        const got = new Uint8Array(1024)
        let overlaps = 0
        for (const t of r.ipv4) {
          const [lo, hi] = rangeOf(t)
          for (let a = Number(lo); a <= Number(hi); a++) {
            overlaps += got[a - base] as number
            got[a - base] = 1
          }
        }
        expect(overlaps).toBe(0)
        expect(Buffer.from(got).equals(Buffer.from(want))).toBe(true)
        checkCanonical(r.ipv4)
      }),
      { numRuns: 500 },
    )
  })

  it('covers exactly the same ranges for any IPv4 prefixes, canonical and sorted', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyV4Prefix, prefixIn(0xc0a80000, 16)), { maxLength: 60 }), (input) => {
        const r = summarize(input)
        checkSameAddresses(input, r.ipv4)
        checkCanonical(r.ipv4)
        expect(r.invalid).toEqual([])
      }),
      { numRuns: 500 },
    )
  })

  it('covers exactly the same ranges for IPv6 prefixes, canonical and sorted', () => {
    fc.assert(
      fc.property(fc.array(v6Prefix, { maxLength: 40 }), (input) => {
        const r = summarize(input)
        checkSameAddresses(input, r.ipv6)
        checkCanonical(r.ipv6)
      }),
      { numRuns: 300 },
    )
  })

  it('is idempotent and order-independent', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyV4Prefix, v6Prefix), { maxLength: 40 }), fc.nat(), (input, seed) => {
        const r = summarize(input)
        const again = summarize([...r.ipv4, ...r.ipv6])
        expect(again.ipv4).toEqual(r.ipv4)
        expect(again.ipv6).toEqual(r.ipv6)
        const shuffled = [...input].sort((a, b) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7))
        expect(summarize(shuffled).ipv4).toEqual(r.ipv4)
      }),
      { numRuns: 200 },
    )
  })

  it("agrees with node's BlockList on membership", () => {
    fc.assert(
      fc.property(fc.array(prefixIn(0xc0a80000, 16), { minLength: 1, maxLength: 30 }), fc.array(prefixIn(0xc0a80000, 16).map((p) => p.split('/')[0] as string), { maxLength: 50 }), (input, probes) => {
        const r = summarize(input)
        const before = new BlockList()
        for (const t of input) {
          const [a, len] = t.split('/')
          before.addSubnet(a as string, Number(len), 'ipv4')
        }
        const after = new BlockList()
        for (const t of r.ipv4) {
          const [a, len] = t.split('/')
          after.addSubnet(a as string, Number(len), 'ipv4')
        }
        for (const p of probes) expect(after.check(p, 'ipv4')).toBe(before.check(p, 'ipv4'))
      }),
      { numRuns: 200 },
    )
  })
})

describe('fast paths', () => {
  it('accept exactly what parseCidr accepts, with the same block', () => {
    const suffix = fc.constantFrom('', '/0', '/8', '/24', '/32', '/33', '/64', '/128', '/129', '/08', '/', '/x', '//1', ' ')
    const text = fc.oneof(
      fc.tuple(fc.oneof(ipLikeText, ipv6Text.map((t) => t.text), uint32.map(v4)), suffix).map(([a, b]) => a + b),
      fc.string({ maxLength: 24 }),
    )
    fc.assert(
      fc.property(text, (entry) => {
        const slow = parseCidr(entry.trim(), { bare: 'host' })
        const r = summarize([entry])
        expect(r.invalid.length === 0).toBe(slow.ok)
        if (slow.ok) {
          expect([...r.ipv4, ...r.ipv6]).toEqual([formatCidr(slow.value)])
          expect(r.stats.hostBitsCleared).toBe(slow.value.hostBitsSet ? 1 : 0)
        } else {
          expect(r.invalid[0]?.reason).toBe(slow.error.reason)
        }
      }),
      { numRuns: 4000 },
    )
  })
})

describe('at scale', () => {
  it('radixSortUint32 sorts like TypedArray#sort, on a prefix of the array too', () => {
    fc.assert(
      fc.property(fc.array(uint32, { maxLength: 3000 }), fc.nat(), (values, cut) => {
        const a = Uint32Array.from(values)
        const n = values.length === 0 ? 0 : cut % (values.length + 1)
        const expected = Uint32Array.from([...values.slice(0, n)].sort((x, y) => x - y).concat(values.slice(n)))
        radixSortUint32(a, n)
        expect(a).toEqual(expected)
      }),
      { numRuns: 200 },
    )
  })

  it('matches the reference union on 20k IPv6 prefixes (radix-sorted path)', () => {
    const wide = fc
      .record({ hi: fc.bigInt({ min: 0n, max: (1n << 20n) - 1n }), low: fc.bigInt({ min: 0n, max: (1n << 16n) - 1n }), len: fc.integer({ min: 8, max: 128 }) })
      .map(({ hi, low, len }) => {
        const v = (0x2001n << 112n) | (hi << 92n) | low
        const host = (1n << BigInt(128 - len)) - 1n
        return `${formatIpv6(v & ~host)}/${len}`
      })
    const input = fc.sample(fc.oneof(wide, v6Prefix), { numRuns: 20000, seed: 5 })
    const r = summarize(input)
    checkSameAddresses(input, r.ipv6)
    checkCanonical(r.ipv6)
    expect(r.stats.ipv6Addresses).toBe(union(input.map(rangeOf)).reduce((sum, [lo, hi]) => sum + hi - lo + 1n, 0n).toString())
  })

  it('matches the reference union on 60k random /8-/32 prefixes', () => {
    const input = fc.sample(fc.oneof(anyV4Prefix, prefixIn(0x0a000000, 8)), { numRuns: 60000, seed: 11 })
    const r = summarize(input)
    checkSameAddresses(input, r.ipv4)
    checkCanonical(r.ipv4)
  })
})

function hasPython(): boolean {
  try {
    execFileSync('python3', ['-c', 'import ipaddress'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe.skipIf(!hasPython())("summarize: against python's ipaddress.collapse_addresses", () => {
  it('gives the same blocks for random mixed input', () => {
    const samples = fc.sample(fc.array(fc.oneof(anyV4Prefix, prefixIn(0x0a000000, 20), v6Prefix), { maxLength: 300 }), {
      numRuns: 30,
      seed: 7,
    })
    const script = [
      'import ipaddress, json, sys',
      'out = []',
      'for case in json.load(sys.stdin):',
      '    nets = [ipaddress.ip_network(c) for c in case]',
      '    v4 = [str(n) for n in ipaddress.collapse_addresses([n for n in nets if n.version == 4])]',
      '    v6 = [str(n) for n in ipaddress.collapse_addresses([n for n in nets if n.version == 6])]',
      '    out.append([v4, v6])',
      'print(json.dumps(out))',
    ].join('\n')
    const expected = JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(samples) }).toString()) as [
      string[],
      string[],
    ][]
    samples.forEach((input, i) => {
      const r = summarize(input)
      expect([r.ipv4, r.ipv6]).toEqual(expected[i])
    })
  })
})
