import { z } from 'zod'
import { STARTTLS_PROTOCOLS } from './starttls-param.ts'

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

const Target = {
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
})

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
  findings: z.array(FindingData),
  duration_ms: z.number().int(),
})
