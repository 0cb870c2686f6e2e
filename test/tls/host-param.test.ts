import { describe, expect, it } from 'vitest'
import { parseTlsTarget } from '../../registry/tls/schemas/host-param.ts'

// The host parameter of the TLS endpoints: name[:port], IPv4[:port], [IPv6][:port],
// bare IPv6, and URLs pasted whole.

const ok = (input: string) => {
  const r = parseTlsTarget(input)
  if (!r.ok) throw new Error(`${input}: ${r.reason}`)
  return r.target
}
const reason = (input: string) => {
  const r = parseTlsTarget(input)
  if (r.ok) throw new Error(`${input} was accepted`)
  return r.reason
}

describe('parseTlsTarget', () => {
  it.each([
    ['example.com', { host: 'example.com', port: 443, kind: 'name', label: 'example.com:443', port_given: false }],
    ['Example.COM.', { host: 'example.com', port: 443, kind: 'name', label: 'example.com:443', port_given: false }],
    ['example.com:8443', { host: 'example.com', port: 8443, kind: 'name', label: 'example.com:8443', port_given: true }],
    ['https://user@example.com:8443/path?q=1#f', { host: 'example.com', port: 8443, kind: 'name', label: 'example.com:8443', port_given: true }],
    ['imaps://mail.example.com', { host: 'mail.example.com', port: 993, kind: 'name', label: 'mail.example.com:993', port_given: false }],
    ['bücher.example', { host: 'xn--bcher-kva.example', port: 443, kind: 'name', label: 'xn--bcher-kva.example:443', port_given: false }],
    ['192.0.2.1', { host: '192.0.2.1', port: 443, kind: 'ipv4', label: '192.0.2.1:443', port_given: false }],
    ['192.0.2.1:993', { host: '192.0.2.1', port: 993, kind: 'ipv4', label: '192.0.2.1:993', port_given: true }],
    ['[2001:DB8::1]', { host: '2001:db8::1', port: 443, kind: 'ipv6', label: '[2001:db8::1]:443', port_given: false }],
    ['[2001:db8:0:0::1]:8443', { host: '2001:db8::1', port: 8443, kind: 'ipv6', label: '[2001:db8::1]:8443', port_given: true }],
    ['2001:db8::1', { host: '2001:db8::1', port: 443, kind: 'ipv6', label: '[2001:db8::1]:443', port_given: false }],
    ['::1', { host: '::1', port: 443, kind: 'ipv6', label: '[::1]:443', port_given: false }],
    ['https://[::1]:4443/', { host: '::1', port: 4443, kind: 'ipv6', label: '[::1]:4443', port_given: true }],
  ])('%s', (input, expected) => {
    // port_given: a written port wins over a STARTTLS protocol's usual one (issue 24).
    expect(ok(input)).toEqual(expected)
  })

  it('rejects what cannot be a target, saying why', () => {
    expect(reason('')).toMatch(/empty/)
    expect(reason('example.com:0')).toMatch(/1 to 65535/)
    expect(reason('example.com:65536')).toMatch(/1 to 65535/)
    expect(reason('example.com:https')).toMatch(/invalid port/)
    expect(reason('[example.com]:443')).toMatch(/only IPv6/)
    expect(reason('[192.0.2.1]')).toMatch(/only IPv6/)
    expect(reason('2001:db8::1::2')).toMatch(/IPv6/)
    expect(reason('010.1.1.1')).toBeTruthy()
    expect(reason('256.1.1.1')).toBeTruthy()
    expect(reason('exa mple.com')).toMatch(/whitespace/)
    expect(reason('-bad-.example')).toMatch(/hyphen/)
  })
})
