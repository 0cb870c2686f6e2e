import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { whoisDate } from '../../plugins/whois/parse/dates.ts'
import { parseIanaAnswer } from '../../plugins/whois/parse/iana.ts'
import { parseWhoisRecord, referralHost } from '../../plugins/whois/parse/record.ts'
import { whoisText } from '../../plugins/whois/whois-text.ts'

// The WHOIS parser on answers written for these tests, one or more per registry
// layout it reads (test/fixtures/whois-synthetic: not recordings, see the README
// there), each expected value read off the file by hand; on the maintainers' real
// recorded answers when ../shared/fixtures/whois has them (skipped, saying so,
// until it does); then properties: it never throws, whatever the text, and stays
// fast on huge or hostile input.

const FIXTURES = join(ROOT, 'test', 'fixtures', 'whois-synthetic')
const fixture = (path: string) => whoisText(readFileSync(join(FIXTURES, path)))
const parse = (path: string) => parseWhoisRecord(fixture(path))
const names = (path: string) => parse(path).nameservers.map((n) => n.name)
const EXAMPLE_NS = ['ns1.example.net', 'ns2.example.net', 'ns3.example.org', 'ns4.example.org']

describe('synthetic answers in each registry layout', () => {
  it('DENIC layout (.de): "Key: value", no dates but Changed, status connect, no registrar on port 43', () => {
    const r = parse('whois.denic.de/example.de.txt')
    expect(r).toMatchObject({ kind: 'record', domain: 'example.de', created: null, expires: null, updated: '2024-03-12T20:44:25Z', status: ['connect'], registrar: { name: null } })
    expect(names('whois.denic.de/example.de.txt')).toEqual(EXAMPLE_NS)
    expect(r.dnssec.signed).toBeNull()
  })

  it('DENIC layout with Dnskey lines and glue: a signed delegation, the key parsed, the addresses kept; [Tech-C]/[Zone-C] contacts do not leak into the domain', () => {
    const r = parse('whois.denic.de/example-signed.de.txt')
    expect(r.dnssec.signed).toBe(true)
    expect(r.dnssec.keys).toEqual([{ flags: 257, protocol: 3, algorithm: 13, public_key: expect.stringMatching(/^CzTQkms8\/czz3WTCe8wk3.*1Q==$/) }])
    expect(r.updated).toBe('2023-04-11T09:09:54Z') // the domain's Changed, not the contacts' (2021, 2020)
    expect(r.status).toEqual(['connect'])
    expect(r.nameservers).toEqual([
      { name: 'ns1.example-signed.de', ipv4: ['192.0.2.53'], ipv6: ['2001:db8:0:0:0:0:0:53'] },
      { name: 'ns2.example.net', ipv4: [], ipv6: [] },
    ])
  })

  it('DENIC layout "Status: free" and DNS Belgium layout "Status: AVAILABLE" are not found', () => {
    expect(parse('whois.denic.de/not-found.txt').kind).toBe('not_found')
    expect(parse('whois.dns.be/not-found.txt').kind).toBe('not_found')
  })

  it('Red.es layout (.es): indented sections under dashed rules, day/month/two-digit-year dates, numbered name servers in their order', () => {
    const r = parse('whois.nic.es/example.es.txt')
    expect(r).toMatchObject({ kind: 'record', domain: 'example.es', created: '2001-02-14T00:00:00Z', expires: '2032-02-14T00:00:00Z', updated: null, registrant: 'EJEMPLO ESPANA S.L.' })
    expect(names('whois.nic.es/example.es.txt')).toEqual(['ns2.example.net', 'ns1.example.net'])
    expect(parse('whois.nic.es/not-found.txt').kind).toBe('not_found')
  })

  it('ICANN layout of a thin registry (.io): names the registrar\'s WHOIS server; REDACTED values are no values', () => {
    const r = parse('whois.nic.io/example.io.txt')
    expect(r).toMatchObject({
      kind: 'record',
      domain: 'example.io',
      handle: null, // "REDACTED"
      created: '2002-10-01T01:00:00Z',
      updated: '2025-09-03T10:36:12Z',
      expires: '2032-09-30T01:00:00Z',
      registrar: { name: 'Example Registrar, Inc.', iana_id: '4242', url: 'https://www.registrar.example', whois_server: 'whois.registrar.example', abuse_email: 'abuse@registrar.example', abuse_phone: '+1.5555550100' },
      registrant: null, // "REDACTED FOR PRIVACY": the registrar's answer has the holder
      dnssec: { signed: false },
    })
    expect(r.status).toEqual(['clientDeleteProhibited', 'clientTransferProhibited', 'clientUpdateProhibited', 'serverDeleteProhibited', 'serverTransferProhibited', 'serverUpdateProhibited'])
    expect(names('whois.nic.io/example.io.txt')).toEqual(['ns2.example.net', 'ns1.example.net', 'ns3.example.org', 'ns4.example.org'])
  })

  it('a registrar\'s answer for the referral hop (.io): offsets like -0700, "(https://...)" after statuses, the holder\'s organization', () => {
    const r = parse('whois.registrar.example/example.io.txt')
    expect(r).toMatchObject({ created: '2002-10-01T01:00:00Z', updated: '2025-08-29T09:41:07Z', expires: '2031-09-30T00:00:00Z', registrant: 'Example Holdings Ltd', registrar: { whois_server: 'whois.registrar.example' } })
    expect(r.status).toEqual(['clientUpdateProhibited', 'clientTransferProhibited', 'clientDeleteProhibited'])
  })

  it('JPRS layout (.jp): [Bracketed] keys, y/m/d dates, a time in JST, an empty [Signing Key]', () => {
    const r = parse('whois.jprs.jp/example.jp.txt')
    expect(r).toMatchObject({ domain: 'example.jp', registrant: 'Example Japan K.K.', created: '2005-05-30T00:00:00Z', expires: '2032-05-31T00:00:00Z', updated: '2025-05-31T16:05:09Z', status: ['Active'] })
    expect(r.dnssec.signed).toBe(false)
    expect(names('whois.jprs.jp/example.jp.txt')).toEqual(EXAMPLE_NS.slice(0, 3))
  })

  it('CNNIC layout (.cn): ROID, Sponsoring Registrar, Registration/Expiration Time, UTF-8 names', () => {
    const r = parse('whois.cnnic.cn/example.cn.txt')
    expect(r).toMatchObject({ handle: '20030312s10001s00012345-cn', created: '2003-03-17T12:20:05Z', expires: '2032-03-17T12:48:36Z', dnssec: { signed: false } })
    expect(r.registrar.name).toBe('示例域名注册服务有限公司')
    expect(r.registrant).toBe('示例网络科技有限公司')
    expect(r.status).toEqual(['clientDeleteProhibited', 'serverDeleteProhibited', 'serverUpdateProhibited', 'clientTransferProhibited', 'serverTransferProhibited'])
  })

  it('CIRA layout (.ca): "Registrar IANA ID: not applicable" is no id; the registry names itself as registrar server', () => {
    const r = parse('whois.cira.ca/example.ca.txt')
    expect(r).toMatchObject({ created: '2000-10-04T02:21:23Z', expires: '2032-04-28T04:00:00Z', registrant: 'Example Canada Inc.', registrar: { name: 'Example Registrar Canada Inc.', iana_id: null, whois_server: 'whois.cira.ca' } })
  })

  it('Nominet layout (.uk): CRLF lines, indented blocks under headers, dd-Mon-yyyy dates', () => {
    expect(fixture('whois.nic.uk/example.uk.txt')).toContain('\r\n')
    const r = parse('whois.nic.uk/example.uk.txt')
    expect(r).toMatchObject({
      domain: 'example.uk',
      registrar: { name: 'Example Registrar Ltd [Tag = EXAMPLE-REGISTRAR]', url: 'https://www.registrar.example' },
      created: '2014-06-11T00:00:00Z',
      expires: '2032-06-11T00:00:00Z',
      updated: '2025-05-10T00:00:00Z',
      status: ['Registered until expiry date.'],
    })
    expect(names('whois.nic.uk/example.uk.txt')).toEqual(EXAMPLE_NS)
  })

  it('AFNIC layout (.fr): RPSL-like objects; the registrar\'s and contacts\' dates and statuses stay theirs', () => {
    const r = parse('whois.nic.fr/example.fr.txt')
    expect(r).toMatchObject({ domain: 'example.fr', registrar: { name: 'EXEMPLE REGISTRAR SAS' }, created: '2000-07-26T22:00:00Z', updated: '2025-12-03T10:12:00Z', expires: '2032-12-30T17:16:48Z' })
    // The contacts' "eppstatus: associated" / "linked" are after the first contact object.
    expect(r.status).toEqual(['ACTIVE', 'serverUpdateProhibited', 'serverTransferProhibited', 'serverDeleteProhibited'])
    expect(names('whois.nic.fr/example.fr.txt')).toEqual(EXAMPLE_NS)
  })

  it('SIDN layout (.nl): CRLF lines, the registrar as the first line under "Registrar:", "DNSSEC: no", no dates shown', () => {
    expect(fixture('whois.domain-registry.nl/example.nl.txt')).toContain('\r\n')
    const r = parse('whois.domain-registry.nl/example.nl.txt')
    expect(r).toMatchObject({ domain: 'example.nl', registrar: { name: 'Voorbeeld Registrar B.V.' }, status: ['active'], created: null, expires: null, dnssec: { signed: false } })
    expect(names('whois.domain-registry.nl/example.nl.txt')).toEqual(EXAMPLE_NS.slice(0, 3))
  })

  it('auDA layout (.au): "Last Modified", "Registrar Name", a status reason that is no status, no creation or expiry published', () => {
    const r = parse('whois.auda.org.au/example.com.au.txt')
    expect(r).toMatchObject({ domain: 'example.com.au', updated: '2025-05-01T21:20:13Z', created: null, expires: null, registrant: 'Example Pty Ltd', registrar: { name: 'Example Registrar Pty Ltd', whois_server: 'whois.auda.org.au' } })
    expect(r.status).toEqual(['serverDeleteProhibited', 'serverRenewProhibited', 'serverTransferProhibited', 'serverUpdateProhibited'])
    expect(r.status).not.toContain('Registry Lock')
  })

  it('NIC.it layout (.it): bare section words with indented "Key: value" lines; the contacts\' Created and Last Update stay theirs', () => {
    const r = parse('whois.nic.it/example.it.txt')
    expect(r).toMatchObject({
      domain: 'example.it',
      status: ['ok'],
      created: '1999-12-10T00:00:00Z',
      updated: '2025-05-07T01:04:50Z',
      expires: '2032-04-21T00:00:00Z',
      registrar: { name: 'Esempio Registrar S.p.A.', url: 'https://www.registrar.example/' },
      registrant: 'Esempio S.r.l.',
      dnssec: { signed: false },
    })
    expect(names('whois.nic.it/example.it.txt')).toEqual(EXAMPLE_NS.slice(0, 3))
  })

  it('RIPN/TCI layout (.ru): lowercase keys, "state" as a comma list, paid-till, name servers with a trailing dot', () => {
    const r = parse('whois.tcinet.ru/example.ru.txt')
    expect(r).toMatchObject({ domain: 'example.ru', registrar: { name: 'EXAMPLE-REG-RU' }, registrant: 'Example LLC', created: '2004-03-03T21:00:00Z', expires: '2032-03-04T21:00:00Z', status: ['REGISTERED', 'DELEGATED', 'VERIFIED'] })
    expect(names('whois.tcinet.ru/example.ru.txt')).toEqual(EXAMPLE_NS.slice(0, 2))
  })

  it('DNS Belgium layout (.be): tab-separated, a weekday date, glue in parentheses one address a line, "Not shown" is no holder', () => {
    const r = parse('whois.dns.be/example.be.txt')
    expect(r).toMatchObject({ domain: 'example.be', created: '2000-12-12T00:00:00Z', registrant: null, registrar: { name: 'Voorbeeld Registrar NV', url: 'https://www.registrar.example' } })
    expect(r.status).toEqual(['NOT AVAILABLE', 'serverTransferProhibited'])
    expect(r.nameservers[0]).toEqual({ name: 'ns1.example.be', ipv4: ['192.0.2.10'], ipv6: ['2001:db8:0:0:0:0:0:10'] })
    expect(r.nameservers).toHaveLength(3)
  })

  it('a thin .com registry and the registrar it names: upper-case names, signedDelegation, the referral; "No match for" is not found', () => {
    const registry = parse('whois.verisign-grs.com/example.com.txt')
    expect(registry).toMatchObject({
      domain: 'example.com',
      handle: '1234567890_DOMAIN_COM-VRSN',
      created: '1997-03-01T05:00:00Z',
      expires: '2032-03-01T05:00:00Z',
      registrant: null,
      registrar: { whois_server: 'whois.registrar.example', iana_id: '4242' },
      dnssec: { signed: true },
    })
    expect(names('whois.verisign-grs.com/example.com.txt')).toEqual(EXAMPLE_NS.slice(0, 2))
    expect(parse('whois.registrar.example/example.com.txt')).toMatchObject({ registrant: 'Example Corporation', expires: '2032-02-28T08:00:00Z' })
    expect(parse('whois.verisign-grs.com/not-found.txt').kind).toBe('not_found')
  })
})

describe('answer kinds and DNSSEC data (inline answers)', () => {
  it('refusals (rate limits, access lists) are "refused"; a record mentioning limits in its terms is still a record', () => {
    expect(parseWhoisRecord('% Query rate limit exceeded. Try again later.\n').kind).toBe('refused')
    expect(parseWhoisRecord('Access will only be enabled for IP addresses the registry has authorised.\n').kind).toBe('refused')
    expect(parseWhoisRecord('Domain Name: example.io\nRegistrar: Example Registrar, Inc.\n\nToo many queries from one address are throttled.\n').kind).toBe('record')
    expect(parseWhoisRecord('the queried object does not exist: example.cn\n').kind).toBe('not_found')
  })

  it('DS records are parsed; "unsigned" is false, a missing DNSSEC line null', () => {
    const r = parseWhoisRecord('domain: example.se\nds-rdata: 12345 13 2 1ff56ef77b0213cc7877e7955c79f40c6bf04588a8cc7b11ee24836382ccc7b9\nnserver: ns1.example.net\n')
    expect(r.dnssec).toEqual({ signed: true, keys: [], ds: [{ key_tag: 12345, algorithm: 13, digest_type: 2, digest: '1FF56EF77B0213CC7877E7955C79F40C6BF04588A8CC7B11EE24836382CCC7B9' }] })
    expect(parseWhoisRecord('Domain Name: example.io\nDNSSEC: unsigned\nName Server: ns1.example.net\n').dnssec.signed).toBe(false)
  })
})

describe('IANA answers', () => {
  it('the TLD server from "refer:"/"whois:" (newer layout) and "whois:" alone (older); none for a TLD without one; unknown strings are unknown', () => {
    expect(parseIanaAnswer(fixture('whois.iana.org/de.txt'))).toEqual({ known: true, server: 'whois.denic.de' })
    expect(parseIanaAnswer(fixture('whois.iana.org/com.txt'))).toEqual({ known: true, server: 'whois.verisign-grs.com' })
    expect(parseIanaAnswer(fixture('whois.iana.org/eh.txt'))).toEqual({ known: true, server: null })
    expect(parseIanaAnswer(fixture('whois.iana.org/not-a-tld.txt'))).toEqual({ known: false, server: null })
    // An empty "whois:" names no server; "refer:" wins over "whois:".
    expect(parseIanaAnswer('domain:       EXAMPLE\n\nwhois:\n\nstatus:       ACTIVE\n')).toEqual({ known: true, server: null })
    expect(parseIanaAnswer('refer:        whois.nic.example\n\ndomain:       EXAMPLE\n\nwhois:        whois.old.example\n').server).toBe('whois.nic.example')
  })
})

// The maintainers' real recorded answers, when they are there: shared/fixtures/whois
// beside this checkout, with a SOURCES.md whose table names each file and what it is
// (format: test/fixtures/whois-synthetic/README.md). The check is generic: every
// file parses without throwing, and each answer the table lists yields what its
// "answer" column says (a record with a registrar or name servers, a not-found or
// refused verdict, an IANA TLD object or IANA's "0 objects").

const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'whois')
const SHARED_SOURCES = join(SHARED, 'SOURCES.md')
const SHARED_READY = existsSync(SHARED_SOURCES)
const NOT_YET = "skipped: the maintainers' recorded WHOIS answers are not there yet (../shared/fixtures/whois/SOURCES.md is missing; see test/fixtures/whois-synthetic/README.md)"

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesUnder(path)
    return /\.md$|^LICENSE|^COPYING/i.test(name) ? [] : [path]
  })
}

interface SourceRow {
  file: string
  answer: string | null
}

/** The rows of SOURCES.md's table(s): the first column naming a file, and the "answer" column when there is one. */
function sourceRows(markdown: string): SourceRow[] {
  const rows: SourceRow[] = []
  let fileCol = -1
  let answerCol = -1
  for (const line of markdown.split(/\r?\n/)) {
    if (!line.trim().startsWith('|')) {
      fileCol = -1
      continue
    }
    const cells = line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim().replace(/^`|`$/g, ''))
    if (fileCol === -1) {
      fileCol = cells.findIndex((c) => /file|path/i.test(c))
      answerCol = cells.findIndex((c) => /^(answer|kind|expect)/i.test(c))
      continue
    }
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue
    const file = cells[fileCol]
    if (file) rows.push({ file, answer: answerCol === -1 ? null : (cells[answerCol]?.toLowerCase().replace(/[\s-]+/g, '_') ?? null) })
  }
  return rows
}

/** What is wrong with one listed answer, or null. */
function sharedProblem(row: SourceRow): string | null {
  const path = join(SHARED, row.file)
  if (!existsSync(path)) return `${row.file}: listed in SOURCES.md, not in the folder`
  const text = whoisText(readFileSync(path))
  const iana = row.answer?.startsWith('iana') ?? row.file.startsWith('whois.iana.org/')
  if (iana) {
    const r = parseIanaAnswer(text)
    if (row.answer === 'iana_unknown') return r.known ? `${row.file}: IANA's "0 objects" expected, read a TLD object` : null
    return r.known ? null : `${row.file}: an IANA TLD object expected, read "unknown"`
  }
  const r = parseWhoisRecord(text)
  const extracted = r.registrar.name !== null || r.nameservers.length > 0
  switch (row.answer) {
    case 'not_found':
    case 'refused':
      return r.kind === row.answer ? null : `${row.file}: ${row.answer} expected, read ${r.kind}`
    case 'record':
      return r.kind === 'record' && extracted ? null : `${row.file}: a record with a registrar or name servers expected, read ${r.kind} with neither`
    default:
      // No (known) answer column: a record with something in it, or a verdict.
      return r.kind !== 'record' || extracted ? null : `${row.file}: a record with neither a registrar nor name servers`
  }
}

describe('real recorded answers (../shared/fixtures/whois)', () => {
  it.skipIf(!SHARED_READY)(SHARED_READY ? 'every file there parses without throwing, as a record and as an IANA answer' : NOT_YET, () => {
    const files = filesUnder(SHARED)
    expect(files.length).toBeGreaterThan(0)
    for (const path of files) {
      const text = whoisText(readFileSync(path))
      const r = parseWhoisRecord(text)
      for (const d of [r.created, r.updated, r.expires]) if (d !== null) expect(d, relative(SHARED, path)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
      parseIanaAnswer(text)
    }
  })

  it.skipIf(!SHARED_READY)(SHARED_READY ? 'each answer SOURCES.md lists yields what its table says it is' : NOT_YET, () => {
    const rows = sourceRows(readFileSync(SHARED_SOURCES, 'utf8'))
    expect(rows.length, 'SOURCES.md has no table naming the recorded files').toBeGreaterThan(0)
    expect(rows.map(sharedProblem).filter((p) => p !== null)).toEqual([])
  })
})

describe('dates', () => {
  it.each([
    ['2024-03-12T21:44:25+01:00', '2024-03-12T20:44:25Z'],
    ['2025-08-29T02:41:07-0700', '2025-08-29T09:41:07Z'],
    ['2025-12-03T10:12:00.351952Z', '2025-12-03T10:12:00Z'],
    ['2003-03-17 12:20:05', '2003-03-17T12:20:05Z'],
    ['2025/06/01 01:05:09 (JST)', '2025-05-31T16:05:09Z'],
    ['11-Jun-2014', '2014-06-11T00:00:00Z'],
    ['27-05-1999', '1999-05-27T00:00:00Z'],
    ['14/02/01', '2001-02-14T00:00:00Z'],
    ['Tue Dec 12 2000', '2000-12-12T00:00:00Z'],
    ['19970529 #44960', '1997-05-29T00:00:00Z'],
  ])('%s -> %s', (text, iso) => expect(whoisDate(text)).toBe(iso))

  it.each(['', 'before Aug-1996', '2019-02-31', 'REDACTED', '99/99/99', '2019-13-01T00:00:00Z', 'x'.repeat(10_000)])('%j is no date', (text) => expect(whoisDate(text)).toBeNull())
})

describe('referral hosts', () => {
  it.each([
    ['whois.registrar.example', 'whois.registrar.example'],
    ['WHOIS.Registrar.Example.', 'whois.registrar.example'],
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
