import { describe, expect, it } from 'vitest'
import { dotFormat, parseClientIp } from '../../plugins/email/spf/spf-ip.ts'
import type { MacroContext } from '../../plugins/email/spf/spf-macro.ts'
import { expandMacro, finishDomain, parseDomainSpec, parseMacroString, urlEscape } from '../../plugins/email/spf/spf-macro.ts'
import { isSpfRecord, parseSpf } from '../../plugins/email/spf/spf-parse.ts'

describe('record selection', () => {
  it.each([
    ['v=spf1', true],
    ['v=spf1 -all', true],
    ['V=SpF1 ~all', true],
    ['v=spf10 -all', false],
    ['v=spf1mx', false],
    [' v=spf1 -all', false],
    ['spf2.0/pra -all', false],
  ])('%j is an SPF record: %s', (text, expected) => expect(isSpfRecord(text)).toBe(expected))
})

describe('parseSpf', () => {
  it('parses every mechanism and modifier with qualifiers, targets and prefix lengths', () => {
    const r = parseSpf('v=spf1 +a -a:mail.example.com/24 ~mx//64 ?mx:example.net/28//96 ptr ptr:example.org ip4:192.0.2.0/24 ip6:2001:db8::/32 include:_spf.example.com exists:%{i}._spf.%{d} all redirect=_spf.example.net exp=explain.%{d} x-vendor=1')
    expect(r.errors).toEqual([])
    const m = r.mechanisms.map((t) => [t.qualifier, t.name, t.domainSpec ?? t.network, t.cidr4, t.cidr6])
    expect(m).toEqual([
      ['+', 'a', null, null, null],
      ['-', 'a', 'mail.example.com', 24, null],
      ['~', 'mx', null, null, 64],
      ['?', 'mx', 'example.net', 28, 96],
      ['+', 'ptr', null, null, null],
      ['+', 'ptr', 'example.org', null, null],
      ['+', 'ip4', '192.0.2.0', 24, null],
      ['+', 'ip6', '2001:db8::', null, 32],
      ['+', 'include', '_spf.example.com', null, null],
      ['+', 'exists', '%{i}._spf.%{d}', null, null],
      ['+', 'all', null, null, null],
    ])
    expect(r.redirect?.value).toBe('_spf.example.net')
    expect(r.exp?.value).toBe('explain.%{d}')
    expect(r.terms.at(-1)).toMatchObject({ kind: 'modifier', name: 'x-vendor', value: '1' })
  })

  it.each([
    ['v=spf1 ip4:1.2.3.4/33', /prefix length/],
    ['v=spf1 ip4:1.2.3.4/032', /prefix length/],
    ['v=spf1 ip4:1.2.3', /dotted-quad/],
    ['v=spf1 ip4:01.2.3.4', /dotted-quad/],
    ['v=spf1 ip6:2001:db8::/129', /prefix length/],
    ['v=spf1 ip6:::CAFE::BABE', /not an IPv6/],
    ['v=spf1 a:192.0.2.1', /top-level label/],
    ['v=spf1 include:example.com:25', /top-level label/],
    ['v=spf1 include:', /domain is empty/],
    ['v=spf1 exists', /needs a domain/],
    ['v=spf1 -all.', /unknown mechanism/],
    ['v=spf1 all:x', /takes no argument/],
    ['v=spf1 redirect:x.example.com', /modifier: write redirect=/],
    ['v=spf1 ptr/24', /no prefix length/],
    ['v=spf1 a:%{x}.example.com', /unknown macro letter/],
    ['v=spf1 a:%{c}.example.com', /only allowed in explanation/],
    ['v=spf1 exists:%(ir).example.com', /must be followed by/],
    ['v=spf1 a:%{d0}.example.com', /non-zero/],
    ['v=spf1 1up=x', /unknown mechanism/],
    ['v=spf1 exp=a.example.com exp=b.example.com', /at most once/],
    ['v=spf1 a -all\r', /non-ASCII or control/],
    ['v=spf1 include:\u00e9.example.com -all', /non-ASCII or control/],
  ])('%j is rejected (%s)', (record, message) => {
    const r = parseSpf(record)
    expect(r.errors.length).toBeGreaterThan(0)
    expect(r.errors.map((e) => e.message).join(' | ')).toMatch(message)
  })

  it('is case-insensitive in names and keeps extra spaces out of terms', () => {
    const r = parseSpf('v=spf1  IP4:192.0.2.1   Include:Example.COM  -ALL ')
    expect(r.errors).toEqual([])
    expect(r.mechanisms.map((m) => m.name)).toEqual(['ip4', 'include', 'all'])
  })
})

describe('macros (RFC 7208 §7.4 examples)', () => {
  const ctx = (ip: string): MacroContext => {
    const client = parseClientIp(ip)!
    return {
      sender: 'strong-bad@email.example.com',
      local: 'strong-bad',
      senderDomain: 'email.example.com',
      domain: 'email.example.com',
      ipDotted: dotFormat(client),
      ipReadable: client.address.toString(),
      ipVersion: client.version,
      helo: 'mx.example.org',
      receiver: 'unknown',
      now: 0,
      validatedName: async () => 'mx.example.org',
    }
  }
  const expand = async (text: string, ip = '192.0.2.3') => {
    const parsed = parseMacroString(text)
    if (!parsed.ok) throw new Error(parsed.error)
    return expandMacro(parsed.parts, ctx(ip))
  }

  it.each([
    ['%{s}', 'strong-bad@email.example.com'],
    ['%{o}', 'email.example.com'],
    ['%{d}', 'email.example.com'],
    ['%{d4}', 'email.example.com'],
    ['%{d3}', 'email.example.com'],
    ['%{d2}', 'example.com'],
    ['%{d1}', 'com'],
    ['%{dr}', 'com.example.email'],
    ['%{d2r}', 'example.email'],
    ['%{l}', 'strong-bad'],
    ['%{l-}', 'strong.bad'],
    ['%{lr}', 'strong-bad'],
    ['%{lr-}', 'bad.strong'],
    ['%{l1r-}', 'strong'],
    ['%{ir}.%{v}._spf.%{d2}', '3.2.0.192.in-addr._spf.example.com'],
    ['%{lr-}.lp._spf.%{d2}', 'bad.strong.lp._spf.example.com'],
    ['%{lr-}.lp.%{ir}.%{v}._spf.%{d2}', 'bad.strong.lp.3.2.0.192.in-addr._spf.example.com'],
    ['%{ir}.%{v}.%{l1r-}.lp._spf.%{d2}', '3.2.0.192.in-addr.strong.lp._spf.example.com'],
    ['%{d2}.trusted-domains.example.net', 'example.com.trusted-domains.example.net'],
    ['%{p}', 'mx.example.org'],
    ['a%%b%_c%-d', 'a%b c%20d'],
  ])('%s -> %s', async (text, expected) => expect(await expand(text)).toBe(expected))

  it('IPv6 in dot format', async () => {
    expect(await expand('%{ir}.%{v}._spf.%{d2}', '2001:db8::cb01')).toBe('1.0.b.c.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6._spf.example.com')
  })

  it('uppercase letters URL-escape everything outside the unreserved set', async () => {
    expect(urlEscape('~jack&jill=up-a_b3.c')).toBe('~jack%26jill%3Dup-a_b3.c')
    expect(await expand('%{S}')).toBe('strong-bad%40email.example.com')
  })

  it('domain-spec must end in a macro or a valid top label', () => {
    for (const ok of ['example.com', 'example.com.', '%{d}', '_spf.%{d2}', 'foo:bar/baz.example.com', 'x.xn--zckzah', '%{i}%%']) expect(parseDomainSpec(ok).ok, ok).toBe(true)
    for (const bad of ['museum', 'museum.', 'abc.123', 'example.-com', 'example.com:8080', '']) expect(parseDomainSpec(bad).ok, bad).toBe(false)
  })

  it('expanded names drop the trailing dot and are cut from the left to 253 characters', () => {
    expect(finishDomain('example.com.')).toBe('example.com')
    const long = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`
    const cut = finishDomain(long)
    expect(cut.length).toBeLessThanOrEqual(253)
    expect(cut.startsWith('b')).toBe(true)
  })
})
