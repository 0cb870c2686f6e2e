import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DiagnoseData, HealthData } from '../../registry/email/schemas/report-data.ts'
import { MxData } from '../../registry/email/schemas/mx-data.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestCa } from '../support/certs.ts'
import { createTestCa } from '../support/certs.ts'
import type { FakeHttps } from '../support/fake-https.ts'
import { startFakeHttps } from '../support/fake-https.ts'
import type { FakeSmtp } from '../support/fake-smtp.ts'
import { startFakeSmtp } from '../support/fake-smtp.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'
import { BROKEN_POLICY, COVERING_POLICY, GOOD_POLICY, HTTPS_ADDRESS, HTTPS_DEAD, OTHER_ZONES, SMTP, brokenZone, goodZone, mtaStsZone } from './email-zones.ts'

// The whole path on real sockets: DNS from the loopback servers, STARTTLS to fake
// MX hosts through the guarded network, the MTA-STS policy over HTTPS on port 443
// with certificates from a CA made for this run.

let ca: TestCa
let dns: LoopbackDns
let smtp: FakeSmtp
let https: FakeHttps
let t: TestApp

beforeAll(async () => {
  ca = createTestCa()
  smtp = await startFakeSmtp([
    { address: SMTP.good1, hostname: 'mx1.good.test', tls: ca.issue(['mx1.good.test']) },
    { address: SMTP.good2, hostname: 'mx2.good.test', tls: ca.issue(['mx2.good.test']) },
    { address: SMTP.plain, hostname: 'mx.broken.test' },
    { address: SMTP.badTls, hostname: 'tlsbad.broken.test', tls: ca.selfSigned(['wrong.test']) },
    { address: SMTP.refuses, hostname: 'refuses.broken.test', tls: ca.issue(['refuses.broken.test']), refuseStarttls: true },
  ])
  https = await startFakeHttps({
    address: HTTPS_ADDRESS,
    port: 443,
    certificates: {
      'mta-sts.good.test': ca.issue(['mta-sts.good.test']),
      'mta-sts.broken.test': ca.issue(['mta-sts.broken.test']),
      ...Object.fromEntries(['sts404', 'stsredirect', 'stsnoid', 'stsbadid'].map((d) => [`mta-sts.${d}.test`, ca.issue([`mta-sts.${d}.test`])])),
      'policy.stsredirect.test': ca.issue(['policy.stsredirect.test']),
      // no certificate for mta-sts.stscert.test: the server answers with mta-sts.good.test's
    },
    routes: {
      'mta-sts.good.test/.well-known/mta-sts.txt': { body: GOOD_POLICY, headers: { 'content-type': 'text/plain; charset=utf-8' } },
      'mta-sts.broken.test/.well-known/mta-sts.txt': { body: BROKEN_POLICY, headers: { 'content-type': 'text/html' } },
      'mta-sts.stsredirect.test/.well-known/mta-sts.txt': { status: 301, headers: { location: 'https://policy.stsredirect.test/mta-sts.txt' }, body: '' },
      'policy.stsredirect.test/mta-sts.txt': { body: COVERING_POLICY },
      'mta-sts.stscert.test/.well-known/mta-sts.txt': { body: COVERING_POLICY },
      'mta-sts.stsnoid.test/.well-known/mta-sts.txt': { body: COVERING_POLICY },
      'mta-sts.stsbadid.test/.well-known/mta-sts.txt': { body: COVERING_POLICY },
      // mta-sts.sts404.test has no route: 404
    },
  })
  const stsZones = [
    mtaStsZone('stsdown.test', { record: 'v=STSv1; id=1', policyHost: HTTPS_DEAD }),
    mtaStsZone('sts404.test', { record: 'v=STSv1; id=1', policyHost: HTTPS_ADDRESS }),
    mtaStsZone('stsredirect.test', { record: 'v=STSv1; id=1', policyHost: HTTPS_ADDRESS, extra: `policy IN A ${HTTPS_ADDRESS}` }),
    mtaStsZone('stscert.test', { record: 'v=STSv1; id=1', policyHost: HTTPS_ADDRESS }),
    mtaStsZone('stsnoid.test', { record: 'v=STSv1;', policyHost: HTTPS_ADDRESS }),
    mtaStsZone('stsbadid.test', { record: 'v=STSv1; id=2026-01-01', policyHost: HTTPS_ADDRESS }),
  ]
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, goodZone(), brokenZone(), ...OTHER_ZONES, ...stsZones] })
  t = await startTestApp({
    ...dns.env,
    INFRALENS_DNS_TIMEOUT_MS: '1000',
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
    INFRALENS_SMTP_PORT: String(smtp.port),
    INFRALENS_EXTRA_CA_FILE: ca.caFile,
  })
}, 60_000)

afterAll(async () => {
  await t?.close()
  await Promise.all([dns?.close(), smtp?.close(), https?.close()])
  ca?.close()
})

const ids = (findings: Array<{ id: string }>) => findings.map((f) => f.id)

async function get(path: string) {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

describe('a well-configured domain', () => {
  it('diagnose: every part good, nothing worse than info', async () => {
    const d = await get('/api/email/diagnose/good.test')
    expect(DiagnoseData.safeParse(d).success).toBe(true)
    expect(d.findings.filter((f: { severity: string }) => f.severity !== 'info')).toEqual([])
    expect(d.score).toBeGreaterThanOrEqual(97)
    expect(d.grade).toBe('A+')
    for (const part of Object.values(d.parts) as Array<{ status: string; score: number }>) expect(part.status).toBe('good')

    expect(d.spf).toMatchObject({ verdict: 'valid', all: '-all', lookups: { count: 2, void_count: 0 } })
    expect(d.dmarc).toMatchObject({ status: 'found', applied_policy: 'reject' })
    const external = d.dmarc.report_destinations.find((x: { domain: string }) => x.domain === 'reports.test')
    expect(external).toMatchObject({ external: true, authorization: 'authorized', authorization_name: 'good.test._report._dmarc.reports.test' })
    expect(d.dkim.keys.find((k: { selector: string }) => k.selector === 'selector1')).toMatchObject({ status: 'found', public_key_type: 'rsa', key_bits: 2048, strength: 'strong' })

    expect(d.mx.records.map((r: { exchange: string }) => r.exchange)).toEqual(['mx1.good.test', 'mx2.good.test'])
    for (const r of d.mx.records) expect(r.reverse_dns[0]).toMatchObject({ fcrdns: true })

    for (const host of d.tls.hosts) {
      expect(host).toMatchObject({ status: 'ok', starttls: true, port: smtp.port })
      expect(host.tls).toMatchObject({ trusted: true, name_matches: true, protocol: 'TLSv1.3' })
      expect(host.tls.certificate.names).toEqual([host.host])
      expect(host.tls.certificate.issuer).toBe('infralens test CA')
    }
    expect(d.mta_sts.record).toMatchObject({ status: 'found', id: '20261122' })
    expect(d.mta_sts.policy).toMatchObject({ fetched: true, http_status: 200, mode: 'enforce', max_age: 604800, mx: ['*.good.test'], problems: [] })
    expect(d.mta_sts.mx_coverage).toEqual([
      { host: 'mx1.good.test', pattern: '*.good.test' },
      { host: 'mx2.good.test', pattern: '*.good.test' },
    ])
    expect(d.tls_rpt).toMatchObject({ status: 'found', rua: ['mailto:tlsrpt@good.test'] })
    expect(d.bimi).toMatchObject({ status: 'found', logo_url: 'https://good.test/logo.svg' })
    expect(ids(d.findings)).toContain('tls.ok')
  })

  it('the probe spoke SMTP and upgraded to TLS on each MX, and fetched the policy over HTTPS', async () => {
    const good = smtp.sessions.filter((s) => s.address === SMTP.good1)
    expect(good.length).toBeGreaterThan(0)
    expect(good[0]!.commands.map((c) => c.split(' ')[0])).toEqual(['EHLO', 'STARTTLS', 'EHLO', 'QUIT'])
    expect(good[0]!.tls).toBe(true)
    expect(https.requests).toContainEqual({ host: 'mta-sts.good.test', path: '/.well-known/mta-sts.txt' })
  })

  it('health: scored parts, and a cache hit the second time', async () => {
    const first = await t.json('/api/email/health?domain=good.test')
    expect(first.status).toBe(200)
    expect(HealthData.safeParse(first.body.data).success).toBe(true)
    expect(first.body.data.grade).toBe('A+')
    expect(Object.keys(first.body.data.parts)).toEqual(['spf', 'dmarc', 'dkim', 'mx', 'tls'])
    const again = await t.json('/api/email/health?domain=good.test')
    expect(again.body.meta.cache).toBe('hit')
  })
})

describe('a broken domain', () => {
  let d: any
  beforeAll(async () => {
    d = await get('/api/email/diagnose/broken.test')
  })

  it('validates against its schema and scores F', () => {
    expect(DiagnoseData.safeParse(d).success).toBe(true)
    expect(d.grade).toBe('F')
    expect(d.findings[0].severity).toBe('critical')
  })

  it('SPF: over both limits, ptr, ?all, text after all — and the tree is still there', () => {
    expect(ids(d.spf.findings)).toEqual(expect.arrayContaining(['spf.too_many_lookups', 'spf.too_many_void_lookups', 'spf.ptr', 'spf.neutral_all', 'spf.terms_after_all', 'spf.void_lookup']))
    expect(d.spf.verdict).toBe('permerror')
    // ptr, 3 a, include:l1 (5), include:l2 (6), 4 a (10), then l1's a is the 11th; l1 has no MX: a 4th void
    expect(d.spf.lookups).toMatchObject({ count: 12, over_limit: true, void_count: 4, first_over_limit: 'l1.broken.test: a' })
    expect(d.spf.tree.map((n: { domain: string; depth: number }) => `${n.depth}:${n.domain}`)).toEqual(['0:broken.test', '1:l1.broken.test', '2:l2.broken.test'])
    const ignored = d.spf.tree[0].terms.find((x: { raw: string }) => x.raw === 'ip4:198.51.100.7')
    expect(ignored.ignored).toBe(true)
  })

  it('DMARC: p=none, pct, unknown tag, unauthorized external reports', () => {
    expect(ids(d.dmarc.findings)).toEqual(expect.arrayContaining(['dmarc.policy_none', 'dmarc.pct_partial', 'dmarc.unknown_tag', 'dmarc.report_unauthorized']))
    expect(d.dmarc.report_destinations[0]).toMatchObject({ domain: 'thirdparty.test', external: true, authorization: 'unauthorized' })
  })

  it('DKIM: a 512-bit key is critical, a 1024-bit testing key is warned', () => {
    const byId = (id: string) => d.dkim.findings.filter((f: { id: string }) => f.id === id)
    expect(byId('dkim.weak_key')[0]).toMatchObject({ severity: 'critical' })
    expect(byId('dkim.weak_key')[0].message).toMatch(/^s1\._domainkey is a 512-bit/)
    expect(byId('dkim.short_key')[0]).toMatchObject({ severity: 'warning' })
    expect(byId('dkim.testing')).toHaveLength(1)
  })

  it('MX: CNAME target, missing and unconfirmed reverse DNS', () => {
    expect(ids(d.mx.findings)).toEqual(expect.arrayContaining(['mx.cname', 'mx.fcrdns', 'mx.no_ptr']))
    expect(d.mx.records.find((r: { exchange: string }) => r.exchange === 'alias.broken.test').cname_chain).toEqual(['mx.broken.test'])
  })

  it('STARTTLS: missing on one host, untrusted and misnamed on another, a dead host reported', () => {
    const host = (name: string) => d.tls.hosts.find((h: { host: string }) => h.host === name)
    expect(host('mx.broken.test')).toMatchObject({ status: 'no_starttls', starttls: false })
    expect(host('alias.broken.test')).toMatchObject({ status: 'no_starttls' })
    expect(host('tlsbad.broken.test')).toMatchObject({ status: 'ok', tls: { trusted: false, name_matches: false } })
    expect(host('tlsbad.broken.test').tls.certificate).toMatchObject({ self_signed: true, names: ['wrong.test'] })
    expect(host('dead.broken.test')).toMatchObject({ status: 'unreachable' })
    expect(host('refuses.broken.test')).toMatchObject({ status: 'tls_failed', starttls: true, error: expect.stringMatching(/^STARTTLS answered 454/) })
    expect(ids(d.tls.findings)).toEqual(expect.arrayContaining(['tls.no_starttls', 'tls.untrusted_certificate', 'tls.name_mismatch', 'tls.unreachable', 'tls.handshake_failed']))
  })

  it('MTA-STS: enforce over hosts it does not cover or that cannot do TLS, short max_age, wrong content type', () => {
    expect(d.mta_sts.mx_coverage.filter((c: { pattern: string | null }) => c.pattern === null).map((c: { host: string }) => c.host)).toEqual([
      'alias.broken.test',
      'tlsbad.broken.test',
      'dead.broken.test',
      'refuses.broken.test',
    ])
    const critical = d.findings.filter((f: { severity: string }) => f.severity === 'critical').map((f: { id: string }) => f.id)
    expect(critical).toEqual(expect.arrayContaining(['mta_sts.mx_not_covered', 'mta_sts.enforce_tls_broken']))
    expect(ids(d.mta_sts.findings)).toEqual(expect.arrayContaining(['mta_sts.max_age_short', 'mta_sts.policy_content_type']))
    expect(d.tls_rpt.findings[0]).toMatchObject({ id: 'tls_rpt.missing', severity: 'warning' })
    expect(d.bimi.findings[0]).toMatchObject({ id: 'bimi.missing', severity: 'info' })
  })

  it('findings are prioritized and ids stable', () => {
    const rank = { critical: 0, error: 1, warning: 2, info: 3 } as Record<string, number>
    const ranks = d.findings.map((f: { severity: string }) => rank[f.severity])
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks)
    for (const f of d.findings) expect(f.id).toMatch(/^(spf|dmarc|dkim|mx|tls|mta_sts|tls_rpt|bimi)\.[a-z0-9_]+$/)
  })
})

describe('MTA-STS policies that senders cannot use', () => {
  const mtaSts = async (domain: string) => (await get(`/api/email/diagnose/${domain}`)).mta_sts
  const only = (findings: Array<{ id: string; severity: string }>) => findings.map((f) => `${f.severity} ${f.id}`)

  it('policy host not answering on 443: mta_sts.policy_unreachable', async () => {
    const m = await mtaSts('stsdown.test')
    expect(m.policy).toMatchObject({ url: 'https://mta-sts.stsdown.test/.well-known/mta-sts.txt', fetched: false, http_status: null, mode: null })
    expect(only(m.findings)).toEqual(['error mta_sts.policy_unreachable'])
    expect(m.findings[0].message).toMatch(/ECONNREFUSED|refused/i)
    expect(m.mx_coverage).toEqual([])
  })

  it('HTTP 404: mta_sts.policy_http_error', async () => {
    const m = await mtaSts('sts404.test')
    expect(m.policy).toMatchObject({ fetched: true, http_status: 404, error: 'HTTP 404', mode: null })
    expect(only(m.findings)).toEqual(['error mta_sts.policy_http_error'])
  })

  it('a 301 is not followed (RFC 8461 §3.3): mta_sts.policy_redirect, and the target is never asked', async () => {
    const m = await mtaSts('stsredirect.test')
    expect(m.policy).toMatchObject({ fetched: true, http_status: 301, mode: null, error: expect.stringContaining('redirect to https://policy.stsredirect.test/mta-sts.txt') })
    expect(only(m.findings)).toEqual(['error mta_sts.policy_redirect'])
    expect(https.requests).toContainEqual({ host: 'mta-sts.stsredirect.test', path: '/.well-known/mta-sts.txt' })
    expect(https.requests.filter((r) => r.host === 'policy.stsredirect.test')).toEqual([])
  })

  it('a certificate that does not name mta-sts.<domain>: mta_sts.policy_certificate, no HTTP request made', async () => {
    const m = await mtaSts('stscert.test')
    expect(m.policy).toMatchObject({ fetched: false, error: expect.stringMatching(/does not match certificate's altnames/) })
    expect(only(m.findings)).toEqual(['error mta_sts.policy_certificate'])
    expect(m.findings[0].fix).toMatch(/certificate .* names mta-sts\.stscert\.test/)
    expect(https.requests.filter((r) => r.host === 'mta-sts.stscert.test')).toEqual([])
  })

  it.each([
    ['stsnoid.test', 'the id= tag is missing', null],
    ['stsbadid.test', 'id=2026-01-01 must be 1-32 letters or digits', '2026-01-01'],
  ])('%s: a TXT record senders ignore is mta_sts.record_invalid; the policy itself is fine', async (domain, error, id) => {
    const m = await mtaSts(domain)
    expect(m.record).toMatchObject({ status: 'invalid', id, error })
    expect(m.policy).toMatchObject({ fetched: true, http_status: 200, mode: 'enforce', problems: [] })
    expect(only(m.findings)).toEqual(['error mta_sts.record_invalid'])
    expect(m.findings[0].message).toContain(error)
  })
})

describe('MX endpoint', () => {
  it('sorts by preference and validates', async () => {
    const d = await get('/api/email/mx/broken.test')
    expect(MxData.safeParse(d).success).toBe(true)
    expect(d.records.map((r: { preference: number }) => r.preference)).toEqual([10, 20, 30, 40, 50])
  })
})
