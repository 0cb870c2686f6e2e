import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { whoisDate } from '../../plugins/whois/parse/dates.ts'
import { parseIanaAnswer } from '../../plugins/whois/parse/iana.ts'
import { parseWhoisRecord, referralHost } from '../../plugins/whois/parse/record.ts'
import { whoisText } from '../../plugins/whois/whois-text.ts'

// The WHOIS parser on real recorded answers of 14 registries with different
// layouts (test/fixtures/whois, sources in SOURCES.md there), each expected value
// read off the recording by hand; then properties: it never throws, whatever the
// text, and stays fast on huge or hostile input.

const FIXTURES = join(ROOT, 'test', 'fixtures', 'whois')
const fixture = (path: string) => whoisText(readFileSync(join(FIXTURES, path)))
const parse = (path: string) => parseWhoisRecord(fixture(path))
const names = (path: string) => parse(path).nameservers.map((n) => n.name)
const GOOGLE_NS = ['ns1.google.com', 'ns2.google.com', 'ns3.google.com', 'ns4.google.com']

describe('recorded registry answers', () => {
  it('DENIC (.de): "Key: value", no dates but Changed, status connect, no registrar on port 43', () => {
    const r = parse('whois.denic.de/google.de.txt')
    expect(r).toMatchObject({ kind: 'record', domain: 'google.de', created: null, expires: null, updated: '2018-03-12T20:44:25Z', status: ['connect'], registrar: { name: null } })
    expect(names('whois.denic.de/google.de.txt')).toEqual(GOOGLE_NS)
    expect(r.dnssec.signed).toBeNull()
  })

  it('DENIC (.de) with Dnskey lines: a signed delegation, the key parsed; [Tech-C] contacts do not leak into the domain', () => {
    const r = parse('whois.denic.de/web.de.txt')
    expect(r.dnssec.signed).toBe(true)
    expect(r.dnssec.keys).toEqual([{ flags: 257, protocol: 3, algorithm: 8, public_key: expect.stringMatching(/^AwEAAcBs30zgmOeYcUYzJetRzRYG.*=$/) }])
    expect(r.updated).toBe('2016-04-11T09:09:54Z') // the domain's Changed, not the contacts'
    expect(r.status).toEqual(['connect'])
  })

  it('DENIC (.de) "Status: free" is not found', () => {
    expect(parse('whois.denic.de/u34jedzcq.de.txt').kind).toBe('not_found')
  })

  it('Red.es (.es): indented sections under dashed rules, day/month/two-digit-year dates, numbered name servers', () => {
    const r = parse('whois.nic.es/google.es.txt')
    expect(r).toMatchObject({ kind: 'record', domain: 'google.es', created: '2003-09-16T00:00:00Z', expires: '2014-09-16T00:00:00Z', registrant: 'GOOGLE INC.' })
    expect(names('whois.nic.es/google.es.txt')).toEqual(['ns2.google.com', 'ns1.google.com'])
    expect(parse('whois.nic.es/not-found.txt').kind).toBe('not_found')
  })

  it('NIC.io (.io): the ICANN layout, names the registrar\'s WHOIS server', () => {
    const r = parse('whois.nic.io/google.io.txt')
    expect(r).toMatchObject({
      domain: 'google.io',
      handle: null, // "REDACTED"
      created: '2002-10-01T01:00:00Z',
      updated: '2025-09-03T10:36:12Z',
      expires: '2026-09-30T01:00:00Z',
      registrar: { name: 'MarkMonitor Inc.', iana_id: '292', whois_server: 'whois.markmonitor.com', abuse_email: 'abusecomplaints@markmonitor.com', abuse_phone: '+1.2083895740' },
      registrant: 'Google LLC',
      dnssec: { signed: false },
    })
    expect(r.status).toHaveLength(6)
    expect(r.status).toContain('serverTransferProhibited')
    expect(new Set(names('whois.nic.io/google.io.txt'))).toEqual(new Set(GOOGLE_NS))
  })

  it('MarkMonitor (registrar, google.io): offsets like -0700, "(https://...)" after statuses', () => {
    const r = parse('whois.markmonitor.com/google.io.txt')
    expect(r).toMatchObject({ created: '2002-10-01T01:00:00Z', updated: '2019-08-29T09:41:07Z', expires: '2020-09-29T07:00:00Z', registrant: 'Google LLC' })
    expect(r.status[0]).toBe('clientUpdateProhibited')
  })

  it('JPRS (.jp): [Bracketed] keys, y/m/d dates, a time in JST, an empty [Signing Key]', () => {
    const r = parse('whois.jprs.jp/google.jp.txt')
    expect(r).toMatchObject({ domain: 'google.jp', registrant: 'Google Inc.', created: '2005-05-30T00:00:00Z', expires: '2018-05-31T00:00:00Z', updated: '2017-05-31T16:05:09Z', status: ['Active'] })
    expect(r.dnssec.signed).toBe(false)
    expect(names('whois.jprs.jp/google.jp.txt')).toEqual(GOOGLE_NS)
  })

  it('CNNIC (.cn): Sponsoring Registrar, Registration/Expiration Time, UTF-8 names', () => {
    const r = parse('whois.cnnic.cn/google.cn.txt')
    expect(r).toMatchObject({ handle: '20030311s10001s00033735-cn', created: '2003-03-17T12:20:05Z', expires: '2027-03-17T12:48:36Z', dnssec: { signed: false } })
    expect(r.registrar.name).toBe('厦门易名科技股份有限公司')
    expect(r.registrant).toBe('北京谷翔信息技术有限公司')
    expect(r.status).toEqual(['clientDeleteProhibited', 'serverDeleteProhibited', 'serverUpdateProhibited', 'clientTransferProhibited', 'serverTransferProhibited'])
  })

  it('CIRA (.ca): "Registrar IANA ID: not applicable" is no id; the registry names itself as registrar server', () => {
    const r = parse('whois.cira.ca/google.ca.txt')
    expect(r).toMatchObject({ created: '2000-10-04T02:21:23Z', expires: '2027-04-28T04:00:00Z', registrar: { name: 'MarkMonitor International Canada Ltd.', iana_id: null, whois_server: 'whois.ca.fury.ca' } })
  })

  it('Nominet (.uk): CRLF lines, indented blocks under headers, dd-Mon-yyyy dates', () => {
    const r = parse('whois.nic.uk/google.uk.txt')
    expect(r).toMatchObject({
      domain: 'google.uk',
      registrar: { name: 'Markmonitor Inc. t/a MarkMonitor Inc. [Tag = MARKMONITOR]', url: 'http://www.markmonitor.com' },
      created: '2014-06-11T00:00:00Z',
      expires: '2020-06-11T00:00:00Z',
      updated: '2019-05-10T00:00:00Z',
      status: ['Registered until expiry date.'],
    })
    expect(names('whois.nic.uk/google.uk.txt')).toEqual(['ns1.googledomains.com', 'ns2.googledomains.com', 'ns3.googledomains.com', 'ns4.googledomains.com'])
  })

  it('AFNIC (.fr): RPSL-like objects; the contact objects\' dates and statuses stay theirs', () => {
    const r = parse('whois.nic.fr/google.fr.txt')
    expect(r).toMatchObject({ domain: 'google.fr', registrar: { name: 'MARKMONITOR Inc.' }, created: '2000-07-26T22:00:00Z', updated: '2025-12-03T10:12:00Z', expires: '2026-12-30T17:16:48Z' })
    expect(r.status).toEqual(['ACTIVE', 'serverUpdateProhibited', 'serverTransferProhibited', 'serverDeleteProhibited', 'serverRecoverProhibited'])
    expect(names('whois.nic.fr/google.fr.txt')).toEqual(GOOGLE_NS)
  })

  it('SIDN (.nl): the registrar as the first line under "Registrar:", "DNSSEC: no", no dates shown', () => {
    const r = parse('whois.domain-registry.nl/google.nl.txt')
    expect(r).toMatchObject({ domain: 'google.nl', registrar: { name: 'MarkMonitor Inc.' }, status: ['active'], created: null, expires: null, dnssec: { signed: false } })
    expect(names('whois.domain-registry.nl/google.nl.txt')).toEqual(GOOGLE_NS)
  })

  it('auDA (.au): "Last Modified", status reasons, no creation or expiry published', () => {
    const r = parse('whois.auda.org.au/google.com.au.txt')
    expect(r).toMatchObject({ domain: 'google.com.au', updated: '2026-05-01T21:20:13Z', created: null, expires: null, registrant: 'Google LLC', registrar: { name: 'MarkMonitor Corporate Services Inc' } })
    expect(r.status).toContain('serverRenewProhibited')
    expect(r.status).not.toContain('Registry Lock')
  })

  it('NIC.it (.it): bare section words with indented "Key: value" lines; the contacts\' Created stay theirs', () => {
    const r = parse('whois.nic.it/google.it.txt')
    expect(r).toMatchObject({
      domain: 'google.it',
      status: ['ok'],
      created: '1999-12-10T00:00:00Z',
      updated: '2019-05-07T01:04:50Z',
      expires: '2020-04-21T00:00:00Z',
      registrar: { name: 'MarkMonitor International Limited', url: 'https://www.markmonitor.com/' },
      registrant: 'Google Ireland Holdings Unlimited Company',
      dnssec: { signed: false },
    })
    expect(names('whois.nic.it/google.it.txt')).toEqual(GOOGLE_NS)
  })

  it('RIPN/TCI (.ru): lowercase keys, "state" as a comma list, paid-till, name servers with a trailing dot', () => {
    const r = parse('whois.tcinet.ru/google.ru.txt')
    expect(r).toMatchObject({ registrar: { name: 'RU-CENTER-RU' }, registrant: 'Google LLC', created: '2004-03-03T21:00:00Z', expires: '2020-03-04T21:00:00Z', status: ['REGISTERED', 'DELEGATED', 'VERIFIED'] })
    expect(names('whois.tcinet.ru/google.ru.txt')).toEqual(GOOGLE_NS)
  })

  it('DNS Belgium (.be): tab-separated, a weekday date, glue in parentheses one address a line', () => {
    const r = parse('whois.dns.be/register.be.txt')
    expect(r).toMatchObject({ domain: 'register.be', created: '2000-12-12T00:00:00Z', registrar: { name: 'Combell nv', url: 'https://www.combell.com' } })
    expect(r.status).toEqual(['NOT AVAILABLE', 'serverTransferProhibited'])
    expect(r.nameservers[0]).toEqual({ name: 'ns1.register.be', ipv4: ['86.39.202.67'], ipv6: ['2001:1598:0:101:0:0:0:3'] })
    expect(r.nameservers).toHaveLength(3)
  })

  it('Verisign (.com, thin) and MarkMonitor (its registrar): upper-case names, the referral to the registrar', () => {
    const registry = parse('whois.verisign-grs.com/google.com.txt')
    expect(registry).toMatchObject({ handle: '2138514_DOMAIN_COM-VRSN', created: '1997-09-15T04:00:00Z', expires: '2028-09-14T04:00:00Z', registrar: { whois_server: 'whois.markmonitor.com', iana_id: '292' } })
    expect(names('whois.verisign-grs.com/google.com.txt')).toEqual(GOOGLE_NS)
    expect(parse('whois.markmonitor.com/google.com.txt')).toMatchObject({ registrant: 'Google Inc.', expires: '2020-09-14T04:00:00Z' })
  })
})

describe('IANA answers', () => {
  it('the TLD server from "whois:" (and "refer:" in newer answers); none for an unassigned TLD; unknown strings are unknown', () => {
    expect(parseIanaAnswer(fixture('whois.iana.org/com.txt'))).toEqual({ known: true, server: 'whois.verisign-grs.com' })
    expect(parseIanaAnswer(fixture('whois.iana.org/be.txt'))).toEqual({ known: true, server: 'whois.dns.be' })
    expect(parseIanaAnswer(fixture('whois.iana.org/eh.txt'))).toEqual({ known: true, server: null })
    expect(parseIanaAnswer(fixture('whois.iana.org/u34jedzcq.int.txt'))).toEqual({ known: false, server: null })
    expect(parseIanaAnswer('refer:        whois.denic.de\n\ndomain:       DE\n\nwhois:        whois.denic.de\n').server).toBe('whois.denic.de')
  })
})

describe('dates', () => {
  it.each([
    ['2018-03-12T21:44:25+01:00', '2018-03-12T20:44:25Z'],
    ['2019-08-29T02:41:07-0700', '2019-08-29T09:41:07Z'],
    ['2025-12-03T10:12:00.351952Z', '2025-12-03T10:12:00Z'],
    ['2003-03-17 12:20:05', '2003-03-17T12:20:05Z'],
    ['2017/06/01 01:05:09 (JST)', '2017-05-31T16:05:09Z'],
    ['11-Jun-2014', '2014-06-11T00:00:00Z'],
    ['27-05-1999', '1999-05-27T00:00:00Z'],
    ['16/09/03', '2003-09-16T00:00:00Z'],
    ['Tue Dec 12 2000', '2000-12-12T00:00:00Z'],
    ['19970529 #44960', '1997-05-29T00:00:00Z'],
  ])('%s -> %s', (text, iso) => expect(whoisDate(text)).toBe(iso))

  it.each(['', 'before Aug-1996', '2019-02-31', 'REDACTED', '99/99/99', '2019-13-01T00:00:00Z', 'x'.repeat(10_000)])('%j is no date', (text) => expect(whoisDate(text)).toBeNull())
})

describe('referral hosts', () => {
  it.each([
    ['whois.markmonitor.com', 'whois.markmonitor.com'],
    ['WHOIS.MarkMonitor.com.', 'whois.markmonitor.com'],
    ['whois://whois.example.net:25/', 'whois.example.net'], // the port is never taken: port 43 or nothing
    ['rwhois://rwhois.example.net:4321', 'rwhois.example.net'],
    ['http://www.example.net/whois', null], // a web form, not a port-43 server
    ['not a host', null],
    ['', null],
  ])('%j -> %j', (value, host) => expect(referralHost(value)).toBe(host))
})

describe('properties', () => {
  const line = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.tuple(fc.constantFrom('Domain Name', 'Registrar', 'Creation Date', 'Name Server', 'Status', 'DNSSEC', '[Name Server]', 'nserver', 'Registrar WHOIS Server', '__proto__', 'constructor', 'Dnskey', 'ds-rdata'), fc.string({ maxLength: 80 })).map(([k, v]) => `${k}: ${v}`),
    fc.tuple(fc.nat({ max: 12 }), fc.string({ maxLength: 60 })).map(([n, v]) => `${' '.repeat(n)}${v}`),
  )
  const answer = fc.array(line, { maxLength: 80 }).map((lines) => lines.join(fc.sample(fc.constantFrom('\n', '\r\n', '\r'), 1)[0]))

  it('never throws, on any text; every date it returns is ISO UTC, every name server a host name', () => {
    fc.assert(
      fc.property(fc.oneof(answer, fc.string({ maxLength: 2000 }), fc.uint8Array({ maxLength: 2000 }).map((b) => whoisText(b))), (text) => {
        const r = parseWhoisRecord(text)
        for (const d of [r.created, r.updated, r.expires]) if (d !== null) expect(d).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
        for (const ns of r.nameservers) expect(ns.name).toMatch(/^[a-z0-9_.-]+$/)
        expect(Object.getPrototypeOf(r)).toBe(Object.prototype)
        parseIanaAnswer(text)
      }),
      { numRuns: 500 },
    )
  })

  it('bounded time on huge and hostile input (1 MB+ of long lines, deep indentation, colons)', () => {
    const inputs = [
      `Domain Name: x.de\n${'Name Server: ns1.example.com\n'.repeat(40_000)}`,
      ':'.repeat(1_000_000),
      `${' '.repeat(500_000)}a: b\n`.repeat(3),
      `${'a '.repeat(300_000)}:\n`.repeat(4),
      '[' + 'x'.repeat(1_000_000),
      Array.from({ length: 30_000 }, (_, i) => `${' '.repeat(i % 200)}Key${i}:`).join('\n'),
    ]
    for (const text of inputs) {
      const started = performance.now()
      parseWhoisRecord(text)
      parseIanaAnswer(text)
      expect(performance.now() - started).toBeLessThan(1500)
    }
  })

  it('control characters and invalid UTF-8 from a server become U+FFFD / Latin-1, never an error', () => {
    expect(whoisText(Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0x00, 0x42, 0x0a]))).toBe('A\uFFFDB\n')
    expect(whoisText(Buffer.from([0x4d, 0xfc, 0x6e, 0x63, 0x68, 0x65, 0x6e]))).toBe('München')
  })
})
