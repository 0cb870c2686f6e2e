import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

// `sort=` over IP addresses and prefixes: text order puts 10.0.0.0/8 before
// 9.0.0.0/8 and compares IPv6 hex groups as words. When every value of the sort
// key in a list is an address or a CIDR, each is turned once into a key whose
// plain string order is address order: family (IPv4 first), then the address
// bytes, then the prefix length (a bare address counts as /32 or /128).

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** The order key of one address or CIDR text, or null when it is neither. */
export function addressSortKey(text: string): string | null {
  const slash = text.indexOf('/')
  const address = slash < 0 ? text : text.slice(0, slash)
  const family = isIP(address)
  if (family === 0) return null
  const bits = family === 4 ? 32 : 128
  let len = bits
  if (slash >= 0) {
    const digits = text.slice(slash + 1)
    if (!/^(?:0|[1-9]\d{0,2})$/.test(digits) || Number(digits) > bits) return null
    len = Number(digits)
  }
  let key = family === 4 ? '4' : '6'
  for (const byte of ipaddr.parse(address).toByteArray()) key += HEX[byte]
  return key + String(len).padStart(3, '0')
}

/** A key for each value (null where the value is missing), or null when some present value is not an address or CIDR. */
export function addressSortKeys(values: readonly unknown[]): Array<string | null> | null {
  const keys: Array<string | null> = new Array(values.length)
  let present = 0
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (v === undefined || v === null) {
      keys[i] = null
      continue
    }
    // Most sort keys are names or numbers: one look at the first character rules them out.
    if (typeof v !== 'string' || v.length < 2 || !/^[\da-fA-F:]/.test(v)) return null
    const key = addressSortKey(v)
    if (key === null) return null
    keys[i] = key
    present++
  }
  return present > 0 ? keys : null
}
