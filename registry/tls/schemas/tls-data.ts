import { z } from 'zod'
import { STARTTLS_PROTOCOLS } from './starttls-param.ts'
import { ComplianceData } from './compliance-data.ts'

// Shapes of the TLS endpoints' data (OpenAPI and tests).

const Strength = z.enum(['insecure', 'weak', 'secure', 'recommended']).meta({
  description: 'insecure: broken (NULL, anon, export, RC4, DES, MD5); weak: no forward secrecy, CBC or 64-bit blocks; secure: forward secret AEAD; recommended: ECDHE/TLS 1.3 with AES-GCM or ChaCha20-Poly1305',
})

const Protocol = z.enum(['SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'])

export const CipherSuiteData = z.object({
  name: z.string().meta({ description: 'IANA name' }),
  openssl_name: z.string().nullable(),
  code: z.string().meta({ description: 'IANA code point, 0xC02F' }),
  key_exchange: z.string(),
  authentication: z.string(),
  encryption: z.string(),
  bits: z.number().int(),
  mac: z.string(),
  aead: z.boolean(),
  forward_secrecy: z.boolean(),
  strength: Strength,
  concerns: z.array(z.string()),
})

export const Target = {
  host: z.string(),
  port: z.number().int(),
  server_name: z.string().nullable().meta({ description: 'SNI sent (null for IP targets)' }),
  address: z.string().meta({ description: 'The vetted address connected to' }),
  starttls: z.enum(STARTTLS_PROTOCOLS).nullable().meta({ description: 'The protocol spoken before TLS (STARTTLS), or null for implicit TLS' }),
}

const Name = z.object({
  text: z.string(),
  common_name: z.string().nullable(),
  organization: z.string().nullable(),
  organizational_unit: z.string().nullable(),
  country: z.string().nullable(),
})

const PublicKey = z.object({ type: z.string(), bits: z.number().int().nullable(), curve: z.string().nullable() })

export const HostnameData = z.object({
  host: z.string(),
  matches: z.boolean(),
  matched_by: z.string().nullable(),
  method: z.enum(['dns', 'wildcard', 'ip']).nullable(),
  reason: z.string().nullable(),
})

export const CertificateData = z.object({
  position: z.number().int().meta({ description: 'Index in the chain as served (0: leaf)' }),
  subject: Name,
  issuer: Name,
  serial_number: z.string(),
  version: z.number().int(),
  sans: z.object({ dns: z.array(z.string()), ip: z.array(z.string()), email: z.array(z.string()), uri: z.array(z.string()) }),
  not_before: z.string(),
  not_after: z.string(),
  validity_days: z.number().int(),
  days_left: z.number().int(),
  expired: z.boolean(),
  not_yet_valid: z.boolean(),
  public_key: PublicKey,
  signature_algorithm: z.object({ name: z.string(), oid: z.string(), hash: z.string().nullable(), weak: z.boolean() }),
  fingerprint_sha1: z.string(),
  fingerprint_sha256: z.string(),
  key_usage: z.array(z.string()),
  extended_key_usage: z.array(z.string()),
  basic_constraints: z.object({ ca: z.boolean(), path_length: z.number().int().nullable(), critical: z.boolean() }).nullable(),
  aia: z.object({ ocsp: z.array(z.string()), ca_issuers: z.array(z.string()) }),
  crl_distribution_points: z.array(z.string()),
  sct_count: z.number().int().meta({ description: 'Embedded signed certificate timestamps (CT)' }),
  must_staple: z.boolean(),
  subject_key_id: z.string().nullable(),
  authority_key_id: z.string().nullable(),
  self_signed: z.boolean(),
  pem: z.string(),
})

export const TlsConnectionData = z.object({
  ...Target,
  protocol: Protocol,
  cipher: CipherSuiteData.nullable(),
  cipher_openssl_name: z.string(),
  key_exchange: z.object({ type: z.string(), group: z.string().nullable(), bits: z.number().int().nullable() }).nullable(),
  alpn: z.string().nullable(),
  connect_ms: z.number(),
  handshake_ms: z.number(),
  ocsp_stapled: z.boolean(),
  certificate: z.object({
    subject: z.string(),
    common_name: z.string().nullable(),
    issuer: z.string(),
    issuer_common_name: z.string().nullable(),
    dns_names: z.array(z.string()),
    ip_addresses: z.array(z.string()),
    not_before: z.string(),
    not_after: z.string(),
    days_left: z.number().int(),
    expired: z.boolean(),
    not_yet_valid: z.boolean(),
    public_key: PublicKey,
    signature_algorithm: z.string(),
    fingerprint_sha256: z.string(),
    self_signed: z.boolean(),
  }),
  chain_verified: z.boolean().meta({ description: 'OpenSSL verified the chain to a trusted root (the host name is judged separately)' }),
  verify_error: z.string().nullable(),
  hostname: HostnameData,
  valid: z.boolean().meta({ description: 'Chain verified, name matches, and the certificate is within its dates' }),
})

export const TlsCertificateData = z.object({
  ...Target,
  protocol: Protocol,
  chain_source: z.enum(['served', 'handshake']).meta({
    description: 'served: the certificates exactly as the server sent them; handshake: as OpenSSL ordered them (when the served list could not be read)',
  }),
  chain_verified: z.boolean(),
  verify_error: z.string().nullable(),
  hostname: HostnameData,
  tls_sct_count: z.number().int().meta({ description: 'SCTs delivered in the TLS handshake (not embedded in the certificate)' }),
  ocsp_stapled: z.boolean(),
  leaf: CertificateData,
  chain: z.array(CertificateData).meta({ description: 'The certificates after the leaf, in the order served' }),
})

export const FindingData = z.object({
  id: z.string(),
  severity: z.enum(['critical', 'high', 'medium', 'low', 'info']),
  message: z.string(),
  fix: z.string(),
  grade_cap: z.string().nullable().meta({ description: 'The grade this finding caps the result at (T: trust, M: name mismatch)' }),
  evidence: z.string().optional().meta({ description: 'What the server did on the wire (the active checks, groups, signature schemes)' }),
})

const CheckData = z.object({
  result: z.string().meta({ description: 'What was found, in the check’s words: supported, not_supported, vulnerable, not_vulnerable, refused, accepted, offered, enabled, not_applicable, unknown, ...' }),
  ok: z.boolean().nullable().meta({ description: 'true: nothing to fix; false: a finding says what; null: not applicable or not decidable' }),
  evidence: z.string().meta({ description: 'What the server did on the wire' }),
})

export const ChecksData = z
  .object({
    secure_renegotiation: CheckData.meta({ description: 'RFC 5746: renegotiation_info in the ServerHello' }),
    client_renegotiation: CheckData.meta({ description: 'A client-initiated renegotiation after a full TLS <= 1.2 handshake (accepted: a DoS lever, CVE-2011-1473)' }),
    compression: CheckData.meta({ description: 'TLS compression (CRIME): DEFLATE offered, chosen or not' }),
    fallback_scsv: CheckData.meta({ description: 'RFC 7507: a lower-version hello with TLS_FALLBACK_SCSV refused with inappropriate_fallback' }),
    heartbeat: CheckData.meta({ description: 'The heartbeat extension (RFC 6520) acknowledged' }),
    heartbleed: CheckData.meta({ description: 'CVE-2014-0160, probed without reading server memory (an over-long request that can only echo our own bytes)' }),
    ccs_injection: CheckData.meta({ description: 'CVE-2014-0224: ChangeCipherSpec before the key exchange' }),
    session_id_resumption: CheckData.meta({ description: 'Resumption by session id (TLS <= 1.2, no ticket offered)' }),
    session_ticket_resumption: CheckData.meta({ description: 'Resumption by session ticket (TLS 1.3 PSK when offered, else TLS 1.2 RFC 5077)' }),
    early_data: CheckData.meta({ description: 'TLS 1.3 0-RTT: early_data in the session tickets' }),
    robot: CheckData.meta({ description: 'ROBOT: five differently padded RSA key exchanges answered alike or not' }),
  })
  .meta({ description: 'The active checks, each with its evidence' })

const GroupData = z.object({
  name: z.string(),
  code: z.string().meta({ description: 'IANA code point, 0x11EC' }),
  kind: z.enum(['ecdhe', 'ffdhe', 'hybrid', 'mlkem']),
  post_quantum: z.boolean(),
})

export const GroupsData = z
  .object({
    tls13: z.array(GroupData).nullable().meta({ description: 'Each group offered alone in a TLS 1.3 hello (no key share: the server asks for the one it takes); null without TLS 1.3' }),
    tls12: z.array(GroupData).nullable().meta({ description: 'Each curve offered alone with ECDHE suites on the highest TLS <= 1.2 version; null without ECDHE there' }),
    post_quantum: z.boolean().nullable().meta({ description: 'A post-quantum group (ML-KEM hybrid or pure) is among the TLS 1.3 groups; null without TLS 1.3' }),
  })
  .meta({ description: 'Key exchange groups the server accepts' })

const SchemeData = z.object({ name: z.string(), code: z.string(), hash: z.string().nullable(), weak: z.boolean() })

export const SignatureAlgorithmsData = z
  .object({
    tls13: z.array(SchemeData).nullable().meta({ description: 'Schemes the server signed CertificateVerify with when offered alone; null without TLS 1.3' }),
    tls12: z.array(SchemeData).nullable().meta({ description: 'Schemes the server signed the TLS 1.2 ServerKeyExchange with when offered alone; null without (EC)DHE on TLS 1.2' }),
  })
  .meta({ description: 'Handshake signature schemes the server uses' })

export const TlsCiphersData = z.object({
  ...Target,
  protocols: z.array(
    z.object({
      protocol: Protocol,
      supported: z.boolean(),
      server_preference: z.boolean().nullable().meta({ description: 'The server picks by its own order (true) or by the client’s (false); null with fewer than two suites' }),
      suite_count: z.number().int(),
      error: z.string().nullable(),
    }),
  ),
  cipher_suites: z.array(
    CipherSuiteData.extend({
      protocol: Protocol,
      preference: z.number().int().nullable().meta({ description: '1 = the server’s first choice, when it enforces an order' }),
    }),
  ),
  summary: z.object({
    total: z.number().int(),
    by_strength: z.object({ insecure: z.number().int(), weak: z.number().int(), secure: z.number().int(), recommended: z.number().int() }),
    forward_secrecy: z.enum(['all', 'some', 'none']),
    weakest: Strength.nullable(),
    strongest: Strength.nullable(),
  }),
  findings: z.array(FindingData).meta({ description: 'What stands out in the scan (a server that answers TLS but accepts nothing)' }),
  probes: z.number().int().meta({ description: 'Handshakes (ClientHello/ServerHello exchanges) made' }),
  duration_ms: z.number().int(),
})

export const TlsAnalyzeData = z.object({
  ...Target,
  grade: z.enum(['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F', 'T', 'M']),
  grade_if_trusted: z.enum(['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F']).meta({ description: 'The grade with trust and name problems set aside' }),
  score: z.object({ protocol: z.number(), key_exchange: z.number(), cipher_strength: z.number(), total: z.number() }),
  trusted: z.boolean(),
  hostname: HostnameData,
  negotiated: z.object({ protocol: Protocol, cipher: z.string(), alpn: z.string().nullable(), key_exchange: z.string().nullable() }),
  certificate: z.object({
    subject: z.string(),
    issuer: z.string(),
    not_before: z.string(),
    not_after: z.string(),
    days_left: z.number().int(),
    expired: z.boolean(),
    not_yet_valid: z.boolean(),
    public_key: PublicKey,
    signature_algorithm: z.string(),
    sct_count: z.number().int(),
    must_staple: z.boolean(),
  }),
  chain: z.object({
    verified: z.boolean(),
    verify_error: z.string().nullable(),
    complete: z.boolean(),
    anchored: z.boolean(),
    anchor_source: z.enum(['system', 'extra']).nullable().meta({ description: 'system: the operating system’s root bundle (SSL_CERT_FILE, else /etc/ssl/certs/ca-certificates.crt), or Node’s bundled Mozilla roots where there is none; extra: INFRALENS_EXTRA_CA_FILE' }),
    order_ok: z.boolean(),
    served_count: z.number().int(),
    root_served: z.boolean(),
    unused_positions: z.array(z.number().int()),
    missing_issuer: z.string().nullable(),
    source: z.enum(['served', 'handshake']),
    path: z.array(
      z.object({
        subject: z.string(),
        issuer: z.string(),
        fingerprint_sha256: z.string(),
        served_position: z.number().int().nullable(),
        source: z.enum(['served', 'trust_store']),
        self_signed: z.boolean(),
      }),
    ),
  }),
  protocols: z.array(z.object({ protocol: Protocol, supported: z.boolean() })),
  cipher_summary: z.object({
    total: z.number().int(),
    forward_secrecy: z.enum(['all', 'some', 'none']),
    weakest: Strength.nullable(),
    strongest: Strength.nullable(),
  }),
  dh_bits: z.number().int().nullable(),
  ocsp_stapling: z.object({
    stapled: z.boolean(),
    response_status: z.string().nullable(),
    cert_status: z.enum(['good', 'revoked', 'unknown']).nullable(),
    this_update: z.string().nullable(),
    next_update: z.string().nullable(),
    signature_valid: z.boolean().nullable(),
    matches_certificate: z.boolean().nullable(),
  }),
  hsts: z.object({
    checked: z.boolean(),
    error: z.string().nullable(),
    status: z.number().int().nullable(),
    header: z.string().nullable(),
    present: z.boolean(),
    max_age: z.number().int().nullable(),
    include_subdomains: z.boolean(),
    preload: z.boolean(),
    long_max_age: z.boolean(),
  }),
  groups: GroupsData,
  signature_algorithms: SignatureAlgorithmsData,
  checks: ChecksData,
  compliance: ComplianceData,
  findings: z.array(FindingData),
  probes: z.number().int().meta({ description: 'Connections the scans and checks opened (the handshake, chain probe and HSTS request aside)' }),
  duration_ms: z.number().int(),
})
