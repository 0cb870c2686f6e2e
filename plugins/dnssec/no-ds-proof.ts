// A negative answer to "DS at this name?", read for what it proves (RFC 4035 §5.2,
// RFC 5155 §8.6): a signed NSEC or NSEC3 matching the name with NS and without SOA
// in its bitmap is an unsigned delegation; one without NS means the name is inside
// the zone; a covered name does not exist (nothing below it can be a zone cut) unless
// an opt-out span covers it, which may hide an unsigned delegation. Every record the
// conclusion rests on must be signed by the zone that denies.

import type { DnsAnswer } from '../../runtime/net/dns/dns-records.ts'
import type { DenialReport, TrustedZone, ValidationContext } from './chain-types.ts'
import { checkDenial } from './denial-check.ts'
import { isAtOrBelow, isBelow, type Name } from './names.ts'
import { coveringNsec, matchingNsec, nsecViews } from './nsec.ts'
import { MAX_NSEC3_ITERATIONS, Nsec3Set, nsec3Views } from './nsec3.ts'
import { bogus, insecure, type Outcome } from './verdict.ts'

export type NoDsProof =
  | { kind: 'inside' }
  | { kind: 'no_name' }
  /** The chain ends at the delegation `at` (proven), or `at` lies in an opt-out span (the outcome names the zone). */
  | { kind: 'unsigned_cut'; at: Name; denial: DenialReport; outcome: Outcome }
  | { kind: 'stop'; outcome: Outcome }

const stop = (outcome: Outcome): NoDsProof => ({ kind: 'stop', outcome })
const isCut = (types: ReadonlySet<string>) => types.has('NS') && !types.has('SOA')

export function proveNoDs(ctx: ValidationContext, zone: TrustedZone, name: Name, answer: DnsAnswer): NoDsProof {
  const section = answer.authorities
  const z = zone.name.text
  const nsecs = nsecViews(section).filter((n) => isAtOrBelow(n.owner, zone.name))
  if (nsecs.length > 0) {
    const match = matchingNsec(nsecs, name)
    if (match) {
      if (match.types.has('DS')) return stop(bogus(z, 'invalid_denial', `the NSEC at ${name.text} lists DS, yet the answer has none`))
      const proof = checkDenial(ctx, zone, section, 'nsec', 'no_ds', false, [match])
      if (!proof.ok) return stop(bogus(z, proof.reason, proof.message))
      if (!isCut(match.types)) return { kind: 'inside' }
      return { kind: 'unsigned_cut', at: name, denial: proof.report, outcome: insecure(name.text, 'unsigned_delegation', `${z} delegates ${name.text} without DS, proven by its NSEC record`) }
    }
    const cover = coveringNsec(nsecs, name)
    if (!cover) return stop(bogus(z, 'invalid_denial', `no NSEC in the answer matches or covers ${name.text}`))
    const emptyNonTerminal = isBelow(cover.next, name)
    const proof = checkDenial(ctx, zone, section, 'nsec', emptyNonTerminal ? 'empty_non_terminal' : 'nxdomain', false, [cover])
    if (!proof.ok) return stop(bogus(z, proof.reason, proof.message))
    return emptyNonTerminal ? { kind: 'inside' } : { kind: 'no_name' }
  }

  const nsec3 = new Nsec3Set(nsec3Views(section), zone.name)
  if (nsec3.views.length > 0) {
    zone.link.nsec3Iterations = nsec3.iterations
    if (nsec3.iterations > MAX_NSEC3_ITERATIONS) {
      return stop(insecure(z, 'nsec3_iterations', `${z} uses ${nsec3.iterations} NSEC3 iterations, above the ${MAX_NSEC3_ITERATIONS} validators need to follow (RFC 9276 §3.2)`))
    }
    const match = nsec3.matching(name)
    if (match) {
      if (match.types.has('DS')) return stop(bogus(z, 'invalid_denial', `the NSEC3 for ${name.text} lists DS, yet the answer has none`))
      const proof = checkDenial(ctx, zone, section, 'nsec3', 'no_ds', false, [match])
      if (!proof.ok) return stop(bogus(z, proof.reason, proof.message))
      if (!isCut(match.types)) return { kind: 'inside' }
      return { kind: 'unsigned_cut', at: name, denial: proof.report, outcome: insecure(name.text, 'unsigned_delegation', `${z} delegates ${name.text} without DS, proven by its NSEC3 record`) }
    }
    const closest = nsec3.closestEncloser(name)
    if (typeof closest === 'string') return stop(bogus(z, 'invalid_denial', closest))
    const picked = closest.match === closest.cover ? [closest.match] : [closest.match, closest.cover]
    const optOut = closest.cover.optOut
    const proof = checkDenial(ctx, zone, section, 'nsec3', optOut ? 'no_ds' : 'nxdomain', optOut, picked)
    if (!proof.ok) return stop(bogus(z, proof.reason, proof.message))
    if (!optOut) return { kind: 'no_name' }
    // Whether an unsigned delegation hides in the span is unknowable, and the next
    // closer name may not exist at all: the zone that signed the span is the last one
    // the chain speaks for.
    const at = closest.nextCloser
    const message = `${at.text} falls in an NSEC3 opt-out span of ${z}, which may hide an unsigned delegation: the chain of trust ends at ${z}`
    return { kind: 'unsigned_cut', at, denial: proof.report, outcome: insecure(z, 'opt_out', message, at.text) }
  }
  return stop(bogus(z, 'missing_denial', `${z} is signed, but its answer for ${name.text} DS has neither DS records nor an NSEC/NSEC3 proof`))
}
