import fc from 'fast-check'
import { isIPv4, isIPv6 } from 'node:net'
import { describe, expect, it } from 'vitest'
import { formatIpv6 } from '../../runtime/ip/format.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { explainIpv4, scanIpv4 } from '../../runtime/ip/parse-ipv4.ts'
import { ipLikeText, ipv6Text, uint32, v4 } from './arbitraries.ts'

function reasonOf(text: string): string {
  const r = parseIp(text)
  if (r.ok) throw new Error(`${text} parsed`)
  expect(r.error.input).toBe(text)
  return r.error.reason
}

describe('IPv4 strict dotted quad', () => {
  it.each([
    ['0.0.0.0', 0n],
    ['255.255.255.255', 0xffffffffn],
    ['192.0.2.1', 0xc0000201n],
    ['10.0.0.255', 0x0a0000ffn],
    ['1.20.100.200', 0x011464c8n],
  ])('%s', (text, value) => {
    expect(parseIp(text)).toEqual({ ok: true, value: { version: 4, value } })
  })

  it.each([
    ['01.2.3.4', /octet 1 "01" has a leading zero; write it as 1/],
    ['1.2.3.00', /octet 4 "00" has a leading zero; write it as 0/],
    ['1.2.3', /it has 3 parts; an IPv4 address is exactly four decimal octets/],
    ['127.1', /it has 2 parts/],
    ['1.2.3.4.5', /it has 5 parts/],
    ['256.1.1.1', /^octet 1 is 256; each IPv4 octet must be 0-255$/],
    ['1.2.3.1000', /octet 4 is 1000; each IPv4 octet must be 0-255/],
    ['0x7f.0.0.1', /octet 1 "0x7f" is hexadecimal; only decimal octets are accepted/],
    ['0177.0.0.1', /octet 1 "0177" has a leading zero/],
    ['2130706433', /a bare number is not accepted.*2130706433 would be 127\.0\.0\.1/],
    ['99999999999', /a bare number is not accepted; write the address as four dotted decimal octets$/],
    ['1..2.3', /octet 2 is empty/],
    ['.1.2.3', /octet 1 is empty/],
    ['1.2.3.', /octet 4 is empty/],
    ['1.2.3.4 ', /leading or trailing whitespace/],
    [' 1.2.3.4', /leading or trailing whitespace/],
    ['1.2.3.-4', /octet 4 "-4" contains "-"/],
    ['1.2.3.4\u0000', /control character U\+0000/],
    ['１.2.3.4', /"１" \(U\+FF11\)/],
    ['localhost', /looks like a host name/],
    ['example.com', /looks like a host name/],
    ['bad', /neither IPv4 .* nor IPv6/],
    ['', /the address is empty/],
  ])('refuses %j: %s', (text, reason) => {
    expect(reasonOf(text)).toMatch(reason)
  })

  it('scanIpv4 and explainIpv4 agree on every input, and match net.isIPv4', () => {
    fc.assert(
      fc.property(fc.oneof(ipLikeText, fc.string({ maxLength: 16 }), uint32.map(v4)), (text) => {
        const scanned = scanIpv4(text, 0, text.length)
        const reason = explainIpv4(text)
        expect(scanned >= 0).toBe(reason === null)
        expect(scanned >= 0).toBe(isIPv4(text))
        if (scanned >= 0) expect(v4(scanned)).toBe(text)
      }),
      { numRuns: 5000 },
    )
  })

  it('round-trips every uint32', () => {
    fc.assert(
      fc.property(uint32, (n) => {
        expect(parseIp(v4(n))).toEqual({ ok: true, value: { version: 4, value: BigInt(n) } })
      }),
    )
  })
})

describe('IPv6', () => {
  it.each([
    ['::', 0n],
    ['::1', 1n],
    ['1::', 1n << 112n],
    ['2001:db8::1', 0x20010db8000000000000000000000001n],
    ['2001:DB8:0:0:0:0:0:1', 0x20010db8000000000000000000000001n],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', 0x20010db8000000000000000000000001n],
    ['1:2:3:4:5:6:7::', 0x00010002000300040005000600070000n],
    ['::2:3:4:5:6:7:8', 0x00000002000300040005000600070008n],
    ['1::8', 0x00010000000000000000000000000008n],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', (1n << 128n) - 1n],
    ['::ffff:1.2.3.4', 0xffff01020304n],
    ['::1.2.3.4', 0x01020304n],
    ['64:ff9b::192.0.2.33', 0x0064ff9b0000000000000000c0000221n],
    ['1:2:3:4:5:6:1.2.3.4', 0x00010002000300040005000601020304n],
    ['1::5:6:1.2.3.4', 0x00010000000000000005000601020304n],
    ['[::1]', 1n],
    ['[2001:db8::1]', 0x20010db8000000000000000000000001n],
  ])('%s', (text, value) => {
    expect(parseIp(text)).toEqual({ ok: true, value: { version: 6, value } })
  })

  it.each([
    ['1::2::3', /"::" appears more than once/],
    ['1:2:3:4:5:6:7::8', /"::" must stand for at least one zero group/],
    ['1:2:3:4:5:6:7:8:9', /more than 8 groups/],
    ['1:2:3:4:5:6:7', /it has 7 groups; an IPv6 address has 8 groups/],
    [':1::', /starts with a single ":"/],
    [':', /starts with a single ":"/],
    ['1::2:', /ends with a single ":"/],
    ['1:::2', /contains ":::"/],
    [':::', /contains ":::"/],
    ['12345::', /group 1 "12345" has 5 hex digits/],
    ['::g', /contains "g" in group 1/],
    ['2001:db8::1 ', /leading or trailing whitespace/],
    ['1.2.3.4::', /dotted IPv4 part may only appear at the end/],
    ['::1.2.3.4:5', /dotted IPv4 part may only appear at the end/],
    ['::1.2.3', /embedded IPv4 part "1.2.3" is invalid: it has 3 parts/],
    ['::ffff:01.2.3.4', /embedded IPv4 part "01.2.3.4" is invalid: octet 1 "01" has a leading zero/],
    ['1:2:3:4:5:6:7:1.2.3.4', /more than 8 groups/],
    ['fe80::1%eth0', /zone id "%eth0" is not accepted/],
    ['[::1', /opens with "\[" but does not end with "\]"/],
    ['::1]', /ends with "\]" but does not open with "\["/],
    ['[1.2.3.4]', /brackets are only used around IPv6/],
    ['1.2.3.4%eth0', /zone id only exists on IPv6/],
  ])('refuses %j: %s', (text, reason) => {
    expect(reasonOf(text)).toMatch(reason)
  })

  it('strips a zone id only when asked, and refuses an empty one', () => {
    expect(parseIp('fe80::1%eth0', { zone: 'strip' })).toEqual({
      ok: true,
      value: { version: 6, value: 0xfe800000000000000000000000000001n },
    })
    expect(parseIp('[fe80::1%25en0]', { zone: 'strip' }).ok).toBe(true)
    const empty = parseIp('fe80::1%', { zone: 'strip' })
    expect(empty.ok ? '' : empty.error.reason).toMatch(/zone id after "%" is empty/)
    const spaced = parseIp('fe80::1%a b', { zone: 'strip' })
    expect(spaced.ok ? '' : spaced.error.reason).toMatch(/may only contain letters, digits/)
  })

  it('reads every textual form of a value back to that value', () => {
    fc.assert(
      fc.property(ipv6Text, ({ value, text }) => {
        expect(parseIp(text)).toEqual({ ok: true, value: { version: 6, value } })
        expect(isIPv6(text)).toBe(true)
      }),
      { numRuns: 3000 },
    )
  })

  it('accepts exactly what net.isIPv6 accepts (zone ids aside)', () => {
    fc.assert(
      fc.property(fc.oneof(ipLikeText, ipv6Text.map((t) => t.text)), (text) => {
        const ours = parseIp(text, { zone: 'strip' })
        const zone = text.indexOf('%')
        // Node's zone syntax is the OS's; ours is RFC 3986 "unreserved" characters.
        if (zone >= 0 && !/^%[A-Za-z0-9_.~-]+$/.test(text.slice(zone))) {
          expect(ours.ok).toBe(false)
          return
        }
        expect(ours.ok && ours.value.version === 6).toBe(isIPv6(text))
      }),
      { numRuns: 5000 },
    )
  })

  it('parses RFC 5952 output back to the same value', () => {
    fc.assert(
      fc.property(ipv6Text, ({ value }) => {
        const text = formatIpv6(value)
        expect(parseIp(text)).toEqual({ ok: true, value: { version: 6, value } })
        expect(parseIp(formatIpv6(value, { mixed: true }))).toEqual({ ok: true, value: { version: 6, value } })
      }),
    )
  })
})

describe('error objects', () => {
  it('carry a code, the input verbatim and a reason for every failure', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const r = parseIp(text)
        if (r.ok) return
        expect(r.error.input).toBe(text)
        expect(r.error.reason.length).toBeGreaterThan(15)
        expect(r.error.code).toMatch(/^[a-z0-9-]+$/)
      }),
      { numRuns: 3000 },
    )
  })
})
