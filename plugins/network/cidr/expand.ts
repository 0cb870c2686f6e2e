import { blockSize } from '../../../runtime/ip/bits.ts'
import { formatIpv4Number, formatIpv6 } from '../../../runtime/ip/format.ts'
import type { Cidr, IpResult, IpVersion } from '../../../runtime/ip/ip-types.ts'
import { fail, ok } from '../../../runtime/ip/ip-types.ts'
import { EXPAND_DEFAULT_LIMIT, EXPAND_MAX_LIMIT } from '../../../registry/network/schemas/cidr-expand-limits.ts'

export interface ExpandPage {
  version: IpVersion
  cidr: string
  /** Addresses in the whole block, exact decimal (2^128 for ::/0). */
  total: string
  offset: string
  limit: number
  /** Every address of the block (network and broadcast included), from `offset` on. */
  addresses: string[]
  /** Offset of the next page, or null when this page reaches the end of the block. */
  nextOffset: string | null
}

/**
 * One page of a block's addresses, computed from the offset: nothing proportional
 * to the block is built, so ::/0 pages as cheaply as a /24. An offset at or past
 * the end is not an error; it is an empty last page.
 */
export function expandCidr(
  cidr: Cidr,
  offset: bigint | number | string = 0n,
  limit: number = EXPAND_DEFAULT_LIMIT,
): IpResult<ExpandPage> {
  const start = toOffset(offset)
  if (typeof start === 'string') return fail('offset', String(offset), start)
  if (!Number.isInteger(limit) || limit < 1 || limit > EXPAND_MAX_LIMIT) {
    return fail('limit', String(limit), `the limit must be a whole number from 1 to ${EXPAND_MAX_LIMIT}`)
  }
  const { version, network, prefixLength } = cidr
  const total = blockSize(version, prefixLength)
  const count = start >= total ? 0 : Number(total - start < BigInt(limit) ? total - start : BigInt(limit))
  const addresses = new Array<string>(count)
  if (version === 4) {
    let n = Number(network + start)
    for (let i = 0; i < count; i++) addresses[i] = formatIpv4Number(n++)
  } else {
    let v = network + start
    for (let i = 0; i < count; i++) addresses[i] = formatIpv6(v++)
  }
  const next = start + BigInt(count)
  const fmt = version === 4 ? formatIpv4Number(Number(network)) : formatIpv6(network)
  return ok({
    version,
    cidr: `${fmt}/${prefixLength}`,
    total: total.toString(),
    offset: start === PAST_EVERY_BLOCK ? String(offset).replace(/^0+(?=.)/, '') : start.toString(),
    limit,
    addresses,
    nextOffset: count > 0 && next < total ? next.toString() : null,
  })
}

const PAST_EVERY_BLOCK = 1n << 129n

function toOffset(offset: bigint | number | string): bigint | string {
  if (typeof offset === 'bigint') return offset >= 0n ? offset : 'the offset must not be negative'
  if (typeof offset === 'number') {
    if (!Number.isSafeInteger(offset) || offset < 0) {
      return 'the offset must be a whole number >= 0 (pass offsets above 2^53 as a decimal string)'
    }
    return BigInt(offset)
  }
  if (!/^[0-9]+$/.test(offset)) return `the offset "${offset}" must be a whole decimal number >= 0`
  // 2^128 has 39 digits: anything longer is past every block, and skipping BigInt
  // keeps a megabyte of digits from costing anything.
  const digits = offset.replace(/^0+(?=.)/, '')
  return digits.length > 40 ? PAST_EVERY_BLOCK : BigInt(digits)
}
