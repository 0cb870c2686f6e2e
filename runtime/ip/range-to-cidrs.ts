import type { IpVersion } from './ip-types.ts'
import { BITS } from './ip-types.ts'

export interface CidrBlock {
  network: bigint
  prefixLength: number
}

/**
 * The fewest CIDR blocks covering [lo, hi] exactly, in address order: at each step
 * the largest block aligned at `lo` that still fits. Generic bigint version (IPv6
 * summarize, tests); IPv4 summarize has a uint32 twin in summarize-ipv4.ts.
 */
export function rangeToCidrs(version: IpVersion, lo: bigint, hi: bigint): CidrBlock[] {
  const bits = BITS[version]
  const size = hi - lo + 1n
  // Most merged ranges are one block already: size a power of two, lo aligned to it.
  if (size > 0n && (size & (size - 1n)) === 0n && (lo & (size - 1n)) === 0n) {
    return [{ network: lo, prefixLength: bits - (bitLength(size) - 1) }]
  }
  const out: CidrBlock[] = []
  while (lo <= hi) {
    let hostBits = lo === 0n ? bits : bitLength(lo & -lo) - 1
    const fit = bitLength(hi - lo + 1n) - 1
    if (fit < hostBits) hostBits = fit
    out.push({ network: lo, prefixLength: bits - hostBits })
    lo += 1n << BigInt(hostBits)
  }
  return out
}

/** Position of the highest set bit plus one (0 for 0). */
export function bitLength(v: bigint): number {
  // Measured faster than Math.log2(Number(v)) with a correction step, and than a
  // Map from powers of two (bigint keys hash slowly): the string is at most 129 chars.
  return v <= 0n ? 0 : v.toString(2).length
}
