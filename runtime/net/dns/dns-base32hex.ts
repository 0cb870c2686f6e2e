// Base32 with the extended-hex alphabet (RFC 4648 §7), no padding: the encoding NSEC3
// uses for hashed owner names (RFC 5155 §3.3). Node's Buffer has no such encoding.

const ALPHABET = '0123456789abcdefghijklmnopqrstuv'

export function toBase32Hex(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
    value &= (1 << bits) - 1
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  return out
}

export function fromBase32Hex(text: string): Buffer {
  const clean = text.toLowerCase().replace(/=+$/, '')
  const out: number[] = []
  let bits = 0
  let value = 0
  for (const ch of clean) {
    const digit = ALPHABET.indexOf(ch)
    if (digit < 0) throw new TypeError(`"${ch}" is not a base32hex digit`)
    value = (value << 5) | digit
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
    value &= (1 << bits) - 1
  }
  return Buffer.from(out)
}
