// The type bit maps of NSEC and NSEC3 (RFC 4034 §4.1.2). Decoded here rather than by
// dns-packet so every type comes out under this service's mnemonics (HTTPS, not
// UNKNOWN_65) and a malformed window is rejected instead of read past.

import { typeName, type DnsTypeMnemonic } from './dns-types.ts'

export function decodeTypeBitmap(buf: Buffer): DnsTypeMnemonic[] {
  const types: DnsTypeMnemonic[] = []
  let pos = 0
  let lastWindow = -1
  while (pos < buf.length) {
    if (pos + 2 > buf.length) throw new RangeError('type bit map window header truncated')
    const window = buf[pos] as number
    const length = buf[pos + 1] as number
    if (window <= lastWindow) throw new RangeError('type bit map windows out of order')
    if (length < 1 || length > 32 || pos + 2 + length > buf.length) throw new RangeError(`type bit map window ${window} has a bad length`)
    lastWindow = window
    for (let i = 0; i < length; i++) {
      const byte = buf[pos + 2 + i] as number
      for (let bit = 0; bit < 8; bit++) if (byte & (0x80 >> bit)) types.push(typeName((window << 8) | (i << 3) | bit))
    }
    pos += 2 + length
  }
  return types
}

export function encodeTypeBitmap(codes: Iterable<number>): Buffer {
  const windows = new Map<number, number[]>()
  for (const code of codes) {
    const window = code >> 8
    const bits = windows.get(window) ?? []
    const index = (code & 0xff) >> 3
    while (bits.length <= index) bits.push(0)
    bits[index] = (bits[index] as number) | (0x80 >> (code & 7))
    windows.set(window, bits)
  }
  const parts: Buffer[] = []
  for (const window of [...windows.keys()].sort((a, b) => a - b)) {
    const bits = windows.get(window) as number[]
    parts.push(Buffer.from([window, bits.length, ...bits]))
  }
  return Buffer.concat(parts)
}
