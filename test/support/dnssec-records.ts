// Records for DNSSEC unit tests, written as master-file text and taken through the
// same wire decoder as real answers, so they carry the wire form (wireOf) the
// validator's canonical form starts from.

import { readMessage } from '../../runtime/net/dns/dns-message.ts'
import { decodeRecord } from '../../runtime/net/dns/dns-rdata.ts'
import type { DnsRecord } from '../../runtime/net/dns/dns-records.ts'
import { encodeReply } from './dns-reply-wire.ts'
import { parseZone } from './zone-file.ts'

export function decodedRecords(text: string, origin = '.'): DnsRecord[] {
  const parsed = parseZone(text, { origin, defaultTtl: 3600 })
  const message = encodeReply({
    id: 1,
    flags: 0x8000,
    rcode: 0,
    question: null,
    answers: parsed.map((r) => ({ owner: r.ownerWire, typeCode: r.typeCode, classCode: r.classCode, ttl: r.ttl, rdata: r.rdata })),
    authorities: [],
    additionals: [],
    opt: null,
  })
  const wire = readMessage(message)
  return wire.answers.map((rr) => decodeRecord(message, rr))
}
