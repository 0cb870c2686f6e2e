import { describe, expect, it } from 'vitest'
import { inspectDmarc } from '../../plugins/email/dmarc/dmarc-inspect.ts'
import { parseDmarc, parseReportUri } from '../../plugins/email/dmarc/dmarc-parse.ts'
import { organizationalDomain } from '../../plugins/email/org-domain.ts'
import type { ZoneData } from './rfc7208-zone.ts'
import { zoneDns } from './rfc7208-zone.ts'

describe('parseDmarc', () => {
  it.each([
    ['v=DMARC1; p=reject', { p: 'reject', sp: 'reject', np: 'reject', pct: 100, adkim: 'r', aspf: 'r' }, []],
    ['v=DMARC1;p=quarantine;sp=none;pct=25;adkim=s;aspf=s;fo=1:d;ri=3600', { p: 'quarantine', sp: 'none', np: 'none', pct: 25, adkim: 's', aspf: 's', fo: ['1', 'd'], ri: 3600 }, []],
    ['v=DMARC1; p=none; np=reject; psd=n; t=y', { p: 'none', sp: 'none', np: 'reject', psd: 'n', t: 'y' }, []],
    ['v=DMARC1; p=Reject', { p: 'reject' }, []],
    ['v=DMARC1; rua=mailto:d@example.com', { p: 'none' }, ['missing_p']],
    ['v=DMARC1; sp=reject', { p: null }, ['missing_p']],
    ['v=DMARC1; p=block', { p: null }, ['invalid_value']],
    ['v=DMARC1; p=none; pct=150', { pct: 100 }, ['invalid_value']],
    ['v=DMARC1; p=none; adkim=x', { adkim: 'r' }, ['invalid_value']],
    ['v=DMARC1; p=none; fo=2', { fo: ['0'] }, ['invalid_value']],
    ['v=DMARC1; p=none; p=reject', { p: 'none' }, ['duplicate']],
    ['v=DMARC1; p=none; foo=bar', { p: 'none' }, ['unknown_tag']],
    ['v=DMARC1; p=none; rua', { p: 'none' }, ['syntax']],
    ['v=dmarc1; p=none', { p: 'none' }, ['version']],
    ['p=none; v=DMARC1', { p: 'none' }, ['version']],
  ] as const)('%s', (record, policy, kinds) => {
    const parsed = parseDmarc(record)
    expect(parsed.policy).toMatchObject(policy)
    expect(parsed.problems.map((p) => p.kind)).toEqual(kinds)
  })

  it.each([
    ['mailto:dmarc@example.com', { scheme: 'mailto', address: 'dmarc@example.com', domain: 'example.com', size_limit: null, valid: true }],
    ['mailto:dmarc@example.com!10m', { address: 'dmarc@example.com', size_limit: '10m', valid: true }],
    ['mailto:dmarc%40x@example.com', { address: 'dmarc@x@example.com', domain: 'example.com' }],
    ['https://reports.example.com/dmarc', { scheme: 'https', valid: true, domain: null }],
    ['dmarc@example.com', { valid: false }],
    ['mailto:nobody', { valid: false }],
    ['mailto:a@example.com!big', { valid: false }],
  ] as const)('report URI %s', (uri, expected) => expect(parseReportUri(uri)).toMatchObject(expected))
})

describe('organizational domain (PSL)', () => {
  it.each([
    ['mail.example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['foo.github.io', 'foo.github.io'],
    ['x.foo.github.io', 'foo.github.io'],
    ['co.uk', 'co.uk'],
    ['host.infralens.test', 'infralens.test'],
  ])('%s -> %s', (domain, org) => expect(organizationalDomain(domain)).toBe(org))
})

describe('inspectDmarc', () => {
  const zone: ZoneData = {
    '_dmarc.example.com': [{ TXT: 'v=DMARC1; p=reject; sp=quarantine; rua=mailto:agg@example.com,mailto:x@vendor.example.net!5m; ruf=mailto:f@other.example.org' }],
    'example.com._report._dmarc.vendor.example.net': [{ TXT: 'v=DMARC1;' }],
    '_dmarc.split.example.com': [{ TXT: 'v=DMARC1; p=none' }, { TXT: 'v=DMARC1; p=reject' }],
    '_dmarc.mixed.example.com': [{ TXT: 'p=reject; v=DMARC1' }],
    '_dmarc.slow.example.com': ['TIMEOUT'],
  }

  it('on the domain itself: external destinations checked for authorization', async () => {
    const d = await inspectDmarc(zoneDns(zone), 'example.com')
    expect(d).toMatchObject({ status: 'found', source: 'domain', record_domain: 'example.com', applied_policy: 'reject', valid: true })
    expect(d.report_destinations.map((x) => [x.type, x.domain, x.external, x.authorization])).toEqual([
      ['rua', 'example.com', false, 'not_needed'],
      ['rua', 'vendor.example.net', true, 'authorized'],
      ['ruf', 'other.example.org', true, 'unauthorized'],
    ])
    expect(d.findings.find((f) => f.id === 'dmarc.report_unauthorized')?.message).toMatch(/example\.com\._report\._dmarc\.other\.example\.org/)
  })

  it('a subdomain without a record falls back to the organizational domain and gets sp=', async () => {
    const d = await inspectDmarc(zoneDns(zone), 'shop.example.com')
    expect(d).toMatchObject({ status: 'found', source: 'organizational_domain', record_domain: 'example.com', applied_policy: 'quarantine' })
    expect(d.findings.map((f) => f.id)).toContain('dmarc.inherited')
  })

  it('several records: no policy, no fallback', async () => {
    const d = await inspectDmarc(zoneDns(zone), 'split.example.com')
    expect(d).toMatchObject({ status: 'multiple', policy: null, applied_policy: null })
    expect(d.findings[0]).toMatchObject({ id: 'dmarc.multiple_records', severity: 'critical' })
  })

  it('a record not starting with v=DMARC1 is ignored and reported', async () => {
    const d = await inspectDmarc(zoneDns(zone), 'mixed.example.com')
    expect(d.source).toBe('organizational_domain')
    expect(d.findings.map((f) => f.id)).toContain('dmarc.version_not_first')
  })

  it('missing everywhere, and DNS failure', async () => {
    const none = await inspectDmarc(zoneDns({}), 'nothing.example')
    expect(none.findings[0]).toMatchObject({ id: 'dmarc.missing', severity: 'error' })
    const slow = await inspectDmarc(zoneDns(zone), 'slow.example.com')
    expect(slow).toMatchObject({ status: 'dns_error' })
  })

  it.each([
    ['v=DMARC1; p=none; rua=mailto:a@t.example', ['dmarc.policy_none'], 'warning'],
    ['v=DMARC1; p=reject; sp=none; rua=mailto:a@t.example', ['dmarc.subdomain_policy_weaker'], 'warning'],
    ['v=DMARC1; p=reject; pct=20; rua=mailto:a@t.example', ['dmarc.pct_partial'], 'warning'],
    ['v=DMARC1; p=reject', ['dmarc.no_rua'], 'warning'],
    ['v=DMARC1; p=reject; rua=https://r.example.com/', ['dmarc.report_uri_scheme'], 'warning'],
    ['v=DMARC1; p=reject; t=y; rua=mailto:a@t.example', ['dmarc.testing'], 'warning'],
    ['v=DMARC1; p=reject; fo=1; rua=mailto:a@t.example', ['dmarc.fo_without_ruf'], 'info'],
    ['v=DMARC1; p=reject; ri=3600; rua=mailto:a@t.example', ['dmarc.deprecated_tag'], 'info'],
  ] as const)('%s -> %s', async (record, expected, severity) => {
    const d = await inspectDmarc(zoneDns({ '_dmarc.t.example': [{ TXT: record }] }), 't.example')
    const worst = d.findings.filter((f) => f.severity !== 'info' || severity === 'info')
    expect(worst.map((f) => f.id)).toEqual(expected)
    expect(worst[0]!.severity).toBe(severity)
  })
})
