import { createPublicKey } from 'node:crypto'

// The key of a DKIM record (RFC 6376 §3.6.1 p=, RFC 8463 for Ed25519), read with
// node:crypto so the reported type and size are the key's own, not the k= tag's
// claim. RSA keys are SubjectPublicKeyInfo by the RFC; some publishers use bare
// PKCS#1 RSAPublicKey, which verifiers also accept. Ed25519 keys are the raw 32 bytes.

export interface DkimKeyInfo {
  type: string | null
  bits: number | null
  format: 'spki' | 'pkcs1' | 'raw' | null
  error: string | null
}

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

function fromDer(der: Buffer, type: 'spki' | 'pkcs1'): DkimKeyInfo {
  const key = createPublicKey({ key: der, format: 'der', type })
  const details = key.asymmetricKeyDetails
  const kind = key.asymmetricKeyType ?? null
  const bits = details?.modulusLength ?? (kind === 'ed25519' ? 256 : kind === 'ed448' ? 456 : null)
  return { type: kind, bits, format: type, error: null }
}

export function readDkimKey(keyType: string, base64: string): DkimKeyInfo {
  const text = base64.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return { type: null, bits: null, format: null, error: 'p= is not valid base64' }
  const der = Buffer.from(text, 'base64')
  if (keyType === 'ed25519' && der.length === 32) {
    try {
      return { ...fromDer(Buffer.concat([ED25519_SPKI_PREFIX, der]), 'spki'), format: 'raw' }
    } catch (error) {
      return { type: null, bits: null, format: null, error: `not an Ed25519 key: ${(error as Error).message}` }
    }
  }
  try {
    return fromDer(der, 'spki')
  } catch {
    try {
      return fromDer(der, 'pkcs1')
    } catch (error) {
      return { type: null, bits: null, format: null, error: `the public key cannot be decoded (${(error as Error).message})` }
    }
  }
}
