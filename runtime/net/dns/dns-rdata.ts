// One resource record from a message to its typed, JSON-friendly form. dns-packet's
// per-type codecs do the field work where it has them; DNSKEY, NSEC3PARAM, SSHFP,
// ZONEMD, URI and SVCB/HTTPS are decoded here from their RFCs (dns-packet lacks them,
// or rejects valid input such as a DNSKEY protocol other than 3).

import { toBase32Hex } from './dns-base32hex.ts'
import { keyTag } from './dns-key-tag.ts'
import { MalformedMessageError, type WireRecord } from './dns-message.ts'
import { codecs, type RdataDecoder } from './dns-packet-codecs.ts'
import { expandRdata } from './dns-rdata-expand.ts'
import { decodeSvcb } from './dns-rdata-svcb.ts'
import type { DnsRecord, UnknownTypeName } from './dns-records.ts'
import { decodeTypeBitmap } from './dns-type-bitmap.ts'
import { className, typeName } from './dns-types.ts'
import { rememberWire } from './dns-wire-store.ts'

const TWO_POW_32 = 2 ** 32

/**
 * RRSIG times are 32-bit serial numbers (RFC 4034 §3.1.5): take the instant nearest
 * to now. The wire decoder has no service clock; "now" only picks the 136-year era,
 * so the host's time gives the same answer as the service clock unless the two are
 * ~68 years apart. The validator judges validity windows with the service clock.
 */
export function serialTimeToIso(value: number, nowMs: number = Date.now()): string {
  const now = Math.floor(nowMs / 1000)
  const wraps = Math.round((now - value) / TWO_POW_32)
  return new Date((value + wraps * TWO_POW_32) * 1000).toISOString()
}

function need(condition: boolean, what: string): void {
  if (!condition) throw new RangeError(what)
}

/** Runs a dns-packet decoder and checks it consumed exactly the RDATA. */
function viaPacket<T>(decoder: RdataDecoder<T>, buf: Buffer, rr: WireRecord, exact = true): T {
  const value = decoder.decode(buf, rr.rdOffset - 2)
  if (exact) need(decoder.decode.bytes === rr.rdLength + 2, `RDATA length ${rr.rdLength} does not match its content`)
  return value
}

// `type` is in the base only to fix the key order (name, type, class, ttl, data) of the
// JSON output: each case's spread overwrites its value but keeps its position.
type Base = Pick<DnsRecord, 'name' | 'class' | 'ttl'> & { type: string }

function decodeTyped(base: Base, code: number, msg: Buffer, rr: WireRecord, rdata: Buffer): DnsRecord {
  const type = typeName(code)
  switch (type) {
    case 'A':
      need(rr.rdLength === 4, 'A RDATA is not 4 bytes')
      return { ...base, type, data: { address: viaPacket(codecs.a, msg, rr, false) } }
    case 'AAAA':
      need(rr.rdLength === 16, 'AAAA RDATA is not 16 bytes')
      return { ...base, type, data: { address: viaPacket(codecs.aaaa, msg, rr, false) } }
    case 'NS':
    case 'CNAME':
    case 'DNAME':
    case 'PTR':
      return { ...base, type, data: { target: viaPacket(codecs.ptr, msg, rr) } }
    case 'MX': {
      const mx = viaPacket(codecs.mx, msg, rr)
      return { ...base, type, data: { preference: mx.preference, exchange: mx.exchange } }
    }
    case 'TXT':
    case 'SPF': {
      const raw = viaPacket(codecs.txt, msg, rr)
      const strings = raw.map((s) => s.toString('utf8'))
      // Joined from the bytes, not the strings: a UTF-8 sequence may span two strings.
      return { ...base, type, data: { text: Buffer.concat(raw).toString('utf8'), strings } }
    }
    case 'SOA': {
      const soa = viaPacket(codecs.soa, msg, rr)
      const { mname, rname, serial, refresh, retry, expire, minimum } = soa
      return { ...base, type, data: { mname, rname, serial, refresh, retry, expire, minimum } }
    }
    case 'CAA': {
      need(rr.rdLength >= 2 && rdata[1] !== undefined && 2 + rdata[1] <= rr.rdLength, 'CAA tag runs past the RDATA')
      const caa = viaPacket(codecs.caa, msg, rr, false)
      return { ...base, type, data: { flags: caa.flags, critical: (caa.flags & 0x80) !== 0, tag: caa.tag, value: caa.value } }
    }
    case 'SRV': {
      need(rr.rdLength >= 7, 'SRV RDATA too short')
      const srv = viaPacket(codecs.srv, msg, rr, false)
      need(6 + codecs.name.decode.bytes === rr.rdLength, 'SRV RDATA length does not match its content')
      return { ...base, type, data: { priority: srv.priority, weight: srv.weight, port: srv.port, target: srv.target } }
    }
    case 'DNSKEY':
    case 'CDNSKEY': {
      need(rdata.length >= 4, 'DNSKEY RDATA too short')
      const flags = rdata.readUInt16BE(0)
      return {
        ...base,
        type,
        data: {
          flags,
          protocol: rdata[2] as number,
          algorithm: rdata[3] as number,
          key: rdata.subarray(4).toString('base64'),
          keyTag: keyTag(rdata),
          zoneKey: (flags & 0x0100) !== 0,
          secureEntryPoint: (flags & 0x0001) !== 0,
          revoked: (flags & 0x0080) !== 0,
        },
      }
    }
    case 'DS':
    case 'CDS': {
      need(rr.rdLength >= 4, 'DS RDATA too short')
      const ds = viaPacket(codecs.ds, msg, rr)
      return { ...base, type, data: { keyTag: ds.keyTag, algorithm: ds.algorithm, digestType: ds.digestType, digest: ds.digest.toString('hex') } }
    }
    case 'RRSIG': {
      need(rr.rdLength >= 19, 'RRSIG RDATA too short')
      const sig = viaPacket(codecs.rrsig, msg, rr)
      return {
        ...base,
        type,
        data: {
          typeCovered: typeName(rdata.readUInt16BE(0)),
          algorithm: sig.algorithm,
          labels: sig.labels,
          originalTtl: sig.originalTTL,
          expiration: serialTimeToIso(sig.expiration),
          inception: serialTimeToIso(sig.inception),
          keyTag: sig.keyTag,
          signerName: sig.signersName,
          signature: sig.signature.toString('base64'),
        },
      }
    }
    case 'NSEC': {
      const nextDomain = codecs.name.decode(msg, rr.rdOffset)
      const bitmapStart = rr.rdOffset + codecs.name.decode.bytes
      need(bitmapStart <= rr.rdOffset + rr.rdLength, 'NSEC next name runs past the RDATA')
      return { ...base, type, data: { nextDomain, types: decodeTypeBitmap(msg.subarray(bitmapStart, rr.rdOffset + rr.rdLength)) } }
    }
    case 'NSEC3': {
      need(rdata.length >= 6, 'NSEC3 RDATA too short')
      const n3 = viaPacket(codecs.nsec3, msg, rr, false)
      const bitmapStart = 4 + 1 + n3.salt.length + 1 + n3.nextDomain.length
      need(n3.nextDomain.length > 0 && bitmapStart <= rdata.length, 'NSEC3 hash runs past the RDATA')
      return {
        ...base,
        type,
        data: {
          hashAlgorithm: n3.algorithm,
          flags: n3.flags,
          optOut: (n3.flags & 1) !== 0,
          iterations: n3.iterations,
          salt: n3.salt.toString('hex'),
          nextHashedOwner: toBase32Hex(n3.nextDomain),
          types: decodeTypeBitmap(rdata.subarray(bitmapStart)),
        },
      }
    }
    case 'NSEC3PARAM': {
      need(rdata.length >= 5 && rdata.length === 5 + (rdata[4] as number), 'NSEC3PARAM RDATA length does not match its salt')
      return {
        ...base,
        type,
        data: { hashAlgorithm: rdata[0] as number, flags: rdata[1] as number, iterations: rdata.readUInt16BE(2), salt: rdata.subarray(5).toString('hex') },
      }
    }
    case 'TLSA':
    case 'SMIMEA': {
      need(rr.rdLength >= 3, 'TLSA RDATA too short')
      const tlsa = viaPacket(codecs.tlsa, msg, rr)
      return {
        ...base,
        type,
        data: { usage: tlsa.usage, selector: tlsa.selector, matchingType: tlsa.matchingType, associationData: tlsa.certificate.toString('hex') },
      }
    }
    case 'SVCB':
    case 'HTTPS':
      return { ...base, type, data: decodeSvcb(rdata) }
    case 'HINFO': {
      const hinfo = viaPacket(codecs.hinfo, msg, rr)
      return { ...base, type, data: { cpu: hinfo.cpu, os: hinfo.os } }
    }
    case 'NAPTR': {
      const n = viaPacket(codecs.naptr, msg, rr)
      return { ...base, type, data: { order: n.order, preference: n.preference, flags: n.flags, services: n.services, regexp: n.regexp, replacement: n.replacement } }
    }
    case 'SSHFP':
      need(rdata.length >= 2, 'SSHFP RDATA too short')
      return { ...base, type, data: { algorithm: rdata[0] as number, fingerprintType: rdata[1] as number, fingerprint: rdata.subarray(2).toString('hex') } }
    case 'ZONEMD':
      need(rdata.length >= 6, 'ZONEMD RDATA too short')
      return {
        ...base,
        type,
        data: { serial: rdata.readUInt32BE(0), scheme: rdata[4] as number, hashAlgorithm: rdata[5] as number, digest: rdata.subarray(6).toString('hex') },
      }
    case 'URI':
      need(rdata.length >= 4, 'URI RDATA too short')
      return { ...base, type, data: { priority: rdata.readUInt16BE(0), weight: rdata.readUInt16BE(2), target: rdata.subarray(4).toString('utf8') } }
    default:
      return { ...base, type: type as UnknownTypeName, data: { rdata: rdata.toString('hex') } }
  }
}

/**
 * Decodes one record of a parsed message and remembers its wire form (wireOf).
 * Throws MalformedMessageError when the RDATA does not fit its type.
 */
export function decodeRecord(msg: Buffer, rr: WireRecord): DnsRecord {
  // Decoders see the message only up to this record's end, so a lying length or name
  // cannot make them read the next record; compression pointers only point backwards.
  const bounded = msg.subarray(0, rr.rdOffset + rr.rdLength)
  try {
    const rdata = expandRdata(bounded, rr.rdOffset, rr.rdLength, rr.typeCode)
    const base: Base = {
      name: codecs.name.decode(bounded, rr.offset),
      type: '',
      class: className(rr.classCode),
      ttl: rr.ttl > 0x7fffffff ? 0 : rr.ttl,
    }
    const record = decodeTyped(base, rr.typeCode, bounded, rr, rdata)
    rememberWire(record, { owner: rr.nameWire, typeCode: rr.typeCode, classCode: rr.classCode, ttl: rr.ttl, rdata })
    return record
  } catch (error) {
    if (error instanceof MalformedMessageError) throw error
    throw new MalformedMessageError(`${typeName(rr.typeCode)} record at offset ${rr.offset}: ${(error as Error).message}`)
  }
}
