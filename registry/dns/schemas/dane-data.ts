import { z } from 'zod'
import { AnswerStatus } from './dns-data.ts'
import { OperatorFindingData } from './operator-findings.ts'

// Shapes of /api/dns/dane (one TLS service) and, per MX host, /api/email/dane.

export const DANE_VERDICTS = ['valid', 'mismatch', 'no_usable_records', 'not_secure', 'bogus', 'indeterminate', 'no_tlsa', 'tls_unavailable', 'unreachable', 'not_probed'] as const

const Verdict = z.enum(DANE_VERDICTS).meta({
  description:
    'valid: the TLSA RRset is DNSSEC-secure and a usable record matches the served certificate; mismatch: secure, none matches; no_usable_records: secure, none usable; not_secure: TLSA published but insecure (ignored by DANE clients); bogus / indeterminate: its DNSSEC verdict; no_tlsa: none published; tls_unavailable: no STARTTLS or the TLS handshake fails; unreachable: no connection, nothing checked; not_probed: secure TLSA for a service the service does not connect to (udp, sctp, STARTTLS protocols other than SMTP)',
})

export const TlsaRecordCheck = z.object({
  usage: z.number().int(),
  usage_name: z.string().meta({ description: 'PKIX-TA (0), PKIX-EE (1), DANE-TA (2), DANE-EE (3), or unknown' }),
  selector: z.number().int(),
  selector_name: z.string().meta({ description: 'Cert (0: the whole certificate), SPKI (1: its public key), or unknown' }),
  matching_type: z.number().int(),
  matching_type_name: z.string().meta({ description: 'Full (0), SHA2-256 (1), SHA2-512 (2), or unknown' }),
  association_data: z.string().meta({ description: 'Lowercase hex' }),
  usable: z.boolean().meta({ description: 'A client of this service would use it: known parameters, and for SMTP usage 2 or 3 only (RFC 7672 §3.1.3)' }),
  unusable_reason: z.string().nullable(),
  matches: z.boolean().nullable().meta({ description: 'It authenticates the served certificate (null: no certificate was obtained)' }),
  matched_position: z.number().int().nullable().meta({ description: 'The certificate it matched, by position in the served chain (0: the leaf)' }),
  problem: z.string().nullable().meta({ description: 'Why a record whose data matches a certificate still does not authenticate the host (chain, name, dates, PKIX)' }),
})

export const DaneCertificate = z.object({
  position: z.number().int().meta({ description: 'Index in the chain as obtained (0: the leaf); what matched_position names' }),
  subject: z.string(),
  issuer: z.string(),
  not_before: z.string(),
  not_after: z.string(),
  fingerprint_sha256: z.string().meta({ description: 'SHA-256 of the certificate (TLSA selector 0, matching type 1)' }),
  spki_fingerprint_sha256: z.string().meta({ description: 'SHA-256 of its public key (selector 1, matching type 1: the "3 1 1" or "2 1 1" to publish)' }),
})

export const DaneHostData = z.object({
  host: z.string(),
  port: z.number().int(),
  proto: z.enum(['tcp', 'udp', 'sctp']),
  tlsa_name: z.string().meta({ description: 'Where the TLSA records live: _port._proto.host' }),
  service: z.enum(['smtp', 'tls', 'none']).meta({ description: 'How the certificate was fetched: SMTP STARTTLS (ports 25, 587), a TLS handshake, or not at all (udp/sctp, other STARTTLS protocols)' }),
  verdict: Verdict,
  tlsa: z.object({
    status: AnswerStatus,
    rcode: z.string(),
    ttl: z.number().int().nullable(),
    dnssec: z
      .object({ status: z.enum(['secure', 'insecure', 'bogus', 'indeterminate']), reason: z.string().nullable(), message: z.string() })
      .nullable()
      .meta({ description: 'The service\'s own validation of the TLSA RRset (/api/dns/dnssec?type=TLSA); null when there are no records' }),
    records: z.array(TlsaRecordCheck),
  }),
  certificate: z
    .object({
      address: z.string().nullable().meta({ description: 'The address connected to' }),
      chain: z.array(DaneCertificate).meta({ description: 'The certificates the server sent, leaf first' }),
      pkix_valid: z.boolean().nullable().meta({ description: 'The chain verifies to a trusted root and names the host (web only; what usages 0 and 1 need)' }),
    })
    .nullable(),
  probe_error: z.string().nullable(),
  findings: z.array(OperatorFindingData),
})

export type DaneHost = z.infer<typeof DaneHostData>
