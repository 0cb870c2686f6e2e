// The answer itself, checked with the keys of the zone the chain walk ended in: a
// positive RRset (RFC 4035 §5.3; a wildcard expansion also needs the proof that the
// name itself does not exist, §5.3.4 / RFC 5155 §8.8), a CNAME to follow, or a
// NODATA / NXDOMAIN answer and its NSEC or NSEC3 proof (§5.4 / RFC 5155 §8.4-8.7).

import type { DnsAnswer, DnsRecord } from '../../runtime/net/dns/dns-records.ts'
import type { DnsTypeMnemonic } from '../../runtime/net/dns/dns-types.ts'
import { failedRcode, recordsAt, rrsetAt, rrsigsAt, type DenialReport, type TrustedZone, type ValidationContext } from './chain-types.ts'
import { signedOwner } from './canonical.ts'
import { checkDenial } from './denial-check.ts'
import { isAtOrBelow, nameOf, rrsigLabelCount, suffixOf, type Name } from './names.ts'
import { nsecViews, proveNoExactMatch, proveNodata, proveNxdomain } from './nsec.ts'
import { MAX_NSEC3_ITERATIONS, Nsec3Set, nsec3Views, proveNoExactMatch3, proveNodata3, proveNxdomain3 } from './nsec3.ts'
import type { SigCheck } from './rrsig-check.ts'
import { checkSigned } from './signed-rrset.ts'
import { bogus, indeterminate, insecure, SECURE, type Outcome } from './verdict.ts'

export type AnswerKind = 'answer' | 'cname' | 'nodata' | 'nxdomain' | 'referral' | 'failure'

export interface AnswerCheck {
  outcome: Outcome
  kind: AnswerKind
  /** The RRset of the asked type (or the CNAME) at the name. */
  records: DnsRecord[]
  signatures: SigCheck[]
  /** The wildcard the answer was expanded from, when it was. */
  wildcard: Name | null
  denial: DenialReport | null
  /** Where the CNAME points, when the answer is one. */
  target: Name | null
}

/** What the answer says without judging it (the chain above it already failed or ended). */
export function readAnswer(answer: DnsAnswer, name: Name, type: DnsTypeMnemonic, outcome: Outcome): AnswerCheck {
  const base = { outcome, signatures: [], wildcard: null, denial: null }
  if (failedRcode(answer)) return { ...base, kind: 'failure', records: [], target: null }
  const records = recordsAt(answer.answers, name, type)
  if (records.length > 0) return { ...base, kind: 'answer', records, target: null }
  const cname = rrsetAt(answer.answers, name, 'CNAME')
  if (cname.length > 0 && type !== 'CNAME') return { ...base, kind: 'cname', records: cname, target: nameOf((cname[0] as { data: { target: string } }).data.target) }
  if (answer.rcode === 'NXDOMAIN') return { ...base, kind: 'nxdomain', records: [], target: null }
  const referral = !answer.flags.aa && answer.authorities.some((r) => r.type === 'NS') && !answer.authorities.some((r) => r.type === 'SOA')
  return { ...base, kind: referral ? 'referral' : 'nodata', records: [], target: null }
}

export function checkAnswer(ctx: ValidationContext, zone: TrustedZone, answer: DnsAnswer, name: Name, type: DnsTypeMnemonic): AnswerCheck {
  const read = readAnswer(answer, name, type, SECURE)
  if (read.kind === 'failure') {
    return { ...read, outcome: indeterminate(zone.name.text, 'resolver_failure', `the resolver answered ${answer.rcode} for ${name.text} ${type}`) }
  }
  if (read.kind === 'answer' || read.kind === 'cname') return checkPositive(ctx, zone, answer, name, read.kind === 'answer' ? type : 'CNAME', read)
  return checkNegative(ctx, zone, answer, name, type, read)
}

function checkPositive(ctx: ValidationContext, zone: TrustedZone, answer: DnsAnswer, name: Name, type: string, read: AnswerCheck): AnswerCheck {
  const check = checkSigned(ctx, zone.name, zone.keys, name, type, read.records, rrsigsAt(answer.answers, name, type))
  const result: AnswerCheck = { ...read, signatures: check.checks }
  if (!check.ok || !check.valid) return { ...result, outcome: bogus(zone.name.text, check.failure ?? 'missing_rrsig', check.message) }
  const labels = check.valid.rrsig.data.labels
  if (labels >= rrsigLabelCount(name)) return result
  // Expanded from a wildcard: prove the name itself (and any name between it and the
  // wildcard's parent) does not exist, or the expansion may hide real data.
  const closest = suffixOf(name, labels)
  result.wildcard = signedOwner(name, labels)
  const wildcardProof = proveWildcard(ctx, zone, answer.authorities, name, closest)
  result.denial = wildcardProof.denial
  return { ...result, outcome: wildcardProof.outcome }
}

function proveWildcard(ctx: ValidationContext, zone: TrustedZone, section: readonly DnsRecord[], name: Name, closest: Name): { outcome: Outcome; denial: DenialReport | null } {
  const nsecs = nsecViews(section).filter((n) => isAtOrBelow(n.owner, zone.name))
  if (nsecs.length > 0) {
    const proof = proveNoExactMatch(nsecs, name, closest)
    if (!proof.ok) return { outcome: bogus(zone.name.text, 'invalid_denial', proof.message), denial: null }
    const denial = checkDenial(ctx, zone, section, 'nsec', proof.kind, false, proof.records)
    return { outcome: denial.ok ? SECURE : bogus(zone.name.text, denial.reason, denial.message), denial: denial.report }
  }
  const set = new Nsec3Set(nsec3Views(section), zone.name)
  if (set.views.length > 0) {
    zone.link.nsec3Iterations = set.iterations
    if (set.iterations > MAX_NSEC3_ITERATIONS) return { outcome: iterationsOutcome(zone, set.iterations), denial: null }
    const proof = proveNoExactMatch3(set, name, closest)
    if (!proof.ok) return { outcome: bogus(zone.name.text, 'invalid_denial', proof.message), denial: null }
    const denial = checkDenial(ctx, zone, section, 'nsec3', proof.kind, proof.optOut, proof.records)
    if (!denial.ok) return { outcome: bogus(zone.name.text, denial.reason, denial.message), denial: denial.report }
    return { outcome: proof.optOut ? optOutOutcome(zone, name, proof.nextCloser) : SECURE, denial: denial.report }
  }
  return { outcome: bogus(zone.name.text, 'missing_denial', `${name.text} was expanded from a wildcard without a proof that the name itself does not exist`), denial: null }
}

function checkNegative(ctx: ValidationContext, zone: TrustedZone, answer: DnsAnswer, name: Name, type: DnsTypeMnemonic, read: AnswerCheck): AnswerCheck {
  const section = answer.authorities
  const nxdomain = read.kind === 'nxdomain'
  const nsecs = nsecViews(section).filter((n) => isAtOrBelow(n.owner, zone.name))
  if (nsecs.length > 0) {
    const proof = nxdomain ? proveNxdomain(nsecs, name) : proveNodata(nsecs, name, type)
    if (!proof.ok) return { ...read, outcome: bogus(zone.name.text, 'invalid_denial', proof.message) }
    const denial = checkDenial(ctx, zone, section, 'nsec', proof.kind, false, proof.records)
    return { ...read, kind: nxdomain ? 'nxdomain' : 'nodata', denial: denial.report, outcome: denial.ok ? SECURE : bogus(zone.name.text, denial.reason, denial.message) }
  }
  const set = new Nsec3Set(nsec3Views(section), zone.name)
  if (set.views.length > 0) {
    zone.link.nsec3Iterations = set.iterations
    if (set.iterations > MAX_NSEC3_ITERATIONS) return { ...read, outcome: iterationsOutcome(zone, set.iterations) }
    const proof = nxdomain ? proveNxdomain3(set, name) : proveNodata3(set, name, type)
    if (!proof.ok) return { ...read, outcome: bogus(zone.name.text, 'invalid_denial', proof.message) }
    const denial = checkDenial(ctx, zone, section, 'nsec3', proof.kind, proof.optOut, proof.records)
    const outcome = !denial.ok ? bogus(zone.name.text, denial.reason, denial.message) : proof.optOut ? optOutOutcome(zone, name, proof.nextCloser) : SECURE
    return { ...read, kind: nxdomain ? 'nxdomain' : 'nodata', denial: denial.report, outcome }
  }
  const what = nxdomain ? 'NXDOMAIN' : read.kind === 'referral' ? 'a referral' : 'NODATA'
  return { ...read, outcome: bogus(zone.name.text, 'missing_denial', `${zone.name.text} is signed, but ${what} for ${name.text} ${type} comes without an NSEC or NSEC3 proof`) }
}

// RFC 5155 §9.2: a proof whose next closer name sits in an opt-out span cannot rule
// out an unsigned delegation there, so the answer is not secure.
function optOutOutcome(zone: TrustedZone, name: Name, nextCloser: Name | null): Outcome {
  const z = zone.name.text
  const span = nextCloser ?? name
  return insecure(z, 'opt_out', `the proof for ${name.text} rests on an NSEC3 opt-out span of ${z} covering ${span.text}, which may hide an unsigned delegation`, span.text)
}

function iterationsOutcome(zone: TrustedZone, iterations: number): Outcome {
  return insecure(zone.name.text, 'nsec3_iterations', `${zone.name.text} uses ${iterations} NSEC3 iterations, above the ${MAX_NSEC3_ITERATIONS} validators need to follow (RFC 9276 §3.2)`)
}
