// What one validation learns, zone by zone, before it is presented: the records seen,
// every signature check and proof, so the API can show why, not only what.

import type { DnsAnswer, DnskeyRecord, DnsRecord, DnsRecordOfType, DsRecord, Nsec3Record, NsecRecord, RrsigRecord } from '../../runtime/net/dns/dns-records.ts'
import type { DnsTypeMnemonic } from '../../runtime/net/dns/dns-types.ts'
import type { TrustAnchor } from './trust-anchors.ts'
import type { Name } from './names.ts'
import { ownerOf, sameName } from './names.ts'
import type { SigCheck } from './rrsig-check.ts'
import type { Status } from './verdict.ts'

export interface DenialReport {
  kind: 'nsec' | 'nsec3'
  /** What was proven: nodata, nxdomain, empty_non_terminal, wildcard_nodata, no_exact_match, no_ds. */
  proves: string
  optOut: boolean
  records: Array<NsecRecord | Nsec3Record>
  signatures: SigCheck[]
}

/** One zone of the chain, or the delegation where the chain ends. */
export interface ZoneLink {
  zone: Name
  status: Status
  /** How its keys came to be trusted. */
  trust: 'trust_anchor' | 'ds' | null
  ds: DsRecord[]
  dsSignatures: SigCheck[]
  dnskeys: DnskeyRecord[]
  dnskeySignatures: SigCheck[]
  /** Keys a DS (or trust anchor) points at. */
  entryKeys: DnskeyRecord[]
  /** For a delegation without DS: the proof that there is none. */
  denial: DenialReport | null
  /** NSEC3 iteration count seen in this zone's proofs, when any. */
  nsec3Iterations: number | null
  message: string
}

/** A zone whose DNSKEY RRset is authenticated: its keys may vouch for its data. */
export interface TrustedZone {
  name: Name
  keys: DnskeyRecord[]
  link: ZoneLink
}

export interface ValidationContext {
  fetch(name: Name, type: DnsTypeMnemonic): Promise<DnsAnswer>
  /** Seconds since the epoch: the clock signatures are judged by. */
  now: number
  anchors: readonly TrustAnchor[]
  links: ZoneLink[]
  /** Caps how long the result may be reused (TTLs, signature expiry). */
  noteTtl(seconds: number): void
}

export function newLink(zone: Name, trust: ZoneLink['trust']): ZoneLink {
  return { zone, status: 'indeterminate', trust, ds: [], dsSignatures: [], dnskeys: [], dnskeySignatures: [], entryKeys: [], denial: null, nsec3Iterations: null, message: '' }
}

export function rrsetAt<T extends DnsRecord['type']>(records: readonly DnsRecord[], owner: Name, type: T): Array<DnsRecordOfType<T>> {
  return records.filter((r) => r.type === type && sameName(ownerOf(r), owner)) as Array<DnsRecordOfType<T>>
}

/** The same for a type known only at run time. */
export function recordsAt(records: readonly DnsRecord[], owner: Name, type: string): DnsRecord[] {
  return records.filter((r) => r.type === type && sameName(ownerOf(r), owner))
}

export function rrsigsAt(records: readonly DnsRecord[], owner: Name, covered: string): RrsigRecord[] {
  return records.filter((r): r is RrsigRecord => r.type === 'RRSIG' && r.data.typeCovered === covered && sameName(ownerOf(r), owner))
}

/** The resolver answered, but not with data or a denial (SERVFAIL, REFUSED, ...). */
export function failedRcode(answer: DnsAnswer): boolean {
  return answer.rcode !== 'NOERROR' && answer.rcode !== 'NXDOMAIN'
}
