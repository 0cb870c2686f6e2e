// Authoritative answers from in-memory zones (RFC 1034 §4.3.2): referrals with glue at
// delegations, CNAME chains followed inside the zone, wildcards (RFC 4592), NXDOMAIN
// versus NODATA with the SOA in authority (RFC 2308), and with DO the RRSIGs and the
// NSEC records the zone holds (or NSEC3, dns-nsec3.ts). Enough to be a believable
// server, not a complete one.

import { lowercaseWire, nameToText, encodeName } from '../../runtime/net/dns/dns-name.ts'
import { nsec3Of } from './dns-nsec3.ts'
import { ancestors, coveringNsec, isAtOrBelow, rrset, signaturesOf, T, type Zone } from './dns-zone.ts'
import type { ZoneRecord } from './zone-file.ts'

export interface WireRR {
  owner: Buffer
  typeCode: number
  classCode: number
  ttl: number
  rdata: Buffer
}

export interface AuthorityAnswer {
  rcode: number
  aa: boolean
  answers: WireRR[]
  authorities: WireRR[]
  additionals: WireRR[]
}

export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const

const MAX_CNAME_CHAIN = 8

function keyOf(wire: Buffer): string {
  return nameToText(lowercaseWire(wire))
}

function toWire(record: ZoneRecord, owner: Buffer = record.ownerWire, ttl: number = record.ttl): WireRR {
  return { owner, typeCode: record.typeCode, classCode: record.classCode, ttl, rdata: record.rdata }
}

function pickZone(zones: Zone[], key: string, qtype: number): Zone | undefined {
  const candidates = zones.filter((z) => isAtOrBelow(key, z.origin)).sort((a, b) => b.origin.length - a.origin.length)
  // DS lives on the parent side of a cut: when both sides are served, the parent answers.
  if (qtype === T.DS && candidates[0]?.origin === key && candidates[1]) return candidates[1]
  return candidates[0]
}

class Responder {
  readonly out: AuthorityAnswer = { rcode: RCODE.NOERROR, aa: true, answers: [], authorities: [], additionals: [] }
  constructor(
    private readonly zone: Zone,
    private readonly dnssec: boolean,
  ) {}

  private add(list: WireRR[], records: ZoneRecord[], key: string, type: number, owner?: Buffer): void {
    for (const r of records) list.push(toWire(r, owner))
    if (this.dnssec) for (const sig of signaturesOf(this.zone, key, type)) list.push(toWire(sig, owner))
  }

  resolve(nameWire: Buffer, qtype: number, depth: number): void {
    const zone = this.zone
    const key = keyOf(nameWire)
    const path = ancestors(key, zone.origin).reverse()
    for (const name of path) {
      if (name === zone.origin) continue
      const cut = rrset(zone, name, T.NS)
      if (cut.length > 0 && !(name === key && qtype === T.DS)) {
        // A CNAME chain that runs into a delegation ends there; the resolver follows it.
        if (depth === 0) this.referral(name, cut)
        return
      }
    }
    if (zone.names.has(key)) return this.node(key, nameWire, qtype, depth, false)
    const encloser = path.slice(0, -1).reverse().find((name) => zone.names.has(name)) ?? zone.origin
    const wildcard = encloser === '.' ? '*' : `*.${encloser}`
    const nsec3 = nsec3Of(zone)
    if (zone.nodes.has(wildcard)) {
      if (this.dnssec) for (const proof of nsec3 ? nsec3.wildcardAnswer(nameWire, encodeName(encloser)) : [coveringNsec(zone, nameWire)]) this.addNsec(proof)
      return this.node(wildcard, nameWire, qtype, depth, true)
    }
    this.out.rcode = RCODE.NXDOMAIN
    this.negative(nsec3 ? nsec3.nxdomain(nameWire) : [coveringNsec(zone, nameWire), coveringNsec(zone, encodeName(wildcard))])
  }

  private node(key: string, owner: Buffer, qtype: number, depth: number, synthesized: boolean): void {
    const zone = this.zone
    const ownerFor = (r: ZoneRecord[]): Buffer => (synthesized ? owner : (r[0]?.ownerWire ?? owner))
    if (qtype === T.ANY) {
      const types = [...(zone.nodes.get(key)?.keys() ?? [])].filter((t) => t !== T.RRSIG)
      for (const t of types) this.add(this.out.answers, rrset(zone, key, t), key, t, ownerFor(rrset(zone, key, t)))
      if (types.length === 0) this.negative(rrset(zone, key, T.NSEC))
      return
    }
    const records = rrset(zone, key, qtype)
    if (records.length > 0) {
      this.add(this.out.answers, records, key, qtype, ownerFor(records))
      this.additional(records)
      return
    }
    const cname = rrset(zone, key, T.CNAME)
    if (cname.length > 0 && qtype !== T.CNAME) {
      this.add(this.out.answers, cname, key, T.CNAME, ownerFor(cname))
      const target = (cname[0] as ZoneRecord).rdata
      if (depth < MAX_CNAME_CHAIN && isAtOrBelow(keyOf(target), zone.origin)) this.resolve(target, qtype, depth + 1)
      return
    }
    const nsec3 = nsec3Of(zone)
    if (nsec3) this.negative(synthesized ? nsec3.wildcardNodata(owner, encodeName(key)) : nsec3.nodata(owner))
    else {
      // An empty non-terminal has no NSEC of its own: the one covering it proves NODATA.
      const own = rrset(zone, key, T.NSEC)
      this.negative(own.length > 0 ? own : [coveringNsec(zone, owner)])
    }
  }

  private referral(cutKey: string, ns: ZoneRecord[]): void {
    const zone = this.zone
    this.out.aa = false
    for (const r of ns) this.out.authorities.push(toWire(r))
    if (this.dnssec) {
      const ds = rrset(zone, cutKey, T.DS)
      const nsec3 = nsec3Of(zone)
      if (ds.length > 0) this.add(this.out.authorities, ds, cutKey, T.DS)
      else if (nsec3) for (const proof of nsec3.nodata(encodeName(cutKey))) this.addNsec(proof)
      else this.addNsec(rrset(zone, cutKey, T.NSEC)[0])
    }
    for (const r of ns) this.glue(r.rdata, false)
  }

  private glue(targetWire: Buffer, signed: boolean): void {
    const key = keyOf(targetWire)
    if (!isAtOrBelow(key, this.zone.origin)) return
    for (const type of [T.A, T.AAAA]) {
      const records = rrset(this.zone, key, type)
      if (records.length === 0 || this.out.answers.some((rr) => rr.typeCode === type && keyOf(rr.owner) === key)) continue
      if (signed) this.add(this.out.additionals, records, key, type)
      else for (const r of records) this.out.additionals.push(toWire(r))
    }
  }

  /** Addresses of NS, MX and SRV targets the zone has (RFC 1035 §3.3.9 additional processing). */
  private additional(records: ZoneRecord[]): void {
    for (const r of records) {
      if (r.typeCode === T.NS) this.glue(r.rdata, true)
      else if (r.typeCode === T.MX) this.glue(r.rdata.subarray(2), true)
      else if (r.typeCode === T.SRV) this.glue(r.rdata.subarray(6), true)
    }
  }

  /** An NSEC or NSEC3 record with its RRSIG, once. */
  private addNsec(nsec: ZoneRecord | undefined): void {
    if (!nsec || this.out.authorities.some((rr) => rr.typeCode === nsec.typeCode && rr.owner.equals(nsec.ownerWire))) return
    this.add(this.out.authorities, [nsec], nsec.key, nsec.typeCode)
  }

  /** NXDOMAIN/NODATA: the SOA with the negative TTL (RFC 2308 §3), and with DO the proofs. */
  private negative(nsecs: Array<ZoneRecord | undefined>): void {
    const soa = this.zone.soa
    const ttl = Math.min(soa.ttl, soa.rdata.readUInt32BE(soa.rdata.length - 4))
    this.out.authorities.push(toWire(soa, soa.ownerWire, ttl))
    if (!this.dnssec) return
    for (const sig of signaturesOf(this.zone, soa.key, T.SOA)) this.out.authorities.push(toWire(sig, sig.ownerWire, ttl))
    for (const nsec of nsecs) this.addNsec(nsec)
  }
}

export function answerFromZones(zones: Zone[], q: { nameWire: Buffer; typeCode: number; classCode: number }, dnssec: boolean): AuthorityAnswer {
  const key = keyOf(q.nameWire)
  const zone = q.classCode === 1 || q.classCode === 255 ? pickZone(zones, key, q.typeCode) : undefined
  if (!zone) return { rcode: RCODE.REFUSED, aa: false, answers: [], authorities: [], additionals: [] }
  const responder = new Responder(zone, dnssec)
  responder.resolve(q.nameWire, q.typeCode, 0)
  return responder.out
}
