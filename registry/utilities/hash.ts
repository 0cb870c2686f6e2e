import { z } from 'zod'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import { queryEnum } from '../../runtime/params.ts'

export const HASH_ALGORITHMS = [
  'md5',
  'sha1',
  'sha224',
  'sha256',
  'sha384',
  'sha512',
  'sha512-224',
  'sha512-256',
  'sha3-224',
  'sha3-256',
  'sha3-384',
  'sha3-512',
  'blake2b512',
  'blake2s256',
  'ripemd160',
] as const

export const BINARY_ENCODINGS = ['utf8', 'hex', 'base64'] as const

export default defineEndpoint({
  name: 'utilities.hash',
  tag: 'utilities',
  method: 'GET',
  path: '/api/hash/:algorithm',
  summary: 'Digest of `input` with md5, sha1, sha2, sha3, blake2 or ripemd160',
  description:
    "Hashes input, read as UTF-8 text, hex or base64 bytes (input_encoding), with Node's crypto and returns the digest in hex, base64 or base64url with its size in bits. The algorithm is case-insensitive and SHA-256 is read as sha256. Input up to 65536 characters; computed locally, never cached.",
  params: z.object({
    // Case-insensitive, and "SHA-256" is read as sha256.
    algorithm: z.preprocess(
      (s) => (typeof s === 'string' ? s.toLowerCase().replace(/^sha-(?=\d)/, 'sha') : s),
      z.enum(HASH_ALGORITHMS, { error: () => `must be one of ${HASH_ALGORITHMS.join(', ')}` }),
    ),
    input: z.string({ error: 'is required: the text to hash' }).max(65_536, 'must be at most 65536 characters'),
    input_encoding: queryEnum(BINARY_ENCODINGS, { default: 'utf8', description: 'how `input` is read: utf8 text, hex or base64 bytes' }),
    encoding: queryEnum(['hex', 'base64', 'base64url'], { default: 'hex', description: 'encoding of the digest' }),
  }),
  data: z.object({
    algorithm: z.string(),
    digest: z.string(),
    encoding: z.string(),
    bits: z.number().int(),
    input_bytes: z.number().int(),
  }),
  cache: false,
  cost: 1,
  example: { algorithm: 'sha256', input: 'hello' },
})
