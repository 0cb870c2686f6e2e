// What an RRSIG signs (RFC 4034 §3.1.8.1): its own RDATA up to the signer name, then
// each RR of the RRset in canonical form (§6.2: lowercased owner, the original TTL,
// names inside RDATA lowercased for the types listed there — minus NSEC, RFC 6840
// §5.1), sorted by RDATA as left-justified octet strings (§6.3), duplicates removed.
// A wildcard-expanded owner is signed as "*." plus the RRSIG's Labels labels (§3.1.3).

import { lowercaseWire } from '../../runtime/net/dns/dns-name.ts'
import { NSEC_TYPE, RDATA_NAME_LAYOUTS } from '../../runtime/net/dns/dns-rdata-names.ts'
import type { DnsRecord } from '../../runtime/net/dns/dns-records.ts'
import { wireOf, type DnsRecordWire } from '../../runtime/net/dns/dns-wire-store.ts'
import { nameFromWire, rrsigLabelCount, suffixOf, type Name } from './names.ts'

/** Lowercases the uncompressed name at `pos` in place; returns the offset after it. */
function lowerNameAt(buf: Buffer, pos: number): number {
  while (pos < buf.length) {
    const len = buf[pos] as number
    if (len === 0) return pos + 1
    for (let i = pos + 1; i <= pos + len && i < buf.length; i++) {
      const b = buf[i] as number
      if (b >= 0x41 && b <= 0x5a) buf[i] = b + 0x20
    }
    pos += len + 1
  }
  return pos
}

export function canonicalRdata(typeCode: number, rdata: Buffer): Buffer {
  const layout = typeCode === NSEC_TYPE ? undefined : RDATA_NAME_LAYOUTS[typeCode]
  if (!layout) return rdata
  const out = Buffer.from(rdata)
  let pos = 0
  for (const part of layout) {
    if (pos >= out.length) break
    if (typeof part === 'number') pos += part
    else if (part === 'string') pos += 1 + (out[pos] as number)
    else pos = lowerNameAt(out, pos)
  }
  return out
}

export function wireOrThrow(record: DnsRecord): DnsRecordWire {
  const wire = wireOf(record)
  // Records reach the validator straight from a decoded message; a copy has lost its bytes.
  if (!wire) throw new Error(`no wire form kept for ${record.name} ${record.type}`)
  return wire
}

/** The RRSIG RDATA fields before the signature, signer name lowercased. */
function rrsigPrefix(rrsigRdata: Buffer): Buffer {
  const prefix = Buffer.from(rrsigRdata.subarray(0, 18))
  let pos = 18
  while (pos < rrsigRdata.length && rrsigRdata[pos] !== 0) pos += (rrsigRdata[pos] as number) + 1
  const signer = lowercaseWire(rrsigRdata.subarray(18, pos + 1))
  return Buffer.concat([prefix, signer])
}

/** The signer name field, as sent. */
export function rrsigSigner(rrsigRdata: Buffer): Buffer {
  let pos = 18
  while (pos < rrsigRdata.length && rrsigRdata[pos] !== 0) pos += (rrsigRdata[pos] as number) + 1
  return rrsigRdata.subarray(18, pos + 1)
}

/** The owner an RRSIG signed: the owner itself, or its wildcard source when expanded. */
export function signedOwner(owner: Name, rrsigLabels: number): Name {
  const labels = rrsigLabelCount(owner)
  if (rrsigLabels >= labels) return owner
  const closest = suffixOf(owner, rrsigLabels)
  return nameFromWire(Buffer.concat([Buffer.from([1, 0x2a]), closest.wire]))
}

export function signedData(rrsigRdata: Buffer, owner: Name, rrset: readonly DnsRecord[]): Buffer {
  const originalTtl = rrsigRdata.readUInt32BE(4)
  const signedName = signedOwner(owner, rrsigRdata[3] as number).wire
  const rdatas: Buffer[] = []
  let typeCode = 0
  let classCode = 1
  for (const record of rrset) {
    const wire = wireOrThrow(record)
    typeCode = wire.typeCode
    classCode = wire.classCode
    rdatas.push(canonicalRdata(wire.typeCode, wire.rdata))
  }
  rdatas.sort(Buffer.compare)
  const parts: Buffer[] = [rrsigPrefix(rrsigRdata)]
  let previous: Buffer | undefined
  for (const rdata of rdatas) {
    if (previous && previous.equals(rdata)) continue
    previous = rdata
    const header = Buffer.alloc(10)
    header.writeUInt16BE(typeCode, 0)
    header.writeUInt16BE(classCode, 2)
    header.writeUInt32BE(originalTtl, 4)
    header.writeUInt16BE(rdata.length, 8)
    parts.push(signedName, header, rdata)
  }
  return Buffer.concat(parts)
}
