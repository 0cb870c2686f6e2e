// The wire form of each decoded record, kept beside it rather than on it: records stay
// plain data (JSON, YAML, XML, structuredClone and spreads never see a Buffer), while a
// DNSSEC validator working on the fresh answer can still get the exact bytes.

import type { DnsRecord } from './dns-records.ts'

export interface DnsRecordWire {
  /** Owner name, uncompressed, case as received. */
  owner: Buffer
  typeCode: number
  classCode: number
  /** The TTL field as received (before the RFC 2181 clamp). */
  ttl: number
  /**
   * RDATA with compression pointers expanded, case as received: what RFC 4034 §6.2
   * canonical form starts from (the validator still lowercases the names it lists).
   */
  rdata: Buffer
}

const store = new WeakMap<DnsRecord, DnsRecordWire>()

export function rememberWire(record: DnsRecord, wire: DnsRecordWire): void {
  store.set(record, wire)
}

/** The wire bytes of a record decoded from a message; undefined for copies and hand-made records. */
export function wireOf(record: DnsRecord): DnsRecordWire | undefined {
  return store.get(record)
}

/** The character-strings of a TXT/SPF record exactly as sent (binary-safe). */
export function txtRawStrings(record: DnsRecord): Buffer[] | undefined {
  if (record.type !== 'TXT' && record.type !== 'SPF') return undefined
  const wire = store.get(record)
  if (!wire) return undefined
  const out: Buffer[] = []
  let pos = 0
  while (pos < wire.rdata.length) {
    const len = wire.rdata[pos] as number
    out.push(wire.rdata.subarray(pos + 1, pos + 1 + len))
    pos += len + 1
  }
  return out
}
