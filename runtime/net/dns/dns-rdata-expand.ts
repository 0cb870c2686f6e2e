// RDATA with its embedded names decompressed. Servers may compress names inside the
// RDATA of the RFC 1035 types (and some do for SRV, NAPTR, RP...; RFC 3597 §4), so the
// raw slice of a message is not the record's real RDATA; DNSSEC needs the real one.

import { readName } from './dns-name.ts'
import { RDATA_NAME_LAYOUTS } from './dns-rdata-names.ts'

/** The record's RDATA as it would be sent uncompressed. */
export function expandRdata(msg: Buffer, rdOffset: number, rdLength: number, typeCode: number): Buffer {
  const end = rdOffset + rdLength
  const layout = RDATA_NAME_LAYOUTS[typeCode]
  if (!layout) return Buffer.from(msg.subarray(rdOffset, end))
  const parts: Buffer[] = []
  let pos = rdOffset
  for (const part of layout) {
    if (typeof part === 'number') {
      parts.push(msg.subarray(pos, pos + part))
      pos += part
    } else if (part === 'name') {
      const { wire, end: next } = readName(msg.subarray(0, end), pos)
      parts.push(wire)
      pos = next
    } else {
      const len = msg[pos] ?? 0
      parts.push(msg.subarray(pos, pos + 1 + len))
      pos += 1 + len
    }
    if (pos > end) throw new RangeError('RDATA shorter than its layout')
  }
  parts.push(msg.subarray(pos, end))
  return Buffer.concat(parts)
}
