// The names Mozilla's guidelines use (OpenSSL's) against the names the scans
// report (IANA's, or node:crypto's), so both sides compare as one.

/** Protocol versions as the guidelines write them: TLSv1 for TLS 1.0. */
export function mozillaVersion(protocol: string): string {
  return protocol === 'TLSv1.0' ? 'TLSv1' : protocol
}

const CURVE_ALIASES: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    prime256v1: 'secp256r1',
    'p-256': 'secp256r1',
    prime192v1: 'secp192r1',
    'p-192': 'secp192r1',
    'p-224': 'secp224r1',
    'p-384': 'secp384r1',
    'p-521': 'secp521r1',
  }),
)

/** One spelling per group or curve: lower case, OpenSSL's and NIST's aliases mapped to the SEC name. */
export function canonicalGroup(name: string): string {
  const lower = name.toLowerCase()
  return Object.hasOwn(CURVE_ALIASES, lower) ? CURVE_ALIASES[lower]! : lower
}

/** The certificate key type as the guidelines name it (certificate_types). */
export function mozillaKeyType(type: string): string {
  switch (type) {
    case 'RSA':
      return 'rsa'
    case 'EC':
      return 'ecdsa'
    default:
      return type.toLowerCase()
  }
}

/**
 * Size in bits of an elliptic-curve group, as ecdh_param_size counts it: the
 * curve's field size, X25519 counted as the 256-bit curve it is (the guidelines
 * list X25519 with ecdh_param_size 256). Null for finite-field and
 * post-quantum groups.
 */
export function curveBits(name: string): number | null {
  const g = canonicalGroup(name)
  if (g === 'x25519') return 256
  if (g === 'x448') return 448
  const m = /^(?:secp|sect|brainpoolp)(\d{3})/.exec(g)
  return m ? Number(m[1]) : null
}

/** Size in bits of a finite-field group (ffdhe2048 → 2048), null for others. */
export function ffdheBits(name: string): number | null {
  const m = /^ffdhe(\d+)$/.exec(name.toLowerCase())
  return m ? Number(m[1]) : null
}
