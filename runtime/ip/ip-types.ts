/**
 * Shared shapes of the IP library.
 *
 * Addresses are `bigint` for both families in every public type: one shape lets
 * analyze/expand/lookup do exact arithmetic on /0 blocks of either family without
 * branching on number-vs-bigint. The cost is measured (bench/RESULTS-network.md):
 * the public IPv4 parse takes ~205 ns against ~127 ns for the bare uint32 scan, which
 * only matters in bulk paths, and those (summarize) keep IPv4 as uint32 in typed
 * arrays internally.
 */

export type IpVersion = 4 | 6

export interface IpAddress {
  version: IpVersion
  /** 0 .. 2^32-1 for IPv4, 0 .. 2^128-1 for IPv6 */
  value: bigint
}

export interface Cidr {
  version: IpVersion
  /** The address as written, host bits possibly set (`10.1.2.3/8` keeps 10.1.2.3). */
  address: bigint
  /** `address` with the host bits cleared. */
  network: bigint
  prefixLength: number
  /** True when the written address was not the network address (`10.1.2.3/8`). */
  hostBitsSet: boolean
}

export type IpErrorCode =
  | 'empty'
  | 'not-an-ip'
  | 'ipv4-syntax'
  | 'ipv6-syntax'
  | 'zone-id'
  | 'brackets'
  | 'prefix-length'
  | 'offset'
  | 'limit'

export interface IpError {
  code: IpErrorCode
  /** The text that was rejected, verbatim. */
  input: string
  /** A sentence a person can act on: what is wrong and what would be accepted. */
  reason: string
}

export type IpResult<T> = { ok: true; value: T } | { ok: false; error: IpError }

export const BITS = { 4: 32, 6: 128 } as const satisfies Record<IpVersion, number>

export const MAX_VALUE = { 4: (1n << 32n) - 1n, 6: (1n << 128n) - 1n } as const satisfies Record<IpVersion, bigint>

export function ok<T>(value: T): IpResult<T> {
  return { ok: true, value }
}

export function fail<T>(code: IpErrorCode, input: string, reason: string): IpResult<T> {
  return { ok: false, error: { code, input, reason } }
}
