import type { Severity } from './findings.ts'

// Every finding id the email checks can emit, with the severities it comes in and
// what it means. Ids are published API: clients key on them, so one is never
// renamed or reused; finding() accepts only ids listed here, README.md lists the
// same table, and test/email/finding-catalog.test.ts keeps the three in step.

export interface FindingEntry {
  /** The severities this id is emitted with (some depend on context, e.g. enforce vs testing). */
  severity: readonly Severity[]
  meaning: string
}

export const FINDING_CATALOG = {
  // SPF (RFC 7208)
  'spf.missing': { severity: ['error'], meaning: 'No SPF record: any server may send as the domain.' },
  'spf.dns_error': { severity: ['warning'], meaning: 'The SPF record could not be read; receivers get temperror.' },
  'spf.multiple_records': { severity: ['critical'], meaning: 'More than one SPF record: permerror for all mail.' },
  'spf.syntax_error': { severity: ['critical'], meaning: 'A term of the record (or an included one) does not parse: permerror.' },
  'spf.include_no_record': { severity: ['critical'], meaning: 'An include: points at a name with no SPF record: permerror.' },
  'spf.redirect_no_record': { severity: ['critical'], meaning: 'redirect= points at a name with no SPF record: permerror.' },
  'spf.include_multiple_records': { severity: ['critical'], meaning: 'An included domain publishes more than one SPF record: permerror.' },
  'spf.include_dns_error': { severity: ['warning'], meaning: 'An included record could not be read: temperror while it lasts.' },
  'spf.loop': { severity: ['critical'], meaning: 'include/redirect leads back to a record already being evaluated.' },
  'spf.invalid_target': { severity: ['critical'], meaning: 'An include/redirect target is not a valid domain name.' },
  'spf.macro_target': { severity: ['info'], meaning: 'An include/redirect target uses macros; it is followed only with ?ip=.' },
  'spf.mx_too_many': { severity: ['critical'], meaning: 'An mx term resolves to more than 10 MX records: permerror when reached.' },
  'spf.ptr': { severity: ['warning'], meaning: 'The deprecated ptr mechanism is used.' },
  'spf.whole_internet': { severity: ['critical'], meaning: 'ip4:0.0.0.0/0 or ip6:::/0 authorizes every address.' },
  'spf.broad_network': { severity: ['warning', 'info'], meaning: 'An ip4 wider than /16 or ip6 wider than /32 (info inside a third party\'s include).' },
  'spf.network_host_bits': { severity: ['info'], meaning: 'An ip4/ip6 network has host bits set.' },
  'spf.include_pass_all': { severity: ['critical'], meaning: 'An included record ends in +all, so the include matches every sender.' },
  'spf.terms_after_all': { severity: ['warning'], meaning: 'Mechanisms after "all" are never evaluated.' },
  'spf.redirect_ignored': { severity: ['warning'], meaning: 'redirect= beside an "all" mechanism is ignored.' },
  'spf.unknown_modifier': { severity: ['info'], meaning: 'A modifier receivers do not know, ignored by them.' },
  'spf.response_over_512': { severity: ['warning'], meaning: 'The TXT answer at the name is over 512 bytes (RFC 7208 §3.4).' },
  'spf.no_all': { severity: ['warning'], meaning: 'No "all" mechanism: unlisted senders get neutral.' },
  'spf.pass_all': { severity: ['critical'], meaning: 'The record ends in +all: every server may send as the domain.' },
  'spf.neutral_all': { severity: ['warning'], meaning: 'The record ends in ?all: SPF protects nothing.' },
  'spf.too_many_lookups': { severity: ['critical'], meaning: 'The tree needs more than 10 DNS lookups: permerror for mail not matched before the 11th.' },
  'spf.lookups_near_limit': { severity: ['warning'], meaning: 'The tree needs 9 or 10 of the 10 lookups allowed.' },
  'spf.too_many_void_lookups': { severity: ['critical'], meaning: 'More than 2 lookups find no records: permerror.' },
  'spf.void_lookup': { severity: ['warning'], meaning: 'A term looks up a name with no records.' },
  'spf.duplicate_include': { severity: ['warning'], meaning: 'The same domain is included more than once in the tree.' },
  'spf.tree_truncated': { severity: ['warning'], meaning: 'The tree is larger than the check follows (100 records, depth 12, 60 a/mx/exists targets).' },

  // DMARC (RFC 7489, DMARCbis)
  'dmarc.version_not_first': { severity: ['error'], meaning: 'A TXT record at _dmarc mentions DMARC1 but does not start with v=DMARC1.' },
  'dmarc.dns_error': { severity: ['warning'], meaning: 'The DMARC record could not be read.' },
  'dmarc.multiple_records': { severity: ['critical'], meaning: 'More than one DMARC record: receivers apply none.' },
  'dmarc.missing': { severity: ['error'], meaning: 'No DMARC record at the domain or its organizational domain.' },
  'dmarc.inherited': { severity: ['info'], meaning: 'The policy comes from the organizational domain\'s record.' },
  'dmarc.syntax_error': { severity: ['error'], meaning: 'A part of the record is not tag=value.' },
  'dmarc.version': { severity: ['error'], meaning: 'The v= tag is wrong or not first.' },
  'dmarc.invalid_value': { severity: ['error'], meaning: 'A tag has a value receivers reject (they use the default).' },
  'dmarc.duplicate_tag': { severity: ['error'], meaning: 'A tag appears more than once.' },
  'dmarc.unknown_tag': { severity: ['warning'], meaning: 'A tag DMARC does not define.' },
  'dmarc.p_missing': { severity: ['error'], meaning: 'The required p= tag is missing.' },
  'dmarc.policy_none': { severity: ['warning'], meaning: 'p=none: monitoring only, spoofed mail is delivered.' },
  'dmarc.policy_quarantine': { severity: ['info'], meaning: 'p=quarantine: failing mail goes to spam, not rejected.' },
  'dmarc.subdomain_policy_weaker': { severity: ['warning'], meaning: 'sp= is weaker than p=.' },
  'dmarc.np_weaker': { severity: ['info'], meaning: 'np= (non-existent subdomains) is weaker than p=.' },
  'dmarc.pct_partial': { severity: ['warning'], meaning: 'pct= below 100: the policy applies to part of the failing mail.' },
  'dmarc.testing': { severity: ['warning'], meaning: 't=y (DMARCbis test mode).' },
  'dmarc.deprecated_tag': { severity: ['info'], meaning: 'pct=, rf= or ri=, removed by DMARCbis.' },
  'dmarc.no_rua': { severity: ['warning'], meaning: 'No rua= address: no aggregate reports.' },
  'dmarc.ruf': { severity: ['info'], meaning: 'ruf= asks for failure reports, which few receivers send.' },
  'dmarc.fo_without_ruf': { severity: ['info'], meaning: 'fo= without a ruf= address has no effect.' },
  'dmarc.report_uri_invalid': { severity: ['error'], meaning: 'A rua/ruf URI does not parse.' },
  'dmarc.report_uri_scheme': { severity: ['warning'], meaning: 'A rua/ruf URI is not mailto:.' },
  'dmarc.report_unauthorized': { severity: ['error'], meaning: 'An external report destination has not authorized reports (<domain>._report._dmarc.<dest>).' },
  'dmarc.report_auth_dns_error': { severity: ['warning'], meaning: 'The external destination\'s authorization could not be looked up.' },

  // DKIM (RFC 6376, RFC 8301, RFC 8463)
  'dkim.dns_error': { severity: ['warning'], meaning: 'A selector\'s key record could not be read.' },
  'dkim.revoked': { severity: ['info'], meaning: 'A key record with empty p= (revoked).' },
  'dkim.weak_key': { severity: ['critical'], meaning: 'An RSA key under 1024 bits.' },
  'dkim.short_key': { severity: ['warning'], meaning: 'An RSA key of 1024-2047 bits.' },
  'dkim.testing': { severity: ['warning'], meaning: 'A key with t=y (testing).' },
  'dkim.sha1_only': { severity: ['warning'], meaning: 'A key that allows only SHA-1 (h=sha1).' },
  'dkim.invalid_record': { severity: ['error'], meaning: 'A key record with a problem (version, key type, undecodable key, ...).' },
  'dkim.none_found': { severity: ['warning'], meaning: 'No usable key under any selector tried.' },
  'dkim.ed25519_only': { severity: ['warning'], meaning: 'Only Ed25519 keys, which many verifiers cannot check.' },

  // MX (RFC 5321, RFC 7505, RFC 2181)
  'mx.dns_error': { severity: ['warning'], meaning: 'The MX records could not be read.' },
  'mx.null': { severity: ['info'], meaning: 'A null MX: the domain accepts no mail.' },
  'mx.null_mixed': { severity: ['error'], meaning: 'A null MX beside other MX records.' },
  'mx.implicit': { severity: ['warning'], meaning: 'No MX, but an address: senders deliver to the domain itself.' },
  'mx.none': { severity: ['warning'], meaning: 'No MX and no address: the domain cannot receive mail.' },
  'mx.ip_literal': { severity: ['error'], meaning: 'An MX target is an IP address, not a host name.' },
  'mx.cname': { severity: ['error'], meaning: 'An MX target is an alias (CNAME).' },
  'mx.no_address': { severity: ['error'], meaning: 'An MX target has no A/AAAA record or does not exist.' },
  'mx.host_dns_error': { severity: ['warning'], meaning: 'An MX target could not be resolved.' },
  'mx.private_address': { severity: ['error'], meaning: 'An MX target resolves to a private, loopback or reserved address.' },
  'mx.no_ptr': { severity: ['warning'], meaning: 'An MX address has no reverse DNS.' },
  'mx.fcrdns': { severity: ['warning'], meaning: 'An MX address\'s PTR name does not resolve back to it.' },
  'mx.unreachable': { severity: ['critical'], meaning: 'No MX host has a usable address.' },
  'mx.single': { severity: ['info'], meaning: 'A single MX host.' },

  // STARTTLS on the MX hosts (RFC 3207)
  'tls.unreachable': { severity: ['warning'], meaning: 'An MX host did not accept a connection on the SMTP port.' },
  'tls.blocked': { severity: ['warning'], meaning: 'An MX host was not probed: it resolves to an address the service never connects to (private, loopback).' },
  'tls.smtp_error': { severity: ['warning'], meaning: 'An MX host did not speak SMTP as expected.' },
  'tls.no_starttls': { severity: ['error'], meaning: 'An MX host does not offer STARTTLS.' },
  'tls.handshake_failed': { severity: ['error'], meaning: 'STARTTLS is offered but the TLS handshake fails.' },
  'tls.certificate_expired': { severity: ['error'], meaning: 'An MX host\'s certificate has expired.' },
  'tls.certificate_expiring': { severity: ['warning'], meaning: 'An MX host\'s certificate expires within 14 days.' },
  'tls.untrusted_certificate': { severity: ['warning'], meaning: 'An MX host\'s certificate does not verify to a trusted root.' },
  'tls.name_mismatch': { severity: ['warning'], meaning: 'An MX host\'s certificate does not name the host.' },
  'tls.old_protocol': { severity: ['warning'], meaning: 'An MX host negotiated TLS 1.0/1.1 or SSLv3.' },
  'tls.weak_key': { severity: ['warning'], meaning: 'An MX host\'s certificate has an RSA key under 2048 bits.' },
  'tls.ok': { severity: ['info'], meaning: 'Every reachable MX host offers STARTTLS with a trusted certificate for its name.' },

  // MTA-STS (RFC 8461)
  'mta_sts.missing': { severity: ['info'], meaning: 'No MTA-STS record or policy.' },
  'mta_sts.dns_error': { severity: ['warning'], meaning: 'The _mta-sts TXT record could not be read.' },
  'mta_sts.multiple_records': { severity: ['error'], meaning: 'More than one STSv1 record: senders ignore MTA-STS.' },
  'mta_sts.record_invalid': { severity: ['error'], meaning: 'The STSv1 record has a missing or malformed id=.' },
  'mta_sts.policy_without_record': { severity: ['warning'], meaning: 'A policy is served but no TXT record announces it.' },
  'mta_sts.policy_blocked': { severity: ['error', 'warning'], meaning: 'mta-sts.<domain> resolves to a private or loopback address; the policy was not fetched (error when announced).' },
  'mta_sts.policy_certificate': { severity: ['error', 'warning'], meaning: 'The policy host\'s certificate is not valid for mta-sts.<domain> (error when announced).' },
  'mta_sts.policy_unreachable': { severity: ['error', 'warning'], meaning: 'The policy host did not answer over HTTPS on port 443 (error when announced).' },
  'mta_sts.policy_redirect': { severity: ['error', 'warning'], meaning: 'The policy URL answers with a redirect, which senders do not follow (error when announced).' },
  'mta_sts.policy_http_error': { severity: ['error', 'warning'], meaning: 'The policy URL answers with a status other than 200 (error when announced).' },
  'mta_sts.policy_content_type': { severity: ['warning'], meaning: 'The policy is not served as text/plain.' },
  'mta_sts.policy_invalid': { severity: ['error'], meaning: 'The policy file is invalid (version, mode, max_age, mx lines).' },
  'mta_sts.mode_testing': { severity: ['info'], meaning: 'mode: testing: failures are reported, mail still delivered.' },
  'mta_sts.mode_none': { severity: ['warning'], meaning: 'mode: none withdraws the policy.' },
  'mta_sts.max_age_short': { severity: ['warning'], meaning: 'max_age under one day.' },
  'mta_sts.mx_not_covered': { severity: ['critical', 'warning'], meaning: 'An MX host matches no mx line of the policy (critical under enforce).' },
  'mta_sts.pattern_unused': { severity: ['info'], meaning: 'A policy mx line matches none of the MX hosts.' },
  'mta_sts.enforce_tls_broken': { severity: ['critical'], meaning: 'The policy is enforced but an MX host has no working, trusted, matching TLS.' },

  // TLS-RPT (RFC 8460)
  'tls_rpt.dns_error': { severity: ['warning'], meaning: 'The _smtp._tls record could not be read.' },
  'tls_rpt.missing': { severity: ['warning', 'info'], meaning: 'No TLS-RPT record (warning when MTA-STS is published).' },
  'tls_rpt.multiple_records': { severity: ['error'], meaning: 'More than one TLSRPTv1 record.' },
  'tls_rpt.invalid': { severity: ['error'], meaning: 'rua= is missing, empty, or not mailto:/https: URIs.' },

  // BIMI
  'bimi.dns_error': { severity: ['warning'], meaning: 'The default._bimi record could not be read.' },
  'bimi.missing': { severity: ['info'], meaning: 'No BIMI record.' },
  'bimi.multiple_records': { severity: ['error'], meaning: 'More than one BIMI record.' },
  'bimi.declined': { severity: ['info'], meaning: 'The record declines BIMI (empty l=).' },
  'bimi.logo_url': { severity: ['error'], meaning: 'l= is not an https: URL of an SVG.' },
  'bimi.certificate_url': { severity: ['error'], meaning: 'a= is not an https: URL.' },
  'bimi.no_certificate': { severity: ['info'], meaning: 'No a= mark certificate.' },
  'bimi.dmarc_not_enforced': { severity: ['warning'], meaning: 'DMARC is not enforcing (quarantine/reject, pct=100), so no logo is shown.' },
} as const satisfies Record<string, FindingEntry>

export type FindingId = keyof typeof FINDING_CATALOG

/** The severities an id may carry. */
export type SeverityOf<I extends FindingId> = (typeof FINDING_CATALOG)[I]['severity'][number]
