// RRSIG inception and expiration as instants. The fields are 32-bit serial numbers
// (RFC 4034 §3.1.5) read around "now" — the validator's clock, not the decoder's,
// so a test that fixes the clock sees the same dates the checks used. Kept numeric:
// formatting dates is the costly part of a cached validation, so only presentation does it.

import type { RrsigRecord } from '../../runtime/net/dns/dns-records.ts'
import { wireOrThrow } from './canonical.ts'

const TWO_32 = 2 ** 32

/** The instant (seconds) nearest `now` whose low 32 bits are `value`. */
function nearest(value: number, nowSeconds: number): number {
  return value + Math.round((nowSeconds - value) / TWO_32) * TWO_32
}

export interface RrsigTimes {
  /** Seconds since the epoch. */
  inceptionAt: number
  expiresAt: number
}

export function rrsigTimes(rrsig: RrsigRecord, nowMs: number): RrsigTimes {
  const rdata = wireOrThrow(rrsig).rdata
  const now = Math.floor(nowMs / 1000)
  return { inceptionAt: nearest(rdata.readUInt32BE(12), now), expiresAt: nearest(rdata.readUInt32BE(8), now) }
}

export function isoOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString()
}
