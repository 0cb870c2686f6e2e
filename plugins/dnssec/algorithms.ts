// DNSSEC algorithm and DS digest numbers (IANA "DNS Security Algorithm Numbers" and
// "Delegation Signer (DS) Resource Record (RR) Type Digest Algorithms") and which of
// them this validator implements. RFC 8624 §3.1/§3.3: RSASHA256, RSASHA512, ECDSA and
// EdDSA are the algorithms worth validating today; RSA/SHA-1 (5, 7) and the GOST and
// DSA families are not implemented, so zones signed only with them count as insecure
// (RFC 4035 §5.2, RFC 6840 §5.2), never as bogus.

const ALGORITHM_NAMES: Readonly<Record<number, string>> = {
  1: 'RSAMD5',
  3: 'DSA',
  5: 'RSASHA1',
  6: 'DSA-NSEC3-SHA1',
  7: 'RSASHA1-NSEC3-SHA1',
  8: 'RSASHA256',
  10: 'RSASHA512',
  12: 'ECC-GOST',
  13: 'ECDSAP256SHA256',
  14: 'ECDSAP384SHA384',
  15: 'ED25519',
  16: 'ED448',
  17: 'SM2SM3',
  23: 'ECC-GOST12',
  252: 'INDIRECT',
  253: 'PRIVATEDNS',
  254: 'PRIVATEOID',
}

const SUPPORTED_ALGORITHMS: ReadonlySet<number> = new Set([8, 10, 13, 14, 15, 16])

const DIGEST_NAMES: Readonly<Record<number, string>> = {
  1: 'SHA-1',
  2: 'SHA-256',
  3: 'GOST R 34.11-94',
  4: 'SHA-384',
  5: 'GOST R 34.11-2012',
  6: 'SM3',
}

/** node:crypto hash names of the digest types implemented. SHA-1 is accepted but reported as weak (RFC 8624 §3.3). */
const DIGEST_HASHES: Readonly<Record<number, string>> = { 1: 'sha1', 2: 'sha256', 4: 'sha384' }

export function algorithmName(algorithm: number): string {
  return ALGORITHM_NAMES[algorithm] ?? `ALG${algorithm}`
}

export function algorithmSupported(algorithm: number): boolean {
  return SUPPORTED_ALGORITHMS.has(algorithm)
}

export function digestName(digestType: number): string {
  return DIGEST_NAMES[digestType] ?? `DIGEST${digestType}`
}

export function digestHash(digestType: number): string | undefined {
  return DIGEST_HASHES[digestType]
}

export function digestSupported(digestType: number): boolean {
  return digestHash(digestType) !== undefined
}

export function isRsa(algorithm: number): boolean {
  return algorithm === 1 || algorithm === 5 || algorithm === 7 || algorithm === 8 || algorithm === 10
}
