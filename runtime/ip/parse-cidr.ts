import { prefixMask } from './bits.ts'
import type { Cidr, IpResult, IpVersion } from './ip-types.ts'
import { BITS, fail, ok } from './ip-types.ts'
import { parseIp } from './parse.ts'
import { scanIpv4 } from './parse-ipv4.ts'

export interface ParseCidrOptions {
  /**
   * A bare address without "/len". Default 'reject' (a typo'd block should not
   * silently become a single host); 'host' reads it as /32 or /128, which is what
   * list inputs such as summarize want.
   */
  bare?: 'reject' | 'host'
}

/**
 * `address/prefixLength`. Host bits may be set (`10.1.2.3/8`): the block is the
 * enclosing network and `hostBitsSet` says so, because analyze reports it rather
 * than refusing it.
 */
export function parseCidr(text: string, options: ParseCidrOptions = {}): IpResult<Cidr> {
  if (text.length === 0) {
    return fail('empty', text, 'the block is empty; expected a CIDR like 192.0.2.0/24 or 2001:db8::/32')
  }
  const slash = text.indexOf('/')
  if (slash >= 0 && text.lastIndexOf('/') !== slash) {
    return fail('prefix-length', text, 'it has more than one "/"; a CIDR block is address/length, like 192.0.2.0/24')
  }
  if (slash === 0) {
    return fail(
      'prefix-length',
      text,
      `the address before "/" is missing; write the network address first, like 192.0.2.0${text}`,
    )
  }
  const address = parseIp(slash < 0 ? text : text.slice(0, slash), { zone: 'reject' })
  if (!address.ok) return fail(address.error.code, text, address.error.reason)
  const { version, value } = address.value
  const bits = BITS[version]

  let prefixLength: number
  if (slash < 0) {
    if ((options.bare ?? 'reject') === 'reject') {
      return fail(
        'prefix-length',
        text,
        `the prefix length is missing; write it as ${text}/${bits} for a single address, or give the block's length`,
      )
    }
    prefixLength = bits
  } else {
    const parsed = parsePrefixLength(text.slice(slash + 1), version)
    if (typeof parsed === 'string') return fail('prefix-length', text, parsed)
    prefixLength = parsed
  }
  const network = value & prefixMask(version, prefixLength)
  return ok({ version, address: value, network, prefixLength, hostBitsSet: network !== value })
}

/** The length after "/", or the reason it is not one. */
export function parsePrefixLength(raw: string, version: IpVersion): number | string {
  const bits = BITS[version]
  if (raw === '') {
    return `the prefix length after "/" is missing; write a number 0-${bits}, like /${version === 4 ? 24 : 64}`
  }
  if (!/^[0-9]+$/.test(raw)) {
    if (version === 4) {
      const mask = scanIpv4(raw, 0, raw.length)
      if (mask >= 0) {
        const len = netmaskLength(mask)
        return len >= 0
          ? `"${raw}" is a netmask; write the prefix length /${len} instead`
          : `"${raw}" is not a contiguous netmask and not a prefix length; write a number 0-32`
      }
    }
    return `the prefix length "${raw}" must be a decimal number 0-${bits}`
  }
  if (raw.length > 1 && raw.startsWith('0')) {
    return `the prefix length "${raw}" has a leading zero; write /${Number(raw)}`
  }
  const len = Number(raw)
  if (len > bits) {
    return `the prefix length ${raw} is out of range; IPv${version} prefix lengths are 0-${bits}`
  }
  return len
}

/** Number of leading one bits of a contiguous netmask, -1 if the ones are not contiguous. */
function netmaskLength(mask: number): number {
  const inverted = ~mask >>> 0
  // A contiguous mask inverted is 2^k - 1, so adding one leaves a single bit.
  if ((inverted & (inverted + 1)) !== 0) return -1
  return 32 - (inverted === 0 ? 0 : 32 - Math.clz32(inverted))
}
