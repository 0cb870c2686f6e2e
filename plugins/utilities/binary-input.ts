import { InputError } from '../../runtime/errors.ts'

/** Reads query text as bytes in the encoding the caller named; bad hex/base64 is a 400. */
export function toBytes(input: string, encoding: 'utf8' | 'hex' | 'base64', param = 'input'): Buffer {
  if (encoding === 'utf8') return Buffer.from(input, 'utf8')
  if (encoding === 'hex') {
    if (input.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(input)) {
      throw new InputError(`"${param}" is not hex: use pairs of 0-9 a-f digits.`, { param })
    }
    return Buffer.from(input, 'hex')
  }
  return decodeBase64(input, param).bytes
}

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/

/**
 * Strict base64: Buffer.from(x, 'base64') silently skips junk, so the alphabet,
 * padding and length are checked first.
 */
export function decodeBase64(input: string, param = 'input'): { bytes: Buffer; variant: 'standard' | 'url' } {
  const text = input.replace(/\s+/g, '')
  const variant = STANDARD.test(text) ? 'standard' : URL_SAFE.test(text) ? 'url' : undefined
  if (!variant) {
    const bad = [...text].find((c) => !/[A-Za-z0-9+/=_-]/.test(c))
    throw new InputError(
      bad !== undefined
        ? `"${param}" is not base64: character "${bad}" is outside the alphabet (A-Z a-z 0-9 + / or - _, and = padding).`
        : `"${param}" is not base64: it mixes the standard (+/) and URL-safe (-_) alphabets.`,
      { param },
    )
  }
  const unpadded = text.replace(/=+$/, '')
  if (unpadded.length % 4 === 1 || (text.includes('=') && text.length % 4 !== 0)) {
    throw new InputError(`"${param}" is not base64: its length (${text.length}) cannot come from whole bytes; check for a truncated value.`, {
      param,
    })
  }
  return { bytes: Buffer.from(unpadded, variant === 'url' ? 'base64url' : 'base64'), variant }
}
