import { createDecipheriv, createECDH, createHash, createHmac, createPublicKey, diffieHellman, generateKeyPairSync } from 'node:crypto'
import type { ECDH, KeyObject } from 'node:crypto'
import type { KeyShare } from './client-hello.ts'
import { GROUP } from './client-hello.ts'
import type { RecordDecrypter, ServerHello } from './server-flight.ts'

// Just enough of the TLS 1.3 key schedule (RFC 8446 §7.1) to read the server's
// encrypted first flight: in TLS 1.3 the certificate chain travels encrypted, and
// the chain exactly as served (order, extras, stapled OCSP, SCTs) is what chain
// analysis needs. Only the server handshake traffic key is derived; the probe
// never finishes the handshake.

export interface Aead {
  cipher: 'aes-128-gcm' | 'aes-256-gcm' | 'chacha20-poly1305'
  keyLength: number
  hash: 'sha256' | 'sha384'
}

/** The suites a certificate probe offers in TLS 1.3: those it can decrypt. */
export const DECRYPTABLE_TLS13: Readonly<Record<number, Aead>> = {
  0x1301: { cipher: 'aes-128-gcm', keyLength: 16, hash: 'sha256' },
  0x1302: { cipher: 'aes-256-gcm', keyLength: 32, hash: 'sha384' },
  0x1303: { cipher: 'chacha20-poly1305', keyLength: 32, hash: 'sha256' },
}

export interface ClientKeys {
  shares: KeyShare[]
  /** The shared secret with the server's share, or null for a group we did not offer. */
  agree(group: number, serverKey: Buffer): Buffer | null
}

/** Fresh X25519 and P-256 shares: between them almost every TLS 1.3 server answers without a retry. */
export function createClientKeys(): ClientKeys {
  const x25519 = generateKeyPairSync('x25519')
  const xPublic = Buffer.from(x25519.publicKey.export({ format: 'jwk' }).x!, 'base64url')
  const p256: ECDH = createECDH('prime256v1')
  const pPublic = p256.generateKeys()
  return {
    shares: [
      { group: GROUP.x25519, key: xPublic },
      { group: GROUP.secp256r1, key: pPublic },
    ],
    agree(group, serverKey) {
      if (group === GROUP.x25519) {
        const publicKey: KeyObject = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: serverKey.toString('base64url') }, format: 'jwk' })
        return diffieHellman({ privateKey: x25519.privateKey, publicKey })
      }
      if (group === GROUP.secp256r1) return p256.computeSecret(serverKey)
      return null
    },
  }
}

function hkdfExtract(hash: string, salt: Buffer, ikm: Buffer): Buffer {
  return createHmac(hash, salt).update(ikm).digest()
}

function hkdfExpandLabel(hash: string, secret: Buffer, label: string, context: Buffer, length: number): Buffer {
  const fullLabel = Buffer.from(`tls13 ${label}`, 'ascii')
  const info = Buffer.concat([Buffer.from([length >> 8, length & 0xff, fullLabel.length]), fullLabel, Buffer.from([context.length]), context])
  const blocks: Buffer[] = []
  let previous = Buffer.alloc(0)
  for (let i = 1; Buffer.concat(blocks).length < length; i++) {
    previous = createHmac(hash, secret).update(Buffer.concat([previous, info, Buffer.from([i])])).digest()
    blocks.push(previous)
  }
  return Buffer.concat(blocks).subarray(0, length)
}

/**
 * The decrypter of the server's handshake records, from our key share and the
 * ServerHello; null when the server picked a suite or group we cannot follow.
 */
export function serverHandshakeDecrypter(keys: ClientKeys, hello: ServerHello, clientHello: Buffer, serverHelloRaw: Buffer): RecordDecrypter | null {
  const aead = DECRYPTABLE_TLS13[hello.suite]
  const share = hello.extensions.get(51)
  if (!aead || !share || share.length < 4) return null
  const group = share.readUInt16BE(0)
  const serverKey = share.subarray(4, 4 + share.readUInt16BE(2))
  const shared = keys.agree(group, serverKey)
  if (!shared) return null
  const { hash } = aead
  const hashLength = hash === 'sha384' ? 48 : 32
  const zeros = Buffer.alloc(hashLength)
  const early = hkdfExtract(hash, zeros, zeros)
  const derived = hkdfExpandLabel(hash, early, 'derived', createHash(hash).update('').digest(), hashLength)
  const handshakeSecret = hkdfExtract(hash, derived, shared)
  const transcript = createHash(hash).update(clientHello).update(serverHelloRaw).digest()
  const serverSecret = hkdfExpandLabel(hash, handshakeSecret, 's hs traffic', transcript, hashLength)
  return trafficDecrypter(aead, serverSecret)
}

/**
 * Decrypts the records protected by one traffic secret (RFC 8446 §5.2, §7.3),
 * in order: sequence numbers count from 0 per secret. Also used with the
 * application secret node:tls logs (keylog) to read post-handshake messages.
 */
export function trafficDecrypter(aead: Aead, secret: Buffer): RecordDecrypter {
  const { hash } = aead
  const key = hkdfExpandLabel(hash, secret, 'key', Buffer.alloc(0), aead.keyLength)
  const iv = hkdfExpandLabel(hash, secret, 'iv', Buffer.alloc(0), 12)
  let sequence = 0n
  return (header, payload) => {
    if (payload.length < 17) throw new Error('record too short')
    const nonce = Buffer.from(iv)
    const seq = Buffer.alloc(8)
    seq.writeBigUInt64BE(sequence)
    for (let i = 0; i < 8; i++) nonce[4 + i]! ^= seq[i]!
    const decipher = aead.cipher === 'chacha20-poly1305' ? createDecipheriv(aead.cipher, key, nonce, { authTagLength: 16 }) : createDecipheriv(aead.cipher, key, nonce)
    decipher.setAAD(header, { plaintextLength: payload.length - 16 })
    decipher.setAuthTag(payload.subarray(payload.length - 16))
    const plain = Buffer.concat([decipher.update(payload.subarray(0, payload.length - 16)), decipher.final()])
    // Only a record that authenticated moves the sequence on.
    sequence++
    let end = plain.length - 1
    while (end >= 0 && plain[end] === 0) end--
    if (end < 0) throw new Error('record without content type')
    return { type: plain[end]!, data: plain.subarray(0, end) }
  }
}
