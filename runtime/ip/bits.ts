import type { IpVersion } from './ip-types.ts'
import { BITS, MAX_VALUE } from './ip-types.ts'

// Precomputed so hot callers do not rebuild bigint masks per call.
const MASKS: Record<IpVersion, bigint[]> = { 4: buildMasks(4), 6: buildMasks(6) }

function buildMasks(version: IpVersion): bigint[] {
  const bits = BITS[version]
  const all = MAX_VALUE[version]
  const masks: bigint[] = []
  for (let len = 0; len <= bits; len++) masks.push(all ^ ((1n << BigInt(bits - len)) - 1n))
  return masks
}

/** Netmask of a prefix length: `len` one bits then zeros. */
export function prefixMask(version: IpVersion, len: number): bigint {
  const mask = MASKS[version][len]
  if (mask === undefined) throw new RangeError(`prefix length ${len} is outside 0-${BITS[version]}`)
  return mask
}

/** Host mask (wildcard): the complement of the netmask within the family's width. */
export function hostMask(version: IpVersion, len: number): bigint {
  return MAX_VALUE[version] ^ prefixMask(version, len)
}

/** Number of addresses in a block of this prefix length: 2^(bits - len). */
export function blockSize(version: IpVersion, len: number): bigint {
  return 1n << BigInt(BITS[version] - len)
}

/** `value` as a 0/1 string of the family's full width. */
export function toBitString(version: IpVersion, value: bigint): string {
  return value.toString(2).padStart(BITS[version], '0')
}
