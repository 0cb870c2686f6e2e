import type { CertificateDetails } from './certificate-details.ts'
import type { ChainAnalysis } from './chain.ts'
import type { CipherSuite } from './cipher-suites.ts'
import type { Letter } from './grade.ts'
import type { HostnameMatch } from './hostname.ts'
import type { Hsts } from './hsts.ts'
import type { OcspStaple } from './ocsp.ts'

// What is wrong with a TLS deployment, each as {id, severity, message, fix} and
// the grade it caps (null: informational). Trust failures cap to T and a name
// mismatch to M through `trust` and `name` below; the letter caps follow SSL
// Labs' guide where it has one (SSLv3 C, TLS 1.0/1.1 B, RC4 C, export/NULL/anon
// F, 3DES C, no forward secrecy B, no AEAD B, keys under 2048 bits C).

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info'

export interface Finding {
  id: string
  severity: Severity
  message: string
  fix: string
  grade_cap: Letter | 'T' | 'M' | null
}

export interface Facts {
  host: string
  leaf: CertificateDetails
  /** Parsed certificates of the built path (leaf first), without a trust-store root. */
  path: CertificateDetails[]
  chain: ChainAnalysis
  verified: boolean
  verify_error: string | null
  hostname: HostnameMatch
  /** Supported protocol names (SSLv3 ... TLSv1.3). */
  protocols: string[]
  /** Accepted suites over all protocols (deduplicated by code). */
  suites: CipherSuite[]
  /** Protocols whose order the server does not enforce, among those offering weak suites. */
  client_ordered: string[]
  dh_bits: number | null
  ocsp: OcspStaple | null
  hsts: Hsts
  now: Date
}

const names = (suites: CipherSuite[], max = 6) => suites.slice(0, max).map((s) => s.name).join(', ') + (suites.length > max ? `, and ${suites.length - max} more` : '')

export function collectFindings(f: Facts): Finding[] {
  const out: Finding[] = []
  const add = (id: string, severity: Severity, message: string, fix: string, cap: Finding['grade_cap'] = null) => out.push({ id, severity, message, fix, grade_cap: cap })
  const { leaf, chain } = f

  // Trust
  if (leaf.expired) add('certificate_expired', 'critical', `The certificate expired on ${leaf.not_after.slice(0, 10)} (${-leaf.days_left} days ago).`, 'Renew the certificate and deploy the new one; automate renewal (ACME) so it cannot lapse again.', 'T')
  if (leaf.not_yet_valid) add('certificate_not_yet_valid', 'critical', `The certificate is not valid before ${leaf.not_before}.`, 'Check the server clock and the certificate dates; deploy a certificate that is valid now.', 'T')
  const leafSelfSigned = chain.path.length === 1 && chain.path[0]!.self_signed
  if (leafSelfSigned && !chain.anchored) {
    add('self_signed', 'critical', 'The server sends a self-signed certificate that no trusted CA vouches for.', 'Get a certificate from a publicly trusted CA (e.g. Let’s Encrypt via ACME).', 'T')
  } else if (!chain.complete) {
    const aia = leaf.aia.ca_issuers[0] ?? f.path.at(-1)?.aia.ca_issuers[0]
    add(
      'chain_incomplete',
      'critical',
      `The chain is incomplete: the server does not send the issuer "${chain.missing_issuer ?? 'unknown'}", and it is not a trusted root.`,
      `Configure the server to send the intermediate certificate(s) after the leaf (the full-chain file from the CA)${aia ? `; the issuer is published at ${aia}` : ''}.`,
      'T',
    )
  } else if (!chain.anchored) {
    add('chain_untrusted', 'critical', `The chain ends in "${chain.path.at(-1)?.subject ?? ''}", which is not a trusted root.`, 'Use a certificate from a publicly trusted CA, or install this root on every client that must trust it.', 'T')
  } else if (!f.verified && !leaf.expired && !leaf.not_yet_valid) {
    add('chain_invalid', 'critical', `The chain does not verify: ${f.verify_error ?? 'unknown error'}.`, 'Reissue the certificate from the CA and deploy it with the CA’s own intermediate chain.', 'T')
  }
  // A root's signature on itself is never checked, so only the others count.
  const weakSigned = f.path.filter((c) => c.signature_algorithm.weak && !c.self_signed)
  if (weakSigned.length) {
    const hash = weakSigned[0]!.signature_algorithm.hash ?? 'a weak hash'
    add('weak_signature', 'critical', `${weakSigned.map((c) => c.subject.common_name ?? c.subject.text).join(', ')} ${weakSigned.length > 1 ? 'are' : 'is'} signed with ${hash}; browsers reject ${hash} certificate signatures.`, 'Reissue the certificate (and use intermediates) signed with SHA-256 or better.', 'T')
  }
  if (f.ocsp?.cert_status === 'revoked') add('certificate_revoked', 'critical', `The stapled OCSP response says the certificate was revoked${f.ocsp.revoked_at ? ` on ${f.ocsp.revoked_at}` : ''}.`, 'Deploy a new certificate; the revoked one is refused by clients that check.', 'T')

  // Name
  if (!f.hostname.matches) add('hostname_mismatch', 'critical', `The certificate is not valid for ${f.host}: ${f.hostname.reason ?? 'no matching name'}.`, `Get a certificate whose subjectAltName includes ${f.host} (or a wildcard covering exactly that label).`, 'M')

  // Certificate quality
  const key = leaf.public_key
  if (key.type === 'RSA' || key.type === 'DSA') {
    if ((key.bits ?? 0) < 1024) add('key_too_small', 'critical', `The certificate has a ${key.bits}-bit ${key.type} key, which can be factored.`, 'Reissue with an RSA key of 2048 bits or more, or an ECDSA P-256 key.', 'F')
    else if ((key.bits ?? 0) < 2048) add('key_too_small', 'high', `The certificate has a ${key.bits}-bit ${key.type} key; 2048 bits is the minimum CAs and browsers accept.`, 'Reissue with an RSA key of 2048 bits or more, or an ECDSA P-256 key.', 'C')
  } else if (key.type === 'EC' && (key.bits ?? 0) < 224) {
    add('key_too_small', 'high', `The certificate has a ${key.bits}-bit EC key.`, 'Reissue with an ECDSA P-256 (or larger) key.', 'C')
  }
  if (!leaf.expired && leaf.days_left < 30) {
    add('certificate_expiring', leaf.days_left < 7 ? 'high' : 'medium', `The certificate expires in ${leaf.days_left} days (${leaf.not_after.slice(0, 10)}).`, 'Renew it now; automate renewal so it happens 30 days before expiry.')
  }
  // The CA/Browser Forum limit binds public CAs only; a private or locally added root may issue longer.
  if (chain.anchor_public && leaf.validity_days > 398) {
    add('validity_too_long', 'medium', `The certificate is valid for ${leaf.validity_days} days; publicly trusted certificates may not exceed 398.`, 'Reissue with a validity of at most 398 days (90 days with ACME is common).')
  }

  // Chain hygiene
  if (chain.complete && !chain.order_ok) add('chain_order', 'low', 'The server sends its certificates out of order; some clients fail to build the chain.', 'Send the leaf first, then each issuer in turn.')
  if (chain.unused_positions.length) add('chain_extra_certificates', 'low', `The server sends ${chain.unused_positions.length} certificate(s) that are not part of the chain (positions ${chain.unused_positions.join(', ')}).`, 'Remove certificates that do not belong to this chain; they cost bytes in every handshake.')
  if (chain.root_served) add('chain_includes_root', 'info', 'The server sends the root certificate; clients use their own copy, so it only adds bytes.', 'Leave the root out of the served chain.')

  // Protocols
  if (f.protocols.includes('SSLv3')) add('sslv3_supported', 'critical', 'SSLv3 is enabled (POODLE; prohibited by RFC 7568).', 'Disable SSLv3.', 'C')
  for (const [name, label] of [['TLSv1.0', 'tls10_supported'], ['TLSv1.1', 'tls11_supported']] as const) {
    if (f.protocols.includes(name)) add(label, 'medium', `${name} is enabled; it was deprecated by RFC 8996 and browsers no longer use it.`, `Disable ${name}; keep TLS 1.2 and TLS 1.3.`, 'B')
  }
  if (!f.protocols.includes('TLSv1.2') && !f.protocols.includes('TLSv1.3')) add('no_modern_tls', 'high', 'Neither TLS 1.2 nor TLS 1.3 is supported.', 'Enable TLS 1.2 and TLS 1.3.', 'C')
  else if (!f.protocols.includes('TLSv1.3')) add('tls13_not_supported', 'low', 'TLS 1.3 is not supported: no 1-RTT handshake, and forward secrecy depends on the suites.', 'Enable TLS 1.3 (any current OpenSSL, BoringSSL, Go or Java stack has it).', 'A-')

  // Cipher suites
  const fatal = f.suites.filter((s) => s.encryption === 'NULL' || s.authentication === 'anon' || s.export)
  const broken = f.suites.filter((s) => s.strength === 'insecure' && !fatal.includes(s))
  if (fatal.length) add('insecure_suites', 'critical', `Suites without encryption or authentication, or export-grade, are accepted: ${names(fatal)}.`, 'Remove NULL, anonymous (ADH/AECDH) and EXPORT suites from the cipher list.', 'F')
  if (broken.length) add('broken_suites', 'high', `Broken suites are accepted: ${names(broken)}.`, 'Remove RC4, DES and MD5 suites from the cipher list.', 'C')
  const sweet32 = f.suites.filter((s) => s.encryption.startsWith('3DES') || s.encryption.startsWith('IDEA'))
  if (sweet32.length) add('sweet32_suites', 'medium', `64-bit block cipher suites are accepted (Sweet32): ${names(sweet32)}.`, 'Remove 3DES and IDEA suites.', 'C')
  const usable = f.suites.filter((s) => s.authentication !== 'anon' && s.encryption !== 'NULL')
  if (usable.length && !usable.some((s) => s.forward_secrecy)) add('no_forward_secrecy', 'high', 'No suite with forward secrecy is accepted: recorded traffic can be decrypted once the key leaks.', 'Enable ECDHE suites (and TLS 1.3).', 'B')
  else if (usable.some((s) => !s.forward_secrecy)) add('suites_without_forward_secrecy', 'low', `Suites with static RSA or DH key exchange are accepted: ${names(usable.filter((s) => !s.forward_secrecy))}.`, 'Offer only ECDHE (and DHE) suites.')
  if (usable.length && !usable.some((s) => s.aead)) add('no_aead', 'medium', 'No AEAD suite (GCM, ChaCha20-Poly1305) is accepted.', 'Enable AES-GCM and ChaCha20-Poly1305 suites.', 'B')
  else if (usable.some((s) => !s.aead && !s.tls13)) add('cbc_suites', 'info', `CBC-mode suites are accepted: ${names(usable.filter((s) => !s.aead))}.`, 'Prefer AEAD suites; CBC is only needed for very old clients.')
  if (f.client_ordered.length) add('no_server_cipher_order', 'low', `On ${f.client_ordered.join(', ')} the client's order decides, and weaker suites are on offer.`, 'Enable server cipher preference (ssl_prefer_server_ciphers / SSLHonorCipherOrder).')
  if (f.dh_bits !== null && f.dh_bits < 2048) {
    add('weak_dh_group', f.dh_bits < 1024 ? 'critical' : 'medium', `DHE uses a ${f.dh_bits}-bit group (Logjam).`, 'Use a 2048-bit (or larger) DH group, or drop DHE for ECDHE.', f.dh_bits < 1024 ? 'F' : 'B')
  }

  // Revocation
  if (f.ocsp) {
    if (f.ocsp.cert_status !== 'revoked' && (f.ocsp.response_status !== 'successful' || !f.ocsp.matches_certificate || f.ocsp.signature_valid === false || !f.ocsp.current)) {
      const why = f.ocsp.response_status !== 'successful' ? `its status is ${f.ocsp.response_status}` : !f.ocsp.matches_certificate ? 'it is about another certificate' : f.ocsp.signature_valid === false ? 'its signature does not verify' : 'it is outside its validity window'
      add('ocsp_staple_invalid', 'medium', `The stapled OCSP response is unusable: ${why}.`, 'Fix OCSP stapling so the server fetches fresh responses from the CA’s responder.')
    }
  } else if (leaf.must_staple) {
    add('must_staple_not_stapled', 'high', 'The certificate demands OCSP stapling (TLS feature "must staple") but the server sends no OCSP response; Firefox refuses the connection.', 'Enable OCSP stapling on the server.')
  } else if (leaf.aia.ocsp.length) {
    add('ocsp_stapling_missing', 'info', 'The server does not staple an OCSP response.', 'Enable OCSP stapling to spare clients a lookup at the CA.')
  }

  // HSTS
  if (f.hsts.checked && !f.hsts.present) add('hsts_missing', 'low', 'No Strict-Transport-Security header: a first visit over http:// can be downgraded.', 'Send "Strict-Transport-Security: max-age=31536000; includeSubDomains".')
  else if (f.hsts.present && !f.hsts.long_max_age) add('hsts_short', 'low', `HSTS max-age is ${f.hsts.max_age} s, less than 180 days.`, 'Raise max-age to at least 15552000 (one year, 31536000, is usual).')
  else if (!f.hsts.checked && f.hsts.error) add('hsts_not_checked', 'info', `The HSTS header could not be read: ${f.hsts.error}`, 'HSTS only counts over a connection without certificate errors; fix those first.')
  return out
}
