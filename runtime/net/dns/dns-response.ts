// Deciding whether a received message is the reply to our query, and decoding it.
// A reply counts only if it is a response to opcode QUERY with our id and exactly our
// question (name compared case-insensitively, so 0x20-style case changes pass);
// anything else is "foreign" and ignored, as an off-path spoof would be.

import { MalformedMessageError, readMessage, readQuestions, TYPE_OPT, EDNS_FLAG_DO, type MessageHeader, type WireRecord } from './dns-message.ts'
import { wireNamesEqual } from './dns-name.ts'
import { decodeRecord } from './dns-rdata.ts'
import type { DnsEdns, DnsFlags, DnsRecord } from './dns-records.ts'
import { rcodeName, type DnsRcode } from './dns-types.ts'

export interface ExpectedReply {
  id: number
  nameWire: Buffer
  typeCode: number
  classCode: number
}

export interface DecodedReply {
  rcode: DnsRcode
  flags: DnsFlags
  answers: DnsRecord[]
  authorities: DnsRecord[]
  additionals: DnsRecord[]
  edns: DnsEdns | null
}

export type Inspection =
  | { kind: 'reply'; reply: DecodedReply }
  /** Ours, with TC set: the body may be cut anywhere, so it is not decoded. */
  | { kind: 'truncated' }
  | { kind: 'foreign'; why: string }
  | { kind: 'malformed'; why: string }

const OPTION_NSID = 3
const OPTION_EDE = 15

function decodeEdns(msg: Buffer, opt: WireRecord): DnsEdns {
  const options: DnsEdns['options'] = []
  const extendedErrors: DnsEdns['extendedErrors'] = []
  let nsid: string | undefined
  let pos = opt.rdOffset
  const end = opt.rdOffset + opt.rdLength
  while (pos < end) {
    if (pos + 4 > end) throw new MalformedMessageError('EDNS option header truncated')
    const code = msg.readUInt16BE(pos)
    const len = msg.readUInt16BE(pos + 2)
    if (pos + 4 + len > end) throw new MalformedMessageError(`EDNS option ${code} truncated`)
    const data = msg.subarray(pos + 4, pos + 4 + len)
    options.push({ code, data: data.toString('hex') })
    if (code === OPTION_EDE && len >= 2) extendedErrors.push({ infoCode: data.readUInt16BE(0), extraText: data.subarray(2).toString('utf8') })
    if (code === OPTION_NSID) nsid = data.toString('utf8')
    pos += 4 + len
  }
  const edns: DnsEdns = {
    version: (opt.ttl >>> 16) & 0xff,
    udpPayloadSize: opt.classCode,
    dnssecOk: (opt.ttl & EDNS_FLAG_DO) !== 0,
    options,
    extendedErrors,
  }
  if (nsid !== undefined) edns.nsid = nsid
  return edns
}

function flagsOf(h: MessageHeader): DnsFlags {
  return { aa: h.aa, tc: h.tc, rd: h.rd, ra: h.ra, ad: h.ad, cd: h.cd }
}

function decodeBody(buf: Buffer): DecodedReply {
  const msg = readMessage(buf)
  const opts = msg.additionals.filter((rr) => rr.typeCode === TYPE_OPT)
  if (opts.length > 1) throw new MalformedMessageError('more than one OPT record')
  const opt = opts[0]
  if (opt && !(opt.nameWire.length === 1 && opt.nameWire[0] === 0)) throw new MalformedMessageError('OPT record not owned by the root')
  const edns = opt ? decodeEdns(buf, opt) : null
  const extended = opt ? opt.ttl >>> 24 : 0
  return {
    rcode: rcodeName((extended << 4) | msg.header.rcode),
    flags: flagsOf(msg.header),
    answers: msg.answers.map((rr) => decodeRecord(buf, rr)),
    authorities: msg.authorities.map((rr) => decodeRecord(buf, rr)),
    additionals: msg.additionals.filter((rr) => rr.typeCode !== TYPE_OPT).map((rr) => decodeRecord(buf, rr)),
    edns,
  }
}

export function inspectReply(buf: Buffer, expected: ExpectedReply): Inspection {
  let envelope
  try {
    envelope = readQuestions(buf)
  } catch (error) {
    // Still ignored like any stray packet; it only decides how a later timeout is reported.
    return { kind: 'malformed', why: (error as Error).message }
  }
  const { header, questions } = envelope
  if (!header.qr) return { kind: 'foreign', why: 'not a response' }
  if (header.id !== expected.id) return { kind: 'foreign', why: `id ${header.id} is not ${expected.id}` }
  if (header.opcode !== 0) return { kind: 'foreign', why: `opcode ${header.opcode}` }
  const q = questions[0]
  if (questions.length !== 1 || !q) return { kind: 'foreign', why: `${questions.length} questions` }
  if (q.typeCode !== expected.typeCode || q.classCode !== expected.classCode || !wireNamesEqual(q.nameWire, expected.nameWire)) {
    return { kind: 'foreign', why: 'question does not match' }
  }
  if (header.tc) return { kind: 'truncated' }
  try {
    return { kind: 'reply', reply: decodeBody(buf) }
  } catch (error) {
    return { kind: 'malformed', why: (error as Error).message }
  }
}
