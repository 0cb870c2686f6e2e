// Message framing: header, question and resource-record boundaries (RFC 1035 §4.1).
// dns-packet's whole-message decode throws away RDATA offsets and fails the whole
// message on one odd record; walking the sections here keeps each record's RDATA
// position so it can be decoded one by one and kept as bytes for DNSSEC.

import { readName } from './dns-name.ts'

export class MalformedMessageError extends Error {
  override readonly name = 'MalformedMessageError'
}

export const HEADER_SIZE = 12
export const FLAG_QR = 0x8000
export const FLAG_AA = 0x0400
export const FLAG_TC = 0x0200
export const FLAG_RD = 0x0100
export const FLAG_RA = 0x0080
export const FLAG_AD = 0x0020
export const FLAG_CD = 0x0010
/** The DO bit, in the OPT record's TTL field (RFC 3225). */
export const EDNS_FLAG_DO = 0x8000
export const TYPE_OPT = 41

export interface MessageHeader {
  id: number
  /** The raw 16-bit flags word, opcode and rcode included. */
  flags: number
  qr: boolean
  opcode: number
  aa: boolean
  tc: boolean
  rd: boolean
  ra: boolean
  ad: boolean
  cd: boolean
  /** The 4-bit header RCODE; EDNS may extend it. */
  rcode: number
  qdcount: number
  ancount: number
  nscount: number
  arcount: number
}

export interface WireQuestion {
  nameWire: Buffer
  typeCode: number
  classCode: number
}

export interface WireRecord {
  /** Offset of the owner name, for decoders that need the original (compressed) bytes. */
  offset: number
  nameWire: Buffer
  typeCode: number
  classCode: number
  /** The 32-bit TTL field as sent (for OPT it holds extended RCODE, version and flags). */
  ttl: number
  rdOffset: number
  rdLength: number
}

export interface WireMessage {
  buffer: Buffer
  header: MessageHeader
  questions: WireQuestion[]
  answers: WireRecord[]
  authorities: WireRecord[]
  additionals: WireRecord[]
}

export function readHeader(buf: Buffer): MessageHeader {
  if (buf.length < HEADER_SIZE) throw new MalformedMessageError(`message of ${buf.length} bytes is shorter than a header`)
  const flags = buf.readUInt16BE(2)
  return {
    id: buf.readUInt16BE(0),
    flags,
    qr: (flags & FLAG_QR) !== 0,
    opcode: (flags >> 11) & 0xf,
    aa: (flags & FLAG_AA) !== 0,
    tc: (flags & FLAG_TC) !== 0,
    rd: (flags & FLAG_RD) !== 0,
    ra: (flags & FLAG_RA) !== 0,
    ad: (flags & FLAG_AD) !== 0,
    cd: (flags & FLAG_CD) !== 0,
    rcode: flags & 0xf,
    qdcount: buf.readUInt16BE(4),
    ancount: buf.readUInt16BE(6),
    nscount: buf.readUInt16BE(8),
    arcount: buf.readUInt16BE(10),
  }
}

function wrap<T>(what: string, fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    if (error instanceof MalformedMessageError) throw error
    throw new MalformedMessageError(`${what}: ${(error as Error).message}`)
  }
}

/** Header and question section only: all that is needed to tell whether a reply is ours. */
export function readQuestions(buf: Buffer): { header: MessageHeader; questions: WireQuestion[]; end: number } {
  const header = readHeader(buf)
  let offset = HEADER_SIZE
  const questions: WireQuestion[] = []
  for (let i = 0; i < header.qdcount; i++) {
    const { wire, end } = wrap('question name', () => readName(buf, offset))
    if (end + 4 > buf.length) throw new MalformedMessageError('question runs past the end of the message')
    questions.push({ nameWire: wire, typeCode: buf.readUInt16BE(end), classCode: buf.readUInt16BE(end + 2) })
    offset = end + 4
  }
  return { header, questions, end: offset }
}

function readRecords(buf: Buffer, count: number, start: number, section: string): { records: WireRecord[]; end: number } {
  const records: WireRecord[] = []
  let offset = start
  for (let i = 0; i < count; i++) {
    const { wire, end } = wrap(`${section} record ${i + 1} name`, () => readName(buf, offset))
    if (end + 10 > buf.length) throw new MalformedMessageError(`${section} record ${i + 1} runs past the end of the message`)
    const rdLength = buf.readUInt16BE(end + 8)
    const rdOffset = end + 10
    if (rdOffset + rdLength > buf.length) throw new MalformedMessageError(`${section} record ${i + 1} RDATA runs past the end of the message`)
    records.push({
      offset,
      nameWire: wire,
      typeCode: buf.readUInt16BE(end),
      classCode: buf.readUInt16BE(end + 2),
      ttl: buf.readUInt32BE(end + 4),
      rdOffset,
      rdLength,
    })
    offset = rdOffset + rdLength
  }
  return { records, end: offset }
}

/** The whole message; throws MalformedMessageError when any boundary is broken. */
export function readMessage(buf: Buffer): WireMessage {
  const { header, questions, end } = readQuestions(buf)
  const an = readRecords(buf, header.ancount, end, 'answer')
  const ns = readRecords(buf, header.nscount, an.end, 'authority')
  const ar = readRecords(buf, header.arcount, ns.end, 'additional')
  // Trailing bytes are tolerated: some middleboxes pad, and nothing here depends on them.
  return { buffer: buf, header, questions, answers: an.records, authorities: ns.records, additionals: ar.records }
}

export interface QuerySpec {
  id: number
  nameWire: Buffer
  typeCode: number
  classCode: number
  recursionDesired: boolean
  checkingDisabled: boolean
  /** The AD bit in a query (RFC 6840 §5.7): "tell me whether you validated this". */
  authenticData?: boolean
  /** EDNS0 OPT (RFC 6891) parameters, or null to send a plain RFC 1035 query. */
  edns: { udpPayloadSize: number; dnssecOk: boolean } | null
}

/** A query is one fixed layout, so it is written directly rather than through a generic encoder. */
export function buildQuery(spec: QuerySpec): Buffer {
  const optSize = spec.edns ? 11 : 0
  const buf = Buffer.alloc(HEADER_SIZE + spec.nameWire.length + 4 + optSize)
  buf.writeUInt16BE(spec.id, 0)
  buf.writeUInt16BE((spec.recursionDesired ? FLAG_RD : 0) | (spec.authenticData ? FLAG_AD : 0) | (spec.checkingDisabled ? FLAG_CD : 0), 2)
  buf.writeUInt16BE(1, 4)
  buf.writeUInt16BE(spec.edns ? 1 : 0, 10)
  let offset = HEADER_SIZE
  offset += spec.nameWire.copy(buf, offset)
  buf.writeUInt16BE(spec.typeCode, offset)
  buf.writeUInt16BE(spec.classCode, offset + 2)
  offset += 4
  if (spec.edns) {
    buf[offset] = 0 // root owner name
    buf.writeUInt16BE(TYPE_OPT, offset + 1)
    buf.writeUInt16BE(spec.edns.udpPayloadSize, offset + 3)
    // TTL field: extended RCODE 0, version 0, then the flags word with DO.
    buf.writeUInt32BE(spec.edns.dnssecOk ? EDNS_FLAG_DO : 0, offset + 5)
    buf.writeUInt16BE(0, offset + 9)
  }
  return buf
}
