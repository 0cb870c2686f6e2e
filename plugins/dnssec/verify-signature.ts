// One signature check with node:crypto: RSA PKCS#1 v1.5 (RFC 5702), ECDSA with the
// signature as r | s (RFC 6605 §4, which OpenSSL calls IEEE P1363 encoding), and pure
// EdDSA over the data itself (RFC 8080 §4).

import { verify } from 'node:crypto'
import type { DnssecPublicKey } from './public-key.ts'

const HASHES: Readonly<Record<number, string | null>> = { 8: 'sha256', 10: 'sha512', 13: 'sha256', 14: 'sha384', 15: null, 16: null }
const ECDSA_SIGNATURE_BYTES: Readonly<Record<number, number>> = { 13: 64, 14: 96 }

export function verifySignature(publicKey: DnssecPublicKey, data: Buffer, signature: Buffer): boolean {
  const { algorithm, key } = publicKey
  const hash = HASHES[algorithm]
  if (hash === undefined) return false
  try {
    const ecdsaBytes = ECDSA_SIGNATURE_BYTES[algorithm]
    if (ecdsaBytes !== undefined) {
      if (signature.length !== ecdsaBytes) return false
      return verify(hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature)
    }
    return verify(hash, data, key, signature)
  } catch {
    // OpenSSL rejects malformed signatures (wrong length for the modulus...) by throwing
    return false
  }
}
