// DNSKEY public-key fields to node:crypto keys, per algorithm: RSA (RFC 3110 exponent
// and modulus; RFC 5702 for SHA-256/512), ECDSA (RFC 6605: the curve point as x | y),
// EdDSA (RFC 8080: the raw public key). Keys arrive base64 in the DNSKEY and go to
// OpenSSL as JWK, which needs no DER assembly.

import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto'
import { isRsa } from './algorithms.ts'

export interface DnssecPublicKey {
  algorithm: number
  key: KeyObject
  /** Modulus length for RSA, curve size for ECDSA/EdDSA. */
  bits: number
}

export type ImportedKey = { ok: true; value: DnssecPublicKey } | { ok: false; error: string }

const b64url = (bytes: Buffer): string => bytes.toString('base64url')

function stripLeadingZeros(bytes: Buffer): Buffer {
  let i = 0
  while (i < bytes.length - 1 && bytes[i] === 0) i++
  return bytes.subarray(i)
}

function bitLength(bytes: Buffer): number {
  const trimmed = stripLeadingZeros(bytes)
  const top = trimmed[0] ?? 0
  return top === 0 ? 0 : (trimmed.length - 1) * 8 + (32 - Math.clz32(top))
}

// RFC 5702 §2.1/§3.1 (and RFC 3110 §2): moduli of 512..4096 bits for RSASHA256,
// 1024..4096 for RSASHA512; anything else is not a key this algorithm defines.
const RSA_BOUNDS: Readonly<Record<number, [number, number]>> = { 8: [512, 4096], 10: [1024, 4096] }

function rsaJwk(algorithm: number, raw: Buffer): { jwk: JsonWebKey; bits: number } | string {
  if (raw.length < 3) return 'RSA key too short'
  let expLength = raw[0] as number
  let offset = 1
  if (expLength === 0) {
    expLength = raw.readUInt16BE(1)
    offset = 3
  }
  const exponent = raw.subarray(offset, offset + expLength)
  const modulus = raw.subarray(offset + expLength)
  if (exponent.length !== expLength || modulus.length === 0) return 'RSA key exponent runs past the key'
  const bits = bitLength(modulus)
  const bounds = RSA_BOUNDS[algorithm]
  if (bounds && (bits < bounds[0] || bits > bounds[1])) return `a ${bits}-bit modulus is outside ${bounds[0]}..${bounds[1]} bits for algorithm ${algorithm}`
  return { jwk: { kty: 'RSA', n: b64url(stripLeadingZeros(modulus)), e: b64url(stripLeadingZeros(exponent)) }, bits }
}

const CURVES: Readonly<Record<number, { kty: 'EC' | 'OKP'; crv: string; bytes: number; bits: number }>> = {
  13: { kty: 'EC', crv: 'P-256', bytes: 64, bits: 256 },
  14: { kty: 'EC', crv: 'P-384', bytes: 96, bits: 384 },
  15: { kty: 'OKP', crv: 'Ed25519', bytes: 32, bits: 256 },
  16: { kty: 'OKP', crv: 'Ed448', bytes: 57, bits: 456 },
}

function curveJwk(algorithm: number, raw: Buffer): { jwk: JsonWebKey; bits: number } | string {
  const curve = CURVES[algorithm]
  if (!curve) return `algorithm ${algorithm} is not implemented`
  if (raw.length !== curve.bytes) return `a ${curve.crv} key is ${curve.bytes} bytes, not ${raw.length}`
  if (curve.kty === 'OKP') return { jwk: { kty: 'OKP', crv: curve.crv, x: b64url(raw) }, bits: curve.bits }
  const half = curve.bytes / 2
  return { jwk: { kty: 'EC', crv: curve.crv, x: b64url(raw.subarray(0, half)), y: b64url(raw.subarray(half)) }, bits: curve.bits }
}

// The same few keys (root, TLDs, popular zones) sign most answers; importing a key
// costs more than verifying with it, so imported keys are remembered.
const imported = new Map<string, ImportedKey>()
const IMPORTED_MAX = 4096

export function importDnskey(algorithm: number, keyBase64: string): ImportedKey {
  const cacheKey = `${algorithm}/${keyBase64}`
  const known = imported.get(cacheKey)
  if (known) return known
  const raw = Buffer.from(keyBase64, 'base64')
  const spec = isRsa(algorithm) ? rsaJwk(algorithm, raw) : curveJwk(algorithm, raw)
  let result: ImportedKey
  if (typeof spec === 'string') result = { ok: false, error: spec }
  else {
    try {
      result = { ok: true, value: { algorithm, key: createPublicKey({ key: spec.jwk, format: 'jwk' }), bits: spec.bits } }
    } catch (error) {
      // e.g. an EC point that is not on the curve
      result = { ok: false, error: `the key is not a valid ${algorithm} public key: ${(error as Error).message}` }
    }
  }
  if (imported.size >= IMPORTED_MAX) imported.delete(imported.keys().next().value!)
  imported.set(cacheKey, result)
  return result
}

/** Forgets every imported key (cold-chain benchmarks). */
export function forgetImportedKeys(): void {
  imported.clear()
}

/** Key size in bits as operators quote it (RSA modulus length, curve size), without importing. */
export function keySizeOf(algorithm: number, keyBase64: string): number | null {
  const raw = Buffer.from(keyBase64, 'base64')
  if (isRsa(algorithm)) {
    const spec = rsaJwk(0, raw)
    return typeof spec === 'string' ? null : spec.bits
  }
  return CURVES[algorithm]?.bits ?? null
}
