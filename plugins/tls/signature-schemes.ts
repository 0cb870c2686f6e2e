// The TLS SignatureScheme registry (RFC 8446 §4.2.3, RFC 5246 §7.4.1.4.1 for the
// TLS 1.2 hash/signature pairs, RFC 8734 for brainpool, draft-ietf-tls-mldsa):
// what the signature-algorithm scan (sigalg-scan.ts) offers one at a time.

export interface SignatureScheme {
  id: number
  name: string
  /** Hash the scheme signs with; null for EdDSA and ML-DSA, which hash internally. */
  hash: 'md5' | 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512' | null
  /** SHA-1 or MD5: collisions are practical. */
  weak: boolean
  /** RFC 8446 forbids it in TLS 1.3 CertificateVerify (PKCS#1 v1.5, SHA-1, SHA-224, DSA). */
  tls12_only: boolean
  post_quantum: boolean
}

const s = (id: number, name: string, hash: SignatureScheme['hash'], tls12Only = false, pq = false): SignatureScheme => ({
  id,
  name,
  hash,
  weak: hash === 'md5' || hash === 'sha1',
  tls12_only: tls12Only,
  post_quantum: pq,
})

export const SIGNATURE_SCHEMES: readonly SignatureScheme[] = [
  s(0x0403, 'ecdsa_secp256r1_sha256', 'sha256'),
  s(0x0503, 'ecdsa_secp384r1_sha384', 'sha384'),
  s(0x0603, 'ecdsa_secp521r1_sha512', 'sha512'),
  s(0x0807, 'ed25519', null),
  s(0x0808, 'ed448', null),
  s(0x0804, 'rsa_pss_rsae_sha256', 'sha256'),
  s(0x0805, 'rsa_pss_rsae_sha384', 'sha384'),
  s(0x0806, 'rsa_pss_rsae_sha512', 'sha512'),
  s(0x0809, 'rsa_pss_pss_sha256', 'sha256'),
  s(0x080a, 'rsa_pss_pss_sha384', 'sha384'),
  s(0x080b, 'rsa_pss_pss_sha512', 'sha512'),
  s(0x081a, 'ecdsa_brainpoolP256r1tls13_sha256', 'sha256'),
  s(0x081b, 'ecdsa_brainpoolP384r1tls13_sha384', 'sha384'),
  s(0x081c, 'ecdsa_brainpoolP512r1tls13_sha512', 'sha512'),
  s(0x0904, 'mldsa44', null, false, true),
  s(0x0905, 'mldsa65', null, false, true),
  s(0x0906, 'mldsa87', null, false, true),
  s(0x0401, 'rsa_pkcs1_sha256', 'sha256', true),
  s(0x0501, 'rsa_pkcs1_sha384', 'sha384', true),
  s(0x0601, 'rsa_pkcs1_sha512', 'sha512', true),
  s(0x0301, 'rsa_pkcs1_sha224', 'sha224', true),
  s(0x0303, 'ecdsa_sha224', 'sha224', true),
  s(0x0201, 'rsa_pkcs1_sha1', 'sha1', true),
  s(0x0203, 'ecdsa_sha1', 'sha1', true),
  s(0x0101, 'rsa_pkcs1_md5', 'md5', true),
  s(0x0402, 'dsa_sha256', 'sha256', true),
  s(0x0302, 'dsa_sha224', 'sha224', true),
  s(0x0202, 'dsa_sha1', 'sha1', true),
]

const BY_ID = new Map(SIGNATURE_SCHEMES.map((x) => [x.id, x]))

export function signatureScheme(id: number): SignatureScheme | undefined {
  return BY_ID.get(id)
}

export function schemeName(id: number): string {
  return BY_ID.get(id)?.name ?? `0x${id.toString(16).padStart(4, '0')}`
}

/** Every scheme code: what a hello offers when the scan is not asking about signatures. */
export const ALL_SCHEME_IDS: readonly number[] = SIGNATURE_SCHEMES.map((x) => x.id)
