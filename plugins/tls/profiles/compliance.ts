import type { Profile, ProfileName } from './guidelines.ts'
import { canonicalGroup, curveBits, ffdheBits, mozillaKeyType, mozillaVersion } from './profile-names.ts'

// A server's configuration against each profile of Mozilla's guidelines: every
// field of a profile the analysis can observe, each difference one deviation
// {profile, field, expected, seen, message}. What a field means here:
//   tls_versions        the versions offered must be exactly the profile's (one
//                       more is a risk, one fewer shuts out the profile's clients)
//   ciphersuites        TLS 1.3 suites offered must be among the profile's
//   ciphers             TLS <= 1.2 suites offered must be among the profile's (by
//                       IANA name; OpenSSL names when the document has only those)
//   tls_curves          groups accepted (TLS 1.3 and TLS 1.2 ECDHE) must be among them
//   certificate_types   the leaf's key type; certificate_curves its curve (EC keys)
//   certificate_signatures  the leaf's signature algorithm
//   rsa_key_size        RSA leaf key at least this many bits
//   dh_param_size       finite-field DH groups (TLS 1.2 DHE, TLS 1.3 ffdhe) at least this
//   ecdh_param_size     every elliptic-curve group accepted at least this
//   hsts_min_age        Strict-Transport-Security max-age at least this (HTTPS only)
//   maximum_certificate_lifespan  the leaf's validity in days at most this
//   ocsp_staple         when true, a staple must come with the handshake
//   server_preferred_order  when true, the server must pick by its own order on
//                       every TLS <= 1.2 version with more than one suite
// A field the document leaves out, or null where null means "no such
// requirement", is not judged; a field the analysis could not observe (HSTS
// over STARTTLS, a DH group size the handshakes never showed) is listed in
// not_checked with the reason, never guessed.

export type Value = string | number | boolean | null | string[]

export interface Deviation {
  profile: ProfileName
  field: string
  expected: Value
  seen: Value
  message: string
}

export interface ProfileResult {
  profile: ProfileName
  compliant: boolean
  deviations: Deviation[]
  not_checked: Array<{ field: string; reason: string }>
  oldest_clients: string[] | null
}

export interface ComplianceFacts {
  /** Versions the server accepts, as the scan names them (TLSv1.0 ... TLSv1.3, SSLv3). */
  protocols: string[]
  /** Accepted suites per version: IANA and OpenSSL names. */
  suites: Array<{ protocol: string; name: string; openssl_name: string | null; server_preference: boolean | null }>
  /** Groups accepted, IANA names (TLS 1.3 and TLS 1.2 ECDHE together). */
  groups: string[]
  /** DHE group size seen on TLS <= 1.2, null when no handshake showed one. */
  dh_bits: number | null
  /** The server accepts finite-field DHE suites on TLS <= 1.2. */
  dhe_suites: boolean
  leaf: { type: string; bits: number | null; curve: string | null; signature: string; validity_days: number }
  ocsp_stapled: boolean
  hsts: { checked: boolean; reason: string | null; present: boolean; max_age: number | null }
}

const list = (xs: Iterable<string>) => [...new Set(xs)]

export function checkProfile(p: Profile, f: ComplianceFacts): ProfileResult {
  const deviations: Deviation[] = []
  const notChecked: Array<{ field: string; reason: string }> = [...p.unjudged]
  const deviate = (field: string, expected: Value, seen: Value, message: string) => deviations.push({ profile: p.name, field, expected, seen, message })

  if (p.tls_versions) {
    const offered = f.protocols.map(mozillaVersion)
    const extra = offered.filter((v) => !p.tls_versions!.includes(v))
    const missing = p.tls_versions.filter((v) => !offered.includes(v))
    if (extra.length || missing.length) {
      const parts = [extra.length ? `offers ${extra.join(', ')}, which ${p.name} does not` : null, missing.length ? `does not offer ${missing.join(', ')}, which ${p.name} does` : null].filter(Boolean)
      deviate('tls_versions', p.tls_versions, offered, `The server ${parts.join(' and ')}.`)
    }
  }

  const tls13 = f.suites.filter((s) => s.protocol === 'TLSv1.3')
  if (p.ciphersuites && tls13.length) {
    const extra = list(tls13.filter((s) => !p.ciphersuites!.includes(s.name)).map((s) => s.name))
    if (extra.length) deviate('ciphersuites', p.ciphersuites, extra, `TLS 1.3 suites not in ${p.name}: ${extra.join(', ')}.`)
  }

  const legacy = f.suites.filter((s) => s.protocol !== 'TLSv1.3')
  if (legacy.length && (p.ciphers_iana || p.ciphers_openssl)) {
    const byIana = p.ciphers_iana !== null
    const allowed = (byIana ? p.ciphers_iana : p.ciphers_openssl)!
    const extra = list(legacy.filter((s) => !allowed.includes((byIana ? s.name : s.openssl_name) ?? s.name)).map((s) => (byIana ? s.name : (s.openssl_name ?? s.name))))
    if (extra.length) deviate('ciphers', allowed, extra, `TLS 1.2-and-older suites not in ${p.name}: ${extra.join(', ')}.`)
  }

  if (p.tls_curves) {
    const allowed = new Set(p.tls_curves.map(canonicalGroup))
    const extra = list(f.groups.filter((g) => !allowed.has(canonicalGroup(g))))
    if (extra.length) deviate('tls_curves', p.tls_curves, extra, `Key exchange groups not in ${p.name}: ${extra.join(', ')}.`)
  }

  const keyType = mozillaKeyType(f.leaf.type)
  if (p.certificate_types && !p.certificate_types.includes(keyType)) {
    deviate('certificate_types', p.certificate_types, keyType, `The certificate's key is ${keyType}; ${p.name} wants ${p.certificate_types.join(' or ') || 'none'}.`)
  }
  if (p.certificate_curves && p.certificate_curves.length && keyType === 'ecdsa') {
    const allowed = new Set(p.certificate_curves.map(canonicalGroup))
    if (f.leaf.curve === null || !allowed.has(canonicalGroup(f.leaf.curve))) {
      deviate('certificate_curves', p.certificate_curves, f.leaf.curve, `The certificate's key is on ${f.leaf.curve ?? 'an unnamed curve'}; ${p.name} wants ${p.certificate_curves.join(' or ')}.`)
    }
  }
  if (p.certificate_signatures && !p.certificate_signatures.includes(f.leaf.signature)) {
    deviate('certificate_signatures', p.certificate_signatures, f.leaf.signature, `The certificate is signed with ${f.leaf.signature}; ${p.name} wants ${p.certificate_signatures.join(', ')}.`)
  }
  if (p.rsa_key_size !== null && keyType === 'rsa' && f.leaf.bits !== null && f.leaf.bits < p.rsa_key_size) {
    deviate('rsa_key_size', p.rsa_key_size, f.leaf.bits, `The certificate's RSA key has ${f.leaf.bits} bits; ${p.name} wants at least ${p.rsa_key_size}.`)
  }

  if (p.dh_param_size !== null) {
    const sizes = f.groups.map(ffdheBits).filter((b): b is number => b !== null)
    if (f.dh_bits !== null) sizes.push(f.dh_bits)
    else if (f.dhe_suites) notChecked.push({ field: 'dh_param_size', reason: 'DHE suites are accepted but no handshake showed the group size' })
    const smallest = sizes.length ? Math.min(...sizes) : null
    if (smallest !== null && smallest < p.dh_param_size) deviate('dh_param_size', p.dh_param_size, smallest, `A ${smallest}-bit DH group is accepted; ${p.name} wants at least ${p.dh_param_size} bits.`)
  }
  if (p.ecdh_param_size !== null) {
    const small = f.groups.filter((g) => (curveBits(g) ?? Number.POSITIVE_INFINITY) < p.ecdh_param_size!)
    if (small.length) deviate('ecdh_param_size', p.ecdh_param_size, small, `Elliptic curves under ${p.ecdh_param_size} bits are accepted: ${small.join(', ')}.`)
  }

  if (p.hsts_min_age !== null) {
    if (!f.hsts.checked) notChecked.push({ field: 'hsts_min_age', reason: f.hsts.reason ?? 'HSTS was not checked' })
    else if (!f.hsts.present || f.hsts.max_age === null || f.hsts.max_age < p.hsts_min_age) {
      deviate('hsts_min_age', p.hsts_min_age, f.hsts.present ? f.hsts.max_age : null, f.hsts.present ? `HSTS max-age is ${f.hsts.max_age ?? 'missing'}; ${p.name} wants at least ${p.hsts_min_age} s.` : `No Strict-Transport-Security header; ${p.name} wants max-age of at least ${p.hsts_min_age} s.`)
    }
  }
  if (p.maximum_certificate_lifespan !== null && f.leaf.validity_days > p.maximum_certificate_lifespan) {
    deviate('maximum_certificate_lifespan', p.maximum_certificate_lifespan, f.leaf.validity_days, `The certificate is valid for ${f.leaf.validity_days} days; ${p.name} allows at most ${p.maximum_certificate_lifespan}.`)
  }
  if (p.ocsp_staple === true && !f.ocsp_stapled) deviate('ocsp_staple', true, false, `No OCSP response is stapled; ${p.name} wants one.`)
  if (p.server_preferred_order === true) {
    const clientOrdered = list(legacy.filter((s) => s.server_preference === false).map((s) => s.protocol))
    if (clientOrdered.length) deviate('server_preferred_order', true, false, `The client's suite order decides on ${clientOrdered.join(', ')}; ${p.name} wants the server's.`)
  }

  return { profile: p.name, compliant: deviations.length === 0, deviations, not_checked: notChecked, oldest_clients: p.oldest_clients }
}
