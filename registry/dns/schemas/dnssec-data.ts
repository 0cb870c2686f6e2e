import { z } from 'zod'
import { DnsRecordData } from './dns-data.ts'

// Shape of /api/dns/dnssec data (documentation and tests).

const Status = z.enum(['secure', 'insecure', 'bogus', 'indeterminate'])

const Rrsig = z.object({
  type_covered: z.string(),
  signer: z.string(),
  key_tag: z.number().int(),
  algorithm: z.number().int(),
  algorithm_name: z.string(),
  labels: z.number().int(),
  inception: z.string(),
  expiration: z.string(),
  status: z.enum(['valid', 'expired', 'not_yet_valid', 'bad_signature', 'no_matching_key', 'unsupported_algorithm', 'wrong_signer', 'bad_labels', 'not_checked']).meta({
    description: 'What checking this signature found (valid: verified with a trusted key inside its validity window; not_checked: another signature already validated the RRset)',
  }),
})

const Denial = z
  .object({
    type: z.enum(['nsec', 'nsec3']),
    proves: z.string().meta({ description: 'nodata, nxdomain, empty_non_terminal, wildcard_nodata, no_exact_match (wildcard expansion) or no_ds' }),
    opt_out: z.boolean(),
    records: z.array(z.object({ name: z.string(), type: z.string(), next: z.string(), types: z.array(z.string()) })),
    rrsigs: z.array(Rrsig),
  })
  .meta({ description: 'The NSEC/NSEC3 records an authenticated denial rests on' })

const Ds = z.object({
  key_tag: z.number().int(),
  algorithm: z.number().int(),
  algorithm_name: z.string(),
  digest_type: z.number().int(),
  digest_type_name: z.string(),
  digest: z.string(),
  supported: z.boolean(),
  matches_key: z.boolean().meta({ description: 'A DNSKEY of the zone has this key tag, algorithm and digest' }),
})

const Dnskey = z.object({
  key_tag: z.number().int(),
  algorithm: z.number().int(),
  algorithm_name: z.string(),
  flags: z.number().int(),
  role: z.enum(['ksk', 'zsk']).meta({ description: 'ksk: SEP flag set' }),
  key_size: z.number().int().nullable(),
  revoked: z.boolean(),
  supported: z.boolean(),
  entry_point: z.boolean().meta({ description: 'A parent DS (or the trust anchor) points at this key' }),
})

export const DnssecData = z.object({
  domain: z.string(),
  type: z.string().meta({ description: 'The RRset validated: A unless asked otherwise (NODATA/NXDOMAIN answers are judged by their denial proof)' }),
  status: Status.meta({ description: 'RFC 4035 §4.3 verdict of a validating resolver on the answer' }),
  reason: z.string().nullable().meta({ description: 'Why, as a code: bad_signature, expired, not_yet_valid, missing_rrsig, no_matching_key, ds_dnskey_mismatch, dnskey_missing, missing_denial, invalid_denial (bogus); unsigned_delegation, opt_out, unsupported_algorithm, unsupported_digest, nsec3_iterations (insecure); no_trust_anchor, unsupported_trust_anchor, resolver_failure (indeterminate)' }),
  message: z.string(),
  insecure_at: z.string().nullable().meta({
    description:
      'The zone where the chain of trust provably ends: the unsigned (or unsupported) child zone of a delegation without usable DS, or, for opt_out and nsec3_iterations, the signed zone whose own proof cannot rule out an unsigned delegation',
  }),
  opt_out_name: z.string().nullable().meta({ description: 'For reason opt_out: the name that falls in the NSEC3 opt-out span (the proof\'s next closer name); an unsigned delegation may exist there' }),
  bogus_at: z.string().nullable().meta({ description: 'The zone whose data failed validation' }),
  answer: z.object({
    name: z.string().meta({ description: 'Where the answer was found (the end of the CNAME chain)' }),
    status: z.enum(['answer', 'cname', 'nodata', 'nxdomain', 'referral', 'failure']),
    records: z.array(DnsRecordData),
    cname_chain: z.array(z.object({ name: z.string(), target: z.string(), ttl: z.number().int(), status: Status })),
    wildcard: z.string().nullable().meta({ description: 'The wildcard owner the answer was expanded from' }),
    denial: Denial.nullable(),
    rrsigs: z.array(Rrsig),
  }),
  chain: z.array(
    z.object({
      zone: z.string(),
      status: Status,
      trust: z.enum(['trust_anchor', 'ds']).nullable(),
      message: z.string(),
      ds: z.array(Ds),
      dnskeys: z.array(Dnskey),
      rrsigs: z.array(Rrsig).meta({ description: 'Signatures over the DS RRset (by the parent) and the DNSKEY RRset (by the zone)' }),
      denial: Denial.nullable().meta({ description: 'For a delegation without DS: the proof there is none' }),
    }),
  ),
  findings: z.array(z.object({ severity: z.enum(['critical', 'warning', 'info']), code: z.string(), zone: z.string(), message: z.string() })),
  trust_anchors: z.object({
    source: z.string(),
    anchors: z.array(z.object({ zone: z.string(), type: z.enum(['DS', 'DNSKEY']), key_tag: z.number().int(), algorithm: z.number().int() })),
  }),
  validated_at: z.string(),
  resolver: z.object({ name: z.string(), address: z.string(), port: z.number().int() }).nullable(),
})

export type DnssecData = z.infer<typeof DnssecData>
