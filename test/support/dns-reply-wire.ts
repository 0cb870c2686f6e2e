// Writes the test server's replies. Hand-rolled (no name compression, records as raw
// RDATA) so every byte is under the test's control: wrong ids, altered questions and
// truncation are just different inputs here.

import type { WireRR } from './dns-authority.ts'

export interface ReplyOpt {
  udpPayloadSize: number
  /** Upper 8 bits of a 12-bit RCODE (RFC 6891 §6.1.3). */
  extendedRcode: number
  dnssecOk: boolean
}

export interface ReplySpec {
  id: number
  /** Flags word without the RCODE bits. */
  flags: number
  rcode: number
  /** The question section exactly as it should appear (usually copied from the query). */
  question: Buffer | null
  answers: WireRR[]
  authorities: WireRR[]
  additionals: WireRR[]
  opt: ReplyOpt | null
}

function encodeRR(rr: WireRR): Buffer {
  const fixed = Buffer.alloc(10)
  fixed.writeUInt16BE(rr.typeCode, 0)
  fixed.writeUInt16BE(rr.classCode, 2)
  fixed.writeUInt32BE(rr.ttl >>> 0, 4)
  fixed.writeUInt16BE(rr.rdata.length, 8)
  return Buffer.concat([rr.owner, fixed, rr.rdata])
}

function encodeOpt(opt: ReplyOpt): Buffer {
  const b = Buffer.alloc(11)
  b[0] = 0
  b.writeUInt16BE(41, 1)
  b.writeUInt16BE(opt.udpPayloadSize, 3)
  b[5] = opt.extendedRcode
  b[6] = 0
  b.writeUInt16BE(opt.dnssecOk ? 0x8000 : 0, 7)
  b.writeUInt16BE(0, 9)
  return b
}

export function encodeReply(spec: ReplySpec): Buffer {
  const header = Buffer.alloc(12)
  header.writeUInt16BE(spec.id, 0)
  header.writeUInt16BE((spec.flags & 0xfff0) | (spec.rcode & 0xf), 2)
  header.writeUInt16BE(spec.question ? 1 : 0, 4)
  header.writeUInt16BE(spec.answers.length, 6)
  header.writeUInt16BE(spec.authorities.length, 8)
  header.writeUInt16BE(spec.additionals.length + (spec.opt ? 1 : 0), 10)
  return Buffer.concat([
    header,
    spec.question ?? Buffer.alloc(0),
    ...spec.answers.map(encodeRR),
    ...spec.authorities.map(encodeRR),
    ...spec.additionals.map(encodeRR),
    ...(spec.opt ? [encodeOpt(spec.opt)] : []),
  ])
}
