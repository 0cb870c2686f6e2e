// Checking an RRset against its RRSIGs with a zone's keys (RFC 4035 §5.3): the RRSIG
// must cover the type, name the zone as signer, have a Labels value the owner allows,
// point at a zone key of a supported algorithm, be inside its validity window (serial
// arithmetic, RFC 4034 §3.1.5) and verify. One good signature is enough (RFC 6840
// §5.11 lets any supported algorithm do); when none is, the most telling failure is
// the reason.

import type { DnskeyRecord, DnsRecord, RrsigRecord } from '../../runtime/net/dns/dns-records.ts'
import { algorithmSupported } from './algorithms.ts'
import { rrsigSigner, signedData, wireOrThrow } from './canonical.ts'
import { nameFromWire, rrsigLabelCount, sameName, type Name } from './names.ts'
import { importDnskey } from './public-key.ts'
import { isoOf, rrsigTimes } from './rrsig-times.ts'
import type { BogusReason } from './verdict.ts'
import { verifySignature } from './verify-signature.ts'

export type SigStatus =
  | 'valid'
  | 'expired'
  | 'not_yet_valid'
  | 'bad_signature'
  | 'no_matching_key'
  | 'unsupported_algorithm'
  | 'wrong_signer'
  | 'bad_labels'
  /** Another signature already validated the RRset. */
  | 'not_checked'

export interface SigCheck {
  rrsig: RrsigRecord
  status: SigStatus
  /** The key that verified it, or the last one tried. */
  key?: DnskeyRecord
}

export interface RRsetCheck {
  ok: boolean
  checks: SigCheck[]
  /** Why no signature was good; null when one was. */
  failure: BogusReason | null
  message: string
  /** The good signature, when there is one. */
  valid?: SigCheck
}

export interface RRsetToCheck {
  owner: Name
  type: string
  rrset: readonly DnsRecord[]
  rrsigs: readonly RrsigRecord[]
  signer: Name
  keys: readonly DnskeyRecord[]
  /**
   * Only signatures by these keys count (a DNSKEY RRset must be signed by a key its
   * DS or trust anchor points at, RFC 4035 §5.2); others are still checked and shown.
   */
  trusted?: readonly DnskeyRecord[]
  /** Seconds since the epoch. */
  now: number
}

const TWO_32 = 2 ** 32

/** RFC 1982 serial comparison of 32-bit values: a is at or before b. */
function serialAtOrBefore(a: number, b: number): boolean {
  return (b - a + TWO_32) % TWO_32 < 2 ** 31
}

export function timeStatus(rrsigRdata: Buffer, now: number): 'valid' | 'expired' | 'not_yet_valid' {
  const expiration = rrsigRdata.readUInt32BE(8)
  const inception = rrsigRdata.readUInt32BE(12)
  const current = Math.floor(now) % TWO_32
  if (!serialAtOrBefore(inception, current)) return 'not_yet_valid'
  if (!serialAtOrBefore(current, expiration)) return 'expired'
  return 'valid'
}

// Signatures are verified once per (RRSIG, key) pair of record objects: the resolver
// cache hands out the same decoded answer until its TTL runs out, so a warm chain
// costs no public-key operations. The RRset is always taken from the RRSIG's own
// message, so the pair determines the signed data.
const verified = new WeakMap<RrsigRecord, WeakMap<DnskeyRecord, boolean>>()

function cryptoCheck(rrsig: RrsigRecord, key: DnskeyRecord, owner: Name, rrset: readonly DnsRecord[]): boolean {
  let byKey = verified.get(rrsig)
  const known = byKey?.get(key)
  if (known !== undefined) return known
  const imported = importDnskey(key.data.algorithm, key.data.key)
  let ok = false
  if (imported.ok) {
    const rdata = wireOrThrow(rrsig).rdata
    ok = verifySignature(imported.value, signedData(rdata, owner, rrset), Buffer.from(rrsig.data.signature, 'base64'))
  }
  if (!byKey) {
    byKey = new WeakMap()
    verified.set(rrsig, byKey)
  }
  byKey.set(key, ok)
  return ok
}

const FAILURE_ORDER: readonly SigStatus[] = ['bad_signature', 'expired', 'not_yet_valid', 'no_matching_key', 'wrong_signer', 'bad_labels']

const FAILURE_REASON: Readonly<Record<string, BogusReason>> = {
  bad_signature: 'bad_signature',
  expired: 'expired',
  not_yet_valid: 'not_yet_valid',
  no_matching_key: 'no_matching_key',
  wrong_signer: 'missing_rrsig',
  bad_labels: 'missing_rrsig',
}

function describe(status: SigStatus, set: string, rrsig: RrsigRecord, signer: Name, now: number): string {
  const sig = `the RRSIG over ${set} by key ${rrsig.data.keyTag} (algorithm ${rrsig.data.algorithm})`
  switch (status) {
    case 'bad_signature':
      return `${sig} does not verify`
    case 'expired':
      return `${sig} expired at ${isoOf(rrsigTimes(rrsig, now * 1000).expiresAt)}`
    case 'not_yet_valid':
      return `${sig} is not valid before ${isoOf(rrsigTimes(rrsig, now * 1000).inceptionAt)}`
    case 'no_matching_key':
      return `${sig} names no DNSKEY of ${signer.text}`
    case 'wrong_signer':
      return `${set} is signed by ${rrsig.data.signerName}, not by its zone ${signer.text}`
    default:
      return `${sig} has a Labels value its owner cannot have`
  }
}

export function checkRRset(input: RRsetToCheck): RRsetCheck {
  const { owner, type, rrset, signer, keys, trusted, now } = input
  const set = `${owner.text} ${type}`
  const counts = (rrsig: RrsigRecord) => !trusted || trusted.some((k) => k.data.keyTag === rrsig.data.keyTag && k.data.algorithm === rrsig.data.algorithm)
  // Signatures by keys that count go first, so the usual case is one verification.
  const rrsigs = input.rrsigs.filter((r) => r.data.typeCovered === type).sort((a, b) => Number(counts(b)) - Number(counts(a)))
  const checks: SigCheck[] = []
  for (const [i, rrsig] of rrsigs.entries()) {
    const check = checkOne(rrsig, owner, rrset, signer, keys, now)
    checks.push(check)
    if (check.status === 'valid' && (!trusted || (check.key !== undefined && trusted.includes(check.key)))) {
      for (const rest of rrsigs.slice(i + 1)) checks.push({ rrsig: rest, status: 'not_checked' })
      return { ok: true, checks, failure: null, message: `${set} is signed by ${signer.text}`, valid: check }
    }
  }
  if (checks.length === 0) return { ok: false, checks, failure: 'missing_rrsig', message: `${set} has no RRSIG` }
  const relevant = checks.filter((c) => counts(c.rrsig))
  if (relevant.length === 0) return { ok: false, checks, failure: 'missing_rrsig', message: `${set} has no RRSIG by the key its DS or trust anchor points at` }
  for (const status of FAILURE_ORDER) {
    const failed = relevant.find((c) => c.status === status)
    if (failed) return { ok: false, checks, failure: FAILURE_REASON[status] as BogusReason, message: describe(status, set, failed.rrsig, signer, now) }
  }
  return { ok: false, checks, failure: 'missing_rrsig', message: `${set} has no RRSIG of an algorithm this validator implements` }
}

function checkOne(rrsig: RrsigRecord, owner: Name, rrset: readonly DnsRecord[], signer: Name, keys: readonly DnskeyRecord[], now: number): SigCheck {
  if (!sameName(nameFromWire(rrsigSigner(wireOrThrow(rrsig).rdata)), signer)) return { rrsig, status: 'wrong_signer' }
  if (rrsig.data.labels > rrsigLabelCount(owner)) return { rrsig, status: 'bad_labels' }
  if (!algorithmSupported(rrsig.data.algorithm)) return { rrsig, status: 'unsupported_algorithm' }
  const candidates = keys.filter((k) => k.data.keyTag === rrsig.data.keyTag && k.data.algorithm === rrsig.data.algorithm && k.data.zoneKey && !k.data.revoked)
  if (candidates.length === 0) return { rrsig, status: 'no_matching_key' }
  const window = timeStatus(wireOrThrow(rrsig).rdata, now)
  if (window !== 'valid') return { rrsig, status: window, key: candidates[0] as DnskeyRecord }
  // Key tags collide now and then (RFC 4034 Appendix B); every key with the tag is tried.
  for (const key of candidates) if (cryptoCheck(rrsig, key, owner, rrset)) return { rrsig, status: 'valid', key }
  return { rrsig, status: 'bad_signature', key: candidates[0] as DnskeyRecord }
}
