import type { CatalogEntry } from './operator-findings.ts'

// Every finding /api/dns/dane and /api/email/dane can emit (docs/dns.md lists them,
// test/dane checks the two agree). RFC 6698 and RFC 7671 for DANE in general,
// RFC 7672 for SMTP.

export const DANE_FINDINGS = {
  'dane.not_used': { severity: 'info', meaning: 'No TLSA records: DANE is not in use (for email: at no MX host).' },
  'dane.tlsa_not_secure': { severity: 'medium', meaning: 'TLSA records are published but are not DNSSEC-secure, so DANE clients ignore them (RFC 6698 §4.1, RFC 7672 §2.2).' },
  'dane.tlsa_bogus': { severity: 'critical', meaning: 'The TLSA RRset fails DNSSEC validation: DANE senders defer mail to the host, DANE clients refuse it.' },
  'dane.tlsa_indeterminate': { severity: 'info', meaning: 'The DNSSEC status of the TLSA records could not be determined (no trust anchor, or the resolver failed).' },
  'dane.mx_not_secure': { severity: 'medium', meaning: 'The MX records are not DNSSEC-secure, so senders do not apply DANE to the MX hosts even where their TLSA records are secure (RFC 7672 §2.2.1).' },
  'dane.no_match': { severity: 'critical', meaning: 'The TLSA records are secure but none of the usable ones matches the certificate the host serves: DANE clients fail the connection.' },
  'dane.no_usable_records': { severity: 'high', meaning: 'The TLSA records are secure but none is usable (unknown parameters, or only PKIX usages on SMTP): the host gets no DANE authentication.' },
  'dane.smtp_pkix_usage': { severity: 'medium', meaning: 'A TLSA record for SMTP has usage 0 (PKIX-TA) or 1 (PKIX-EE), which SMTP senders treat as unusable (RFC 7672 §3.1.3).' },
  'dane.unusable_record': { severity: 'low', meaning: 'A TLSA record has a usage, selector or matching type no client knows; it is ignored (RFC 6698 §4.1).' },
  'dane.no_rollover_record': { severity: 'low', meaning: 'Every usable TLSA record matches only the current certificate or key: a new key breaks DANE unless its record is published first (RFC 7671 §8.1).' },
  'dane.tls_unavailable': { severity: 'critical', meaning: 'The host has secure TLSA records but offers no STARTTLS or its TLS handshake fails: DANE senders defer mail, DANE clients cannot connect.' },
  'dane.unreachable': { severity: 'medium', meaning: 'The host could not be reached (or is on an address the service never connects to), so its certificate was not checked against the TLSA records.' },
} as const satisfies Record<string, CatalogEntry>

export type DaneFindingId = keyof typeof DANE_FINDINGS
