import type { IpAddress, IpResult } from './ip-types.ts'
import { fail, ok } from './ip-types.ts'
import { explainIpv4, scanIpv4 } from './parse-ipv4.ts'
import { groupsToBigint, scanIpv6 } from './parse-ipv6.ts'

export interface ParseIpOptions {
  /**
   * What to do with an IPv6 zone id (`fe80::1%eth0`, RFC 4007). Default 'reject':
   * a zone names an interface on the machine that wrote the address, so to a remote
   * API it is noise at best; silently dropping it could answer about a different
   * thing than the caller meant. 'strip' drops it after checking it is non-empty.
   */
  zone?: 'reject' | 'strip'
}

const scratch = new Uint16Array(8)

/**
 * Any IPv4 or IPv6 address in text form. IPv6 may be bracketed (`[::1]`, as in
 * URLs); IPv4 must be a strict dotted quad (see parse-ipv4.ts).
 */
export function parseIp(text: string, options: ParseIpOptions = {}): IpResult<IpAddress> {
  if (text.length === 0) {
    return fail('empty', text, 'the address is empty; expected IPv4 like 192.0.2.1 or IPv6 like 2001:db8::1')
  }
  if (text.trim() !== text) {
    return fail(text.includes(':') ? 'ipv6-syntax' : 'ipv4-syntax', text, 'it has leading or trailing whitespace; remove it')
  }
  let from = 0
  let to = text.length
  if (text.charCodeAt(0) === 91) {
    if (text.charCodeAt(to - 1) !== 93) {
      return fail('brackets', text, 'it opens with "[" but does not end with "]"; write [2001:db8::1] or drop the brackets')
    }
    from = 1
    to -= 1
    if (!text.slice(from, to).includes(':')) {
      return fail('brackets', text, 'brackets are only used around IPv6 addresses; write IPv4 addresses without them')
    }
  } else if (text.charCodeAt(to - 1) === 93) {
    return fail('brackets', text, 'it ends with "]" but does not open with "["; write [2001:db8::1] or drop the brackets')
  }

  const percent = text.indexOf('%', from)
  if (percent >= 0 && percent < to) {
    if (!text.slice(from, percent).includes(':')) {
      return fail('zone-id', text, 'a "%" zone id only exists on IPv6 addresses (like fe80::1%eth0); remove the "%" part')
    }
    const zone = text.slice(percent, to)
    if ((options.zone ?? 'reject') === 'reject') {
      return fail(
        'zone-id',
        text,
        `the zone id "${zone}" is not accepted: it names an interface on the machine that wrote the address; ` +
          `send the address without "${zone}"`,
      )
    }
    if (zone.length === 1) return fail('zone-id', text, 'the zone id after "%" is empty; remove the "%"')
    if (!/^%[A-Za-z0-9_.~-]+$/.test(zone)) {
      return fail('zone-id', text, `the zone id "${zone}" may only contain letters, digits and . _ ~ -`)
    }
    to = percent
  }

  if (text.indexOf(':', from) >= 0) {
    const reason = scanIpv6(text, from, to, scratch)
    if (reason !== null) return fail('ipv6-syntax', text, reason)
    return ok({ version: 6, value: groupsToBigint(scratch) })
  }

  const v4 = scanIpv4(text, from, to)
  if (v4 >= 0) return ok({ version: 4, value: BigInt(v4) })
  if (looksLikeHostName(text)) {
    return fail(
      'not-an-ip',
      text,
      'it looks like a host name, not an IP address; expected IPv4 like 192.0.2.1 or IPv6 like 2001:db8::1',
    )
  }
  if (!text.includes('.') && !/^[0-9]+$/.test(text)) {
    return fail(
      'not-an-ip',
      text,
      'it is neither IPv4 (four dotted decimal octets like 192.0.2.1) nor IPv6 (hex groups separated by ":", like 2001:db8::1)',
    )
  }
  return fail('ipv4-syntax', text, explainIpv4(text, from, to) ?? 'not a dotted quad')
}

/**
 * A label that starts with a letter other than a-f (hex/octal typos) and has no
 * digits-only structure is a name: telling the caller "octet 1 contains l" would
 * miss the point.
 */
function looksLikeHostName(text: string): boolean {
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*\.?$/i.test(text) && /[g-wyz]/i.test(text)
}
