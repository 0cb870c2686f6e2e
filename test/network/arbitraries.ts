import fc from 'fast-check'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import type { Cidr, IpAddress } from '../../runtime/ip/ip-types.ts'

export const uint32 = fc.integer({ min: 0, max: 0xffffffff })
export const uint128 = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n })

/**
 * IPv6 values biased towards zero runs, so "::" placement, ties between equal runs
 * and all-zero/one-group cases come up often, not once in 2^16 draws.
 */
export const ipv6Value = fc
  .array(fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 0xffff }), fc.constant(0xffff)), {
    minLength: 8,
    maxLength: 8,
  })
  .map((groups) => groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n))

export const anyIpv6 = fc.oneof(ipv6Value, uint128)

export function mustIp(text: string): IpAddress {
  const r = parseIp(text)
  if (!r.ok) throw new Error(`${text}: ${r.error.reason}`)
  return r.value
}

export function mustCidr(text: string): Cidr {
  const r = parseCidr(text, { bare: 'host' })
  if (!r.ok) throw new Error(`${text}: ${r.error.reason}`)
  return r.value
}

export function v4(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`
}

/**
 * Every way of writing an IPv6 value: any zero run (length >= 2, or a single
 * group, which RFC 4291 allows even though RFC 5952 output never does) compressed
 * or not, random case, optional leading zeros, optional dotted IPv4 tail.
 */
export const ipv6Text = fc
  .record({
    value: anyIpv6,
    compress: fc.nat(),
    upper: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    pad: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 8, maxLength: 8 }),
    dottedTail: fc.boolean(),
  })
  .map(({ value, compress, upper, pad, dottedTail }) => {
    const groups: number[] = []
    for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn))
    let parts = groups.map((g, i) => {
      let h = g.toString(16)
      h = h.padStart(Math.min(4, h.length + (pad[i] ?? 0)), '0')
      return upper[i] ? h.toUpperCase() : h
    })
    if (dottedTail) {
      const low = Number(value & 0xffffffffn)
      parts = [...parts.slice(0, 6), v4(low)]
    }
    const runs: [number, number][] = []
    const limit = parts.length
    for (let i = 0; i < limit; i++) {
      for (let j = i + 1; j <= limit; j++) {
        if (parts.slice(i, j).every((p) => /^0+$/.test(p))) runs.push([i, j])
      }
    }
    const pick = runs.length === 0 ? undefined : runs[compress % (runs.length + 1)]
    if (!pick) return { value, text: parts.join(':') }
    const [i, j] = pick
    return { value, text: `${parts.slice(0, i).join(':')}::${parts.slice(j).join(':')}` }
  })

/** Strings close to IP syntax: the inputs where parsers most often disagree. */
export const ipLikeText = fc
  .array(fc.constantFrom('0', '1', '9', '25', '255', '256', '01', '00', 'a', 'f', 'ff', 'ffff', 'fffff', 'g', ':', '::', ':::', '.', '%', 'x', '1.2.3.4', ' '), {
    minLength: 1,
    maxLength: 12,
  })
  .map((parts) => parts.join(''))
