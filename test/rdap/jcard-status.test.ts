import { describe, expect, it } from 'vitest'
import { describeStatus } from '../../plugins/rdap/epp-status.ts'
import { abuseEmailOf, parseJcard } from '../../plugins/rdap/jcard.ts'
import { parseAsn } from '../../runtime/params/asn.ts'
import { ageOf } from '../../plugins/domain/domain-age.ts'
import { compareNameservers } from '../../plugins/domain/nameserver-compare.ts'

describe('EPP / RDAP status values (RFC 8056)', () => {
  it('reads the RDAP spelling, the EPP spelling, and EPP with ICANN\'s URL', () => {
    expect(describeStatus('client transfer prohibited')).toMatchObject({ code: 'client transfer prohibited', epp: 'clientTransferProhibited' })
    expect(describeStatus('clientTransferProhibited')).toMatchObject({ code: 'client transfer prohibited', epp: 'clientTransferProhibited' })
    expect(describeStatus('clientTransferProhibited https://icann.org/epp#clientTransferProhibited')).toMatchObject({ code: 'client transfer prohibited' })
    expect(describeStatus('Server Hold')).toMatchObject({ code: 'server hold', epp: 'serverHold', meaning: expect.stringMatching(/does not resolve/) })
    expect(describeStatus('ok')).toMatchObject({ code: 'active', epp: 'ok' })
    expect(describeStatus('redemptionPeriod')).toMatchObject({ code: 'redemption period' })
    expect(describeStatus('associated')).toMatchObject({ epp: 'linked' })
  })
  it('keeps unknown values, without a meaning', () => {
    expect(describeStatus('Frozen By Court Order')).toEqual({ code: 'frozen by court order', epp: null, meaning: null })
  })
})

describe('jCard', () => {
  it('returns null for anything that is not a vcard', () => {
    expect(parseJcard(undefined)).toBeNull()
    expect(parseJcard(['vcard'])).toBeNull()
    expect(parseJcard(['notvcard', [['fn', {}, 'text', 'x']]])).toBeNull()
  })
  it('org as structured value, multi-valued types, duplicate emails, tel uri', () => {
    const c = parseJcard([
      'vcard',
      [
        ['version', {}, 'text', '4.0'],
        ['fn', {}, 'text', 'Joe'],
        ['org', {}, 'text', ['Example Inc.', 'Ops']],
        ['email', {}, 'text', 'a@example.com'],
        ['email', { pref: '1' }, 'text', 'a@example.com'],
        ['tel', { type: ['work', 'voice'] }, 'uri', 'tel:+1-555-0100;ext=7'],
        ['adr', {}, 'text', ['', '', ['1 Main St', 'Suite 2'], 'Town', '', '12345', 'US']],
        ['url', {}, 'uri', 'https://example.com'],
      ],
    ])
    expect(c).toEqual({
      name: 'Joe',
      organization: 'Example Inc., Ops',
      kind: null,
      emails: ['a@example.com'],
      phones: [{ number: '+1-555-0100;ext=7', types: ['work', 'voice'] }],
      address: ['1 Main St', 'Suite 2', 'Town', '12345', 'US'],
      url: 'https://example.com',
    })
  })
  it('picks the abuse mailbox: type=abuse, else lowest pref, else abuse@, else first', () => {
    const card = (...emails: Array<[Record<string, string>, string]>) => ['vcard', emails.map(([p, v]) => ['email', p, 'text', v])]
    expect(abuseEmailOf(card([{}, 'ops@x'], [{ type: 'abuse' }, 'report@x']))).toBe('report@x')
    expect(abuseEmailOf(card([{}, 'ops@x'], [{ pref: '2' }, 'b@x'], [{ pref: '1' }, 'a@x']))).toBe('a@x')
    expect(abuseEmailOf(card([{}, 'ops@x'], [{}, 'abuse@x']))).toBe('abuse@x')
    expect(abuseEmailOf(card([{}, 'ops@x']))).toBe('ops@x')
    expect(abuseEmailOf(card())).toBeNull()
  })
})

describe('ASN parameter', () => {
  it.each([
    ['AS13335', 13335],
    ['as13335', 13335],
    ['13335', 13335],
    [' AS0 ', 0],
    ['4294967295', 4294967295],
    ['1.10', 65546],
    ['AS65535.65535', 4294967295],
  ])('%s -> %i', (text, n) => expect(parseAsn(text)).toBe(n))
  it.each(['', 'AS', 'ASX', '4294967296', '-1', '1.65536', '13335a', 'AS 13335'])('%j is refused with a reason', (text) => {
    expect(typeof parseAsn(text)).toBe('string')
  })
})

describe('domain age', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  it('days and years since registration, days to expiry', () => {
    expect(ageOf('1997-09-15T04:00:00Z', '2028-09-14T04:00:00Z', now)).toEqual({ age_days: 10334, age_years: 28.29, days_to_expiry: 987, expired: false })
  })
  it('expired, unknown and not-quite-a-day', () => {
    expect(ageOf('2021-03-16T17:07:37Z', '2022-03-16T17:07:37Z', now)).toMatchObject({ expired: true, days_to_expiry: -1387 })
    expect(ageOf(null, null, now)).toEqual({ age_days: null, age_years: null, days_to_expiry: null, expired: null })
    expect(ageOf('2025-12-31T01:00:00Z', 'garbage', now)).toEqual({ age_days: 0, age_years: 0, days_to_expiry: null, expired: null })
  })
})

describe('name server comparison', () => {
  const reg = (...names: string[]) => names.map((name) => ({ name, unicode_name: null, handle: null, ipv4: [], ipv6: [] }))
  it('equal sets, compared case- and dot-insensitively', () => {
    expect(compareNameservers(reg('ns1.example', 'ns2.example'), ['NS2.Example.', 'ns1.example'])).toMatchObject({ in_sync: true, mismatch: false, only_in_registry: [], only_in_dns: [] })
  })
  it('differences on both sides are listed', () => {
    const c = compareNameservers(reg('a.example', 'b.example'), ['b.example', 'c.example'])
    expect(c).toMatchObject({ in_sync: false, mismatch: true, only_in_registry: ['a.example'], only_in_dns: ['c.example'] })
    expect(c.nameservers.map((n) => [n.name, n.in_registry, n.in_dns])).toEqual([
      ['a.example', true, false],
      ['b.example', true, true],
      ['c.example', false, true],
    ])
  })
  it('nothing to compare without a DNS answer', () => {
    expect(compareNameservers(reg('a.example'), null)).toMatchObject({ in_sync: null, mismatch: false, dns_nameservers: null, only_in_registry: [] })
    expect(compareNameservers(reg('a.example'), [])).toMatchObject({ in_sync: null, mismatch: false })
  })
})
