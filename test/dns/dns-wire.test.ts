// Wire-level pieces checked on hand-made bytes: names and compression, the key tag,
// base32hex, serial time, RDATA decompression, and how a received message is judged.

import { describe, expect, it } from 'vitest'
import { fromBase32Hex, toBase32Hex } from '../../runtime/net/dns/dns-base32hex.ts'
import { keyTag } from '../../runtime/net/dns/dns-key-tag.ts'
import { buildQuery, readMessage } from '../../runtime/net/dns/dns-message.ts'
import { encodeName, nameToText, readName, wireNamesEqual } from '../../runtime/net/dns/dns-name.ts'
import { decodeRecord, serialTimeToIso } from '../../runtime/net/dns/dns-rdata.ts'
import { expandRdata } from '../../runtime/net/dns/dns-rdata-expand.ts'
import { inspectReply, type ExpectedReply } from '../../runtime/net/dns/dns-response.ts'
import { wireOf } from '../../runtime/net/dns/dns-wire-store.ts'
import type { WireRR } from '../support/dns-authority.ts'
import { encodeReply } from '../support/dns-reply-wire.ts'
import { KSK, ZSK } from './test-zones.ts'

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex')

describe('names', () => {
  it('encodes presentation names with escapes, and checks lengths', () => {
    expect(encodeName('example.org').toString('hex')).toBe('076578616d706c65036f726700')
    expect(encodeName('example.org.')).toEqual(encodeName('example.org'))
    expect(encodeName('.').toString('hex')).toBe('00')
    expect(encodeName('a\\.b.c').toString('latin1')).toBe('\x03a.b\x01c\x00')
    expect(encodeName('\\000\\255x').toString('hex')).toBe('0300ff7800')
    expect(() => encodeName(`${'a'.repeat(64)}.test`)).toThrow(/label longer than 63/)
    expect(() => encodeName(Array.from({ length: 128 }, () => 'a').join('.'))).toThrow(/longer than 255/)
    expect(() => encodeName('a..b')).toThrow(/empty label/)
    expect(() => encodeName('\\256.test')).toThrow(/not a byte/)
    expect(nameToText(encodeName('a\\.b.\\000x.test'))).toBe('a\\.b.\\000x.test')
  })

  it('follows compression pointers backwards only', () => {
    const msg = Buffer.concat([hex('076578616d706c65036f726700'), hex('03777777c000')])
    expect(readName(msg, 13)).toEqual({ wire: encodeName('www.example.org'), end: 19 })
    expect(() => readName(hex('c002 c000'), 0)).toThrow(/backwards/)
    expect(() => readName(hex('00 c001'), 1)).toThrow(/backwards/)
    expect(() => readName(hex('05 6162'), 0)).toThrow(/past the end/)
    expect(() => readName(hex('80'), 0)).toThrow(/label type/)
  })

  it('compares names case-insensitively for ASCII only', () => {
    expect(wireNamesEqual(encodeName('ExAmPlE.OrG'), encodeName('example.org'))).toBe(true)
    expect(wireNamesEqual(encodeName('example.org'), encodeName('example.com'))).toBe(false)
    expect(wireNamesEqual(encodeName('\\195\\137'), encodeName('\\195\\169'))).toBe(false)
  })
})

describe('small codecs', () => {
  it('computes RFC 4034 key tags', () => {
    const rdata = (flags: number, alg: number, key: string): Buffer => Buffer.concat([hex(flags.toString(16).padStart(4, '0')), Buffer.from([3, alg]), Buffer.from(key, 'base64')])
    expect(keyTag(rdata(257, 8, KSK))).toBe(31967)
    expect(keyTag(rdata(256, 8, ZSK))).toBe(38353)
    // Algorithm 1: bits 8-23 of the end of the modulus.
    expect(keyTag(Buffer.concat([hex('0100 03 01'), hex('aabbccddeeff')]))).toBe(0xddee)
  })

  it('base32hex per RFC 4648 §10, lowercase and unpadded', () => {
    for (const [plain, encoded] of [
      ['', ''],
      ['f', 'co'],
      ['fo', 'cpng'],
      ['foo', 'cpnmu'],
      ['foob', 'cpnmuog'],
      ['fooba', 'cpnmuoj1'],
      ['foobar', 'cpnmuoj1e8'],
    ] as const) {
      expect(toBase32Hex(Buffer.from(plain))).toBe(encoded)
      expect(fromBase32Hex(encoded.toUpperCase()).toString()).toBe(plain)
    }
  })

  it('reads RRSIG times with serial arithmetic around now', () => {
    const now = Date.UTC(2026, 0, 1)
    expect(serialTimeToIso(Date.UTC(2030, 0, 1) / 1000, now)).toBe('2030-01-01T00:00:00.000Z')
    // Past 2106 the 32-bit field wraps: a small number near then means after the wrap.
    expect(serialTimeToIso(100, Date.UTC(2106, 1, 8))).toBe('2106-02-07T06:29:56.000Z')
    expect(serialTimeToIso(100, now)).toBe('1970-01-01T00:01:40.000Z')
  })

  it('builds a query: header, question, OPT with DO', () => {
    const q = buildQuery({ id: 0xbeef, nameWire: encodeName('a.test'), typeCode: 65, classCode: 1, recursionDesired: true, checkingDisabled: true, edns: { udpPayloadSize: 1232, dnssecOk: true } })
    expect(q.toString('hex')).toBe(['beef 0110 0001 0000 0000 0001', '0161 0474657374 00 0041 0001', '00 0029 04d0 00008000 0000'].join('').replace(/\s+/g, ''))
    const plain = buildQuery({ id: 1, nameWire: encodeName('a.test'), typeCode: 1, classCode: 1, recursionDesired: false, checkingDisabled: false, edns: null })
    expect(plain.readUInt16BE(2)).toBe(0)
    const ad = buildQuery({ id: 2, nameWire: encodeName('a.test'), typeCode: 1, classCode: 1, recursionDesired: true, checkingDisabled: false, authenticData: true, edns: null })
    expect(ad.readUInt16BE(2)).toBe(0x0120)
    expect(plain.readUInt16BE(10)).toBe(0)
  })
})

/** A reply with compression the test server never uses: owners and RDATA names point back into the question. */
function compressedReply(): Buffer {
  const parts: Buffer[] = [hex('1234 8580 0001 0003 0000 0000'), encodeName('example.org'), hex('000f 0001')]
  const mxRdata = Buffer.concat([hex('000a'), hex('046d61696c c00c')])
  parts.push(hex('c00c 000f 0001 0000012c'), hex(mxRdata.length.toString(16).padStart(4, '0')), mxRdata)
  // "mail" label of the MX exchange is at: 12 + 13 + 4 (question) + 12 (owner..rdlength) + 2 (preference).
  const mailOffset = 12 + 13 + 4 + 12 + 2
  const soaRdata = Buffer.concat([hex(`c0${mailOffset.toString(16)}`), hex('0a686f73746d6173746572 c00c'), hex('00000001 00000e10 00000384 00093a80 0000003c')])
  parts.push(hex('c00c 0006 0001 0000012c'), hex(soaRdata.length.toString(16).padStart(4, '0')), soaRdata)
  const cnameRdata = hex('03777777 c00c')
  parts.push(hex('c00c 0005 0001 ffffffff'), hex(cnameRdata.length.toString(16).padStart(4, '0')), cnameRdata)
  return Buffer.concat(parts)
}

describe('decoding records', () => {
  it('expands compressed names for the wire copy, and clamps TTLs with the top bit set', () => {
    const buf = compressedReply()
    const msg = readMessage(buf)
    const [mx, soa, cname] = msg.answers.map((rr) => decodeRecord(buf, rr))
    expect(mx).toEqual({ name: 'example.org', type: 'MX', class: 'IN', ttl: 300, data: { preference: 10, exchange: 'mail.example.org' } })
    expect(wireOf(mx as NonNullable<typeof mx>)?.rdata).toEqual(Buffer.concat([hex('000a'), encodeName('mail.example.org')]))
    expect(soa?.data).toEqual({ mname: 'mail.example.org', rname: 'hostmaster.example.org', serial: 1, refresh: 3600, retry: 900, expire: 604800, minimum: 60 })
    expect(wireOf(soa as NonNullable<typeof soa>)?.rdata).toEqual(Buffer.concat([encodeName('mail.example.org'), encodeName('hostmaster.example.org'), hex('00000001 00000e10 00000384 00093a80 0000003c')]))
    expect(cname).toMatchObject({ ttl: 0, data: { target: 'www.example.org' } })
    expect(wireOf(cname as NonNullable<typeof cname>)?.ttl).toBe(0xffffffff)
    expect(wireOf(cname as NonNullable<typeof cname>)?.owner).toEqual(encodeName('example.org'))
  })
})

describe('RDATA decompression by layout', () => {
  // NAPTR: order, preference, then three character-strings, then the replacement
  // name. A string byte that looks like a pointer (0xc0) must be copied, not followed.
  it('copies NAPTR character-strings as they are and expands the compressed replacement', () => {
    const head = Buffer.concat([hex('1234 8180 0001 0001 0000 0000'), encodeName('example.org'), hex('0023 0001')])
    const strings = Buffer.concat([hex('01 53'), hex('07 5349502b443255'), hex('02 c00c')])
    const rdata = Buffer.concat([hex('000a 0064'), strings, hex('04 5f736970 04 5f756470 c00c')])
    const msg = Buffer.concat([head, hex('c00c 0023 0001 0000012c'), hex(rdata.length.toString(16).padStart(4, '0')), rdata])
    const rdOffset = msg.length - rdata.length
    expect(expandRdata(msg, rdOffset, rdata.length, 35)).toEqual(Buffer.concat([hex('000a 0064'), strings, encodeName('_sip._udp.example.org')]))
  })

  it('expands the next name of an NXT record (RFC 2535) and leaves its type bitmap', () => {
    const head = Buffer.concat([hex('1234 8180 0001 0001 0000 0000'), encodeName('example.org'), hex('001e 0001')])
    const rdata = Buffer.concat([hex('01 61 c00c'), hex('40000000')])
    const msg = Buffer.concat([head, hex('c00c 001e 0001 0000012c'), hex(rdata.length.toString(16).padStart(4, '0')), rdata])
    expect(expandRdata(msg, msg.length - rdata.length, rdata.length, 30)).toEqual(Buffer.concat([encodeName('a.example.org'), hex('40000000')]))
  })
})

const EXPECTED: ExpectedReply = { id: 0x1234, nameWire: encodeName('example.org'), typeCode: 15, classCode: 1 }
const QUESTION = Buffer.concat([encodeName('example.org'), hex('000f 0001')])

function reply(over: Partial<Parameters<typeof encodeReply>[0]> = {}): Buffer {
  return encodeReply({ id: 0x1234, flags: 0x8400, rcode: 0, question: QUESTION, answers: [], authorities: [], additionals: [], opt: null, ...over })
}

function optRR(extendedRcode: number, options: Buffer): WireRR {
  return { owner: hex('00'), typeCode: 41, classCode: 1232, ttl: (extendedRcode << 24) | 0x8000, rdata: options }
}

describe('judging a received message', () => {
  it('takes our reply, case-insensitively', () => {
    expect(inspectReply(compressedReply(), EXPECTED).kind).toBe('reply')
    const upper = reply({ question: Buffer.concat([encodeName('EXAMPLE.ORG'), hex('000f 0001')]) })
    expect(inspectReply(upper, EXPECTED).kind).toBe('reply')
  })

  it('ignores what is not ours as foreign', () => {
    expect(inspectReply(reply({ id: 0x1235 }), EXPECTED)).toMatchObject({ kind: 'foreign', why: expect.stringMatching(/^id/) })
    expect(inspectReply(reply({ flags: 0x0000 }), EXPECTED)).toMatchObject({ kind: 'foreign', why: 'not a response' })
    expect(inspectReply(reply({ flags: 0x8000 | (4 << 11) }), EXPECTED)).toMatchObject({ kind: 'foreign', why: 'opcode 4' })
    expect(inspectReply(reply({ question: null }), EXPECTED)).toMatchObject({ kind: 'foreign', why: '0 questions' })
    expect(inspectReply(reply({ question: Buffer.concat([encodeName('example.com'), hex('000f 0001')]) }), EXPECTED).kind).toBe('foreign')
    expect(inspectReply(reply({ question: Buffer.concat([encodeName('example.org'), hex('0001 0001')]) }), EXPECTED).kind).toBe('foreign')
    expect(inspectReply(reply({ question: Buffer.concat([encodeName('example.org'), hex('000f 0003')]) }), EXPECTED).kind).toBe('foreign')
  })

  it('reports truncation without decoding the body', () => {
    const cut = Buffer.concat([reply({ flags: 0x8600 }).subarray(0, 12 + QUESTION.length), hex('c00c 00')])
    cut.writeUInt16BE(3, 6)
    expect(inspectReply(cut, EXPECTED)).toEqual({ kind: 'truncated' })
  })

  it('calls broken messages malformed', () => {
    expect(inspectReply(hex('1234'), EXPECTED).kind).toBe('malformed')
    const shortA: WireRR = { owner: encodeName('example.org'), typeCode: 1, classCode: 1, ttl: 1, rdata: hex('010203') }
    expect(inspectReply(reply({ answers: [shortA] }), EXPECTED)).toMatchObject({ kind: 'malformed', why: expect.stringMatching(/A record.*not 4 bytes/) })
    const lying = reply({ answers: [{ ...shortA, rdata: hex('01020304') }] })
    expect(inspectReply(lying.subarray(0, lying.length - 1), EXPECTED).kind).toBe('malformed')
    const twoOpts = reply({ additionals: [optRR(0, Buffer.alloc(0)), optRR(0, Buffer.alloc(0))] })
    expect(inspectReply(twoOpts, EXPECTED)).toMatchObject({ kind: 'malformed', why: 'more than one OPT record' })
    const badSvcb: WireRR = { owner: encodeName('example.org'), typeCode: 65, classCode: 1, ttl: 1, rdata: hex('0001 00 0003 0001 01') }
    expect(inspectReply(reply({ answers: [badSvcb] }), EXPECTED).kind).toBe('malformed')
  })

  it('reads EDNS: extended RCODE, Extended DNS Errors and NSID', () => {
    const ede = Buffer.concat([hex('000f 000b 0006'), Buffer.from('sig bogus')])
    const nsid = Buffer.concat([hex('0003 0004'), Buffer.from('ns-1')])
    const result = inspectReply(reply({ rcode: 2, additionals: [optRR(0, Buffer.concat([ede, nsid]))] }), EXPECTED)
    if (result.kind !== 'reply') throw new Error(result.kind)
    expect(result.reply.rcode).toBe('SERVFAIL')
    expect(result.reply.edns).toEqual({
      version: 0,
      udpPayloadSize: 1232,
      dnssecOk: true,
      options: [
        { code: 15, data: ede.subarray(4).toString('hex') },
        { code: 3, data: Buffer.from('ns-1').toString('hex') },
      ],
      extendedErrors: [{ infoCode: 6, extraText: 'sig bogus' }],
      nsid: 'ns-1',
    })
    expect(result.reply.additionals).toEqual([])
    const badvers = inspectReply(reply({ additionals: [optRR(1, Buffer.alloc(0))] }), EXPECTED)
    expect(badvers.kind === 'reply' && badvers.reply.rcode).toBe('BADVERS')
  })
})
