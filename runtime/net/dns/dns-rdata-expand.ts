// RDATA with its embedded names decompressed. Servers may compress names inside the
// RDATA of the RFC 1035 types (and some do for SRV, NAPTR, RP...; RFC 3597 §4), so the
// raw slice of a message is not the record's real RDATA; DNSSEC needs the real one.

import { readName } from './dns-name.ts'

// A layout is read left to right: a number is that many fixed bytes, 'name' one domain
// name, 'strings' a run of N character-strings; whatever is left is copied as is.
type Part = number | 'name' | { strings: number }

const LAYOUTS: Record<number, Part[]> = {
  2: ['name'], // NS
  3: ['name'], // MD
  4: ['name'], // MF
  5: ['name'], // CNAME
  6: ['name', 'name'], // SOA (then 20 fixed bytes)
  7: ['name'], // MB
  8: ['name'], // MG
  9: ['name'], // MR
  12: ['name'], // PTR
  14: ['name', 'name'], // MINFO
  15: [2, 'name'], // MX
  17: ['name', 'name'], // RP
  18: [2, 'name'], // AFSDB
  21: [2, 'name'], // RT
  24: [18, 'name'], // SIG
  26: [2, 'name', 'name'], // PX
  33: [6, 'name'], // SRV
  35: [4, { strings: 3 }, 'name'], // NAPTR
  36: [2, 'name'], // KX
  39: ['name'], // DNAME
  46: [18, 'name'], // RRSIG
  47: ['name'], // NSEC
}

/** The record's RDATA as it would be sent uncompressed. */
export function expandRdata(msg: Buffer, rdOffset: number, rdLength: number, typeCode: number): Buffer {
  const end = rdOffset + rdLength
  const layout = LAYOUTS[typeCode]
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
      for (let i = 0; i < part.strings; i++) {
        const len = msg[pos] ?? 0
        parts.push(msg.subarray(pos, pos + 1 + len))
        pos += 1 + len
      }
    }
    if (pos > end) throw new RangeError('RDATA shorter than its layout')
  }
  parts.push(msg.subarray(pos, end))
  return Buffer.concat(parts)
}
