// A zone in memory: records grouped by owner and type, the set of names that exist
// (empty non-terminals included, RFC 8020), delegation points, and the NSEC chain in
// canonical order (RFC 4034 §6.1) so denial-of-existence proofs can be served.

import { encodeName, lowercaseWire, wireLabels } from '../../runtime/net/dns/dns-name.ts'
import type { ZoneRecord } from './zone-file.ts'

export const T = { A: 1, NS: 2, CNAME: 5, SOA: 6, MX: 15, AAAA: 28, SRV: 33, DS: 43, RRSIG: 46, NSEC: 47, ANY: 255 } as const

export interface Zone {
  origin: string
  originWire: Buffer
  soa: ZoneRecord
  /** Owner key -> type -> records (RRSIGs under 46). */
  nodes: Map<string, Map<number, ZoneRecord[]>>
  /** Every owner and every name between an owner and the origin. */
  names: Set<string>
  /** NSEC records sorted by owner in canonical order. */
  nsecChain: ZoneRecord[]
}

/** The ancestors of a name (itself first) down to and including `stop`. */
export function ancestors(key: string, stop: string): string[] {
  const out = [key]
  let current = key
  while (current !== stop) {
    const dot = indexOfUnescapedDot(current)
    if (dot < 0) {
      if (stop !== '.') throw new Error(`${key} is not under ${stop}`)
      out.push('.')
      break
    }
    current = current.slice(dot + 1)
    out.push(current)
  }
  return out
}

function indexOfUnescapedDot(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '.') return i
  }
  return -1
}

export function isAtOrBelow(key: string, origin: string): boolean {
  return origin === '.' || key === origin || key.endsWith(`.${origin}`)
}

/** RFC 4034 §6.1: labels compared right to left, as lowercased bytes. */
export function canonicalCompare(a: Buffer, b: Buffer): number {
  const la = wireLabels(lowercaseWire(a)).reverse()
  const lb = wireLabels(lowercaseWire(b)).reverse()
  for (let i = 0; i < Math.min(la.length, lb.length); i++) {
    const c = Buffer.compare(la[i] as Buffer, lb[i] as Buffer)
    if (c !== 0) return c
  }
  return la.length - lb.length
}

function sameRecord(a: ZoneRecord, b: ZoneRecord): boolean {
  return a.key === b.key && a.typeCode === b.typeCode && a.classCode === b.classCode && a.rdata.equals(b.rdata)
}

export function buildZone(records: ZoneRecord[]): Zone {
  const soa = records.find((r) => r.typeCode === T.SOA)
  if (!soa) throw new Error('a zone needs an SOA record')
  const origin = soa.key
  const nodes = new Map<string, Map<number, ZoneRecord[]>>()
  const names = new Set<string>()
  for (const record of records) {
    if (!isAtOrBelow(record.key, origin)) throw new Error(`line ${record.line}: ${record.owner} is outside the zone ${origin}`)
    const node = nodes.get(record.key) ?? new Map<number, ZoneRecord[]>()
    nodes.set(record.key, node)
    const rrset = node.get(record.typeCode) ?? []
    node.set(record.typeCode, rrset)
    // Duplicate records in an RRset are dropped (RFC 2181 §5); the fixtures repeat the SOA.
    if (!rrset.some((r) => sameRecord(r, record))) rrset.push(record)
    for (const name of ancestors(record.key, origin)) names.add(name)
  }
  const nsecChain = records
    .filter((r) => r.typeCode === T.NSEC)
    .sort((a, b) => canonicalCompare(a.ownerWire, b.ownerWire))
  return { origin, originWire: encodeName(origin), soa, nodes, names, nsecChain }
}

export function rrset(zone: Zone, key: string, type: number): ZoneRecord[] {
  return zone.nodes.get(key)?.get(type) ?? []
}

/** The RRSIGs at `key` that cover `type`. */
export function signaturesOf(zone: Zone, key: string, type: number): ZoneRecord[] {
  return rrset(zone, key, T.RRSIG).filter((sig) => sig.rdata.readUInt16BE(0) === type)
}

/** The NSEC whose owner is the closest canonical predecessor of the name: the one covering it. */
export function coveringNsec(zone: Zone, nameWire: Buffer): ZoneRecord | undefined {
  let found: ZoneRecord | undefined
  for (const nsec of zone.nsecChain) {
    if (canonicalCompare(nsec.ownerWire, nameWire) <= 0) found = nsec
    else break
  }
  return found ?? zone.nsecChain[zone.nsecChain.length - 1]
}
