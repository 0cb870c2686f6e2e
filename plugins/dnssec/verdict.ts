// The four answers of RFC 4035 §4.3 and the reasons behind them, as codes an API
// user can branch on (the message beside each says it in words).

export type Status = 'secure' | 'insecure' | 'bogus' | 'indeterminate'

export type BogusReason =
  | 'bad_signature'
  | 'expired'
  | 'not_yet_valid'
  | 'missing_rrsig'
  | 'no_matching_key'
  | 'ds_dnskey_mismatch'
  | 'dnskey_missing'
  | 'missing_denial'
  | 'invalid_denial'

export type InsecureReason = 'unsigned_delegation' | 'opt_out' | 'unsupported_algorithm' | 'unsupported_digest' | 'nsec3_iterations'

export type IndeterminateReason = 'no_trust_anchor' | 'unsupported_trust_anchor' | 'resolver_failure'

export type Outcome =
  | { status: 'secure' }
  | {
      status: 'insecure'
      /** Always a zone: the unsigned child of a proven cut, or the signed zone whose own proof leaves the question open. */
      at: string
      reason: InsecureReason
      message: string
      /** For opt_out: the name inside the opt-out span (the proof's next closer name), where an unsigned delegation may be. */
      optOutName: string | null
    }
  | { status: 'bogus'; at: string; reason: BogusReason; message: string }
  | { status: 'indeterminate'; at: string | null; reason: IndeterminateReason; message: string }

export const SECURE: Outcome = { status: 'secure' }

export function bogus(at: string, reason: BogusReason, message: string): Outcome {
  return { status: 'bogus', at, reason, message }
}

export function insecure(at: string, reason: InsecureReason, message: string, optOutName: string | null = null): Outcome {
  return { status: 'insecure', at, reason, message, optOutName }
}

export function indeterminate(at: string | null, reason: IndeterminateReason, message: string): Outcome {
  return { status: 'indeterminate', at, reason, message }
}

// A CNAME chain is only as good as its weakest link (RFC 4035 §5.2: every RRset on the
// way must be secure for the answer to be).
const RANK: Readonly<Record<Status, number>> = { secure: 0, insecure: 1, indeterminate: 2, bogus: 3 }

export function worst(a: Outcome, b: Outcome): Outcome {
  return RANK[b.status] > RANK[a.status] ? b : a
}
