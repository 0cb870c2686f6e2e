import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_SEVERITY } from '../../plugins/report/findings.ts'
import { SEVERITIES } from '../../registry/flagship/schemas/report-findings.ts'
import { PARTIAL_TTL } from '../../plugins/report/report.ts'
import { ReportData } from '../../registry/flagship/schemas/report-data.ts'
import type { ReportWorld } from './report-world.ts'
import { startReportWorld } from './report-world.ts'

// /api/report end to end on the loopback internet (report-world.ts): every part
// is the real endpoint asked through ctx.invoke, against real DNS, SMTP, HTTPS
// and RDAP fakes. DNSSEC is indeterminate throughout: the loopback resolver has
// no signed root to validate from (its verdicts are tested in test/dnssec).

let w: ReportWorld
beforeAll(async () => {
  w = await startReportWorld()
}, 60_000)
afterAll(() => w?.close())

type Finding = { area: string; id: string; severity: string; message: string; fix: string | null }
type AreaName = 'dns' | 'delegation' | 'dnssec' | 'email' | 'tls' | 'web' | 'registration' | 'network' | 'issuance'
type Area = { status: string; score: number | null; grade: string | null; summary: string | null; reason: string | null; error: { code: string; message: string; upstream: string | null } | null; findings: number; sources: Array<Record<string, unknown>> }

async function report(domain: string) {
  const res = await w.t.json(`/api/report/${domain}?port=${w.port}`)
  expect(res.status, JSON.stringify(res.body).slice(0, 600)).toBe(200)
  expect(ReportData.safeParse(res.body.data).error).toBeUndefined()
  return { ...res, data: res.body.data as Record<string, any> & { areas: Record<AreaName, Area>; findings: Finding[] } }
}

const rank = (severity: string) => SEVERITIES.indexOf(severity as (typeof SEVERITIES)[number])
const maxAge = (headers: Headers) => Number(/max-age=(\d+)/.exec(headers.get('cache-control') ?? '')?.[1])

describe('a well-configured domain', () => {
  it('scores high in every area and overall, with nothing worse than a low finding', async () => {
    const { data } = await report('report-good.test')
    expect(data.domain).toBe('report-good.test')
    expect(data.port).toBe(w.port)
    expect(data.complete).toBe(true)
    expect(data.score).toBeGreaterThanOrEqual(95)
    expect(['A+', 'A']).toContain(data.grade)
    const a = data.areas
    expect(Object.fromEntries(Object.entries(a).map(([name, area]) => [name, area.status]))).toEqual({ dns: 'ok', delegation: 'ok', dnssec: 'ok', email: 'ok', tls: 'ok', web: 'ok', registration: 'ok', network: 'ok', issuance: 'ok' })
    // Its name servers are at documentation addresses, which the service never asks: not scored, said so.
    expect(a.delegation).toMatchObject({ score: null, weight: 10, summary: 'not checked: no address of the 2 name server(s) of report-good.test may be asked' })
    expect(a.email.summary).toMatch(/, DANE not used$/)
    expect(a.dns.score).toBeGreaterThanOrEqual(90)
    expect(a.email).toMatchObject({ grade: expect.stringMatching(/^A/) })
    expect(a.email.score).toBeGreaterThanOrEqual(90)
    expect(a.tls).toMatchObject({ grade: 'A+', score: 100 })
    expect(a.web).toMatchObject({ grade: 'A+', score: 100 })
    expect(a.registration.score).toBe(100)
    expect(a.dnssec).toMatchObject({ score: null, summary: expect.stringMatching(/^indeterminate/) })
    // Every server of the loopback internet lives in loopback or documentation space: the network
    // area (and the sender networks) rightly say so. Its two name servers are in two /24s
    // (192.0.2.0/24 and 198.51.100.0/24), so no ns_single_prefix. Nothing else is worse than low.
    const world = ['dependencies.bogon', 'dependencies.ns_single_prefix', 'email_networks.spf_bogon']
    expect(data.findings.filter((f) => world.includes(f.id)).map((f) => [f.area, f.id, f.severity])).toEqual([
      ['network', 'dependencies.bogon', 'high'],
      ['email', 'email_networks.spf_bogon', 'medium'],
    ])
    expect(a.network.score).toBe(100 - 25)
    // CAA at the name itself allows letsencrypt.org; the test CA is not on the table of CA identifiers (info, no points).
    expect(a.issuance).toMatchObject({ score: 100, summary: expect.stringMatching(/^CAA at report-good\.test \(issue: letsencrypt\.org\); served: infralens report tests CA \(unknown_issuer\)/) })
    expect(data.findings.filter((f) => rank(f.severity) < rank('low') && !world.includes(f.id))).toEqual([])
    // The TLS active checks (issue 24) see what any Node TLS server does: it accepts a client-initiated
    // renegotiation, may sign with SHA-1 when asked (RSA keys) and has no post-quantum group. Those lows aside, at most two.
    const nodeTls = ['client_renegotiation', 'no_post_quantum_group', 'sha1_handshake_signatures']
    const lows = data.findings.filter((f) => f.severity === 'low')
    expect(lows.filter((f) => f.area === 'tls').map((f) => f.id)).toContain('no_post_quantum_group')
    expect(lows.filter((f) => !(f.area === 'tls' && nodeTls.includes(f.id)) && !world.includes(f.id)).length).toBeLessThanOrEqual(2)
    expect(data.registration).toMatchObject({ registrar: 'Example Registrar, Inc.', age_days: 5 * 365, days_to_expiry: expect.any(Number) })
  })

  it('names the endpoint behind each area and its own route', async () => {
    const { data } = await report('report-good.test')
    const sources = Object.fromEntries(Object.entries(data.areas).map(([name, area]) => [name, area.sources.map((s) => [s.endpoint, s.url, s.status])]))
    expect(sources).toEqual({
      dns: [['dns.lookup', '/api/dns/lookup/report-good.test', 'ok']],
      delegation: [['domain.delegation', '/api/domain/delegation/report-good.test', 'ok']],
      dnssec: [['dns.dnssec', '/api/dns/dnssec/report-good.test', 'ok']],
      email: [
        ['email.health', '/api/email/health/report-good.test', 'ok'],
        ['email.networks', '/api/email/networks/report-good.test', 'ok'],
        ['email.dane', '/api/email/dane/report-good.test', 'ok'],
      ],
      tls: [['tls.analyze', `/api/tls/analyze/report-good.test%3A${w.port}`, 'ok']],
      web: [['web.security-headers', `/api/web/security-headers/report-good.test%3A${w.port}`, 'ok']],
      registration: [
        ['domain.age', '/api/domain/age/report-good.test', 'ok'],
        ['domain.registrar', '/api/domain/registrar/report-good.test', 'ok'],
      ],
      network: [['domain.dependencies', '/api/domain/dependencies/report-good.test', 'ok']],
      issuance: [['domain.issuance', `/api/domain/issuance/report-good.test?port=${w.port}`, 'ok']],
    })
  })
})

describe('a broken domain', () => {
  it('gives the expected findings, most severe first, and a failing grade', async () => {
    const { data } = await report('report-broken.test')
    const f = data.findings
    for (let i = 1; i < f.length; i++) expect(rank(f[i]!.severity)).toBeGreaterThanOrEqual(rank(f[i - 1]!.severity))
    const at = (area: string, id: string) => f.find((x) => x.area === area && x.id === id)
    expect(f.slice(0, 2).map((x) => [x.severity, x.area, x.id]).sort()).toEqual([
      ['critical', 'email', 'spf.pass_all'],
      ['critical', 'tls', 'hostname_mismatch'],
    ])
    expect(at('email', 'dmarc.missing')?.severity).toBe('high')
    expect(at('email', 'tls.no_starttls')?.severity).toBe('high')
    expect(at('web', 'hsts.missing')?.severity).toBe('high')
    expect(at('web', 'csp.unsafe_inline')?.severity).toBe('high')
    expect(at('registration', 'registration.expiring_soon')).toEqual({
      area: 'registration',
      id: 'registration.expiring_soon',
      severity: 'high',
      message: expect.stringMatching(/^The registration expires in (19|20) days/),
      fix: expect.stringMatching(/^Renew/),
    })
    expect(at('registration', 'registration.newly_registered')?.severity).toBe('medium')
    expect(at('dns', 'dns.single_nameserver')?.severity).toBe('medium')
    expect(at('dns', 'dns.caa_missing')?.severity).toBe('low')
    expect(data.findings_total).toBe(Object.values(data.severity_counts as Record<string, number>).reduce((a, b) => a + b, 0))
    expect(data.findings.length).toBe(Math.min(25, data.findings_total))

    expect(data.areas.tls).toMatchObject({ status: 'ok', grade: 'M', score: 0 })
    expect(data.areas.web).toMatchObject({ status: 'ok', grade: 'F', score: 0 })
    expect(data.areas.registration.score).toBe(100 - 25 - 10)
    expect(data.score).toBeLessThan(50)
    expect(data.grade).toBe('F')
  })

  it('keeps each part finding as the part gave it, with its severity mapped onto one scale', async () => {
    const { data } = await report('report-broken.test')
    const health = (await w.t.json('/api/email/health/report-broken.test')).body.data as { findings: Array<{ id: string; severity: keyof typeof EMAIL_SEVERITY; message: string; fix: string | null }> }
    const networks = (await w.t.json('/api/email/networks/report-broken.test')).body.data as { findings: Array<{ id: string; severity: string; message: string }> }
    const fromEmail = data.findings.filter((f) => f.area === 'email')
    expect(fromEmail.length).toBeGreaterThan(2)
    for (const f of fromEmail) {
      const original = health.findings.find((h) => h.id === f.id)
      // The sender networks speak the report's scale already; their fix is the report's own.
      if (original === undefined) {
        const n = networks.findings.find((x) => x.id === f.id)!
        expect(f).toEqual({ area: 'email', id: n.id, severity: n.severity, message: n.message, fix: expect.any(String) })
      }
      else expect(f).toEqual({ area: 'email', id: original.id, severity: EMAIL_SEVERITY[original.severity], message: original.message, fix: original.fix })
    }
    expect(fromEmail.map((f) => f.id)).toContain('email_networks.mx_no_starttls')
    // email's "error" is the report's "high"
    expect(health.findings.find((h) => h.id === 'dmarc.missing')?.severity).toBe('error')
  })
})

describe('parts that fail or do not apply', () => {
  it('the site down: TLS and web fail with the error code and message, every other area answers', async () => {
    const { data, headers } = await report('report-down.test')
    expect(data.areas.tls).toMatchObject({ status: 'failed', score: null, grade: null, error: { code: 'upstream_error', upstream: 'tls', message: expect.stringContaining('ECONNREFUSED') } })
    expect(data.areas.web).toMatchObject({ status: 'failed', score: null, error: { code: 'upstream_error', upstream: 'web', message: expect.stringContaining(w.deadAddress) } })
    expect(data.areas.tls.sources).toEqual([expect.objectContaining({ endpoint: 'tls.analyze', status: 'failed', cache: null })])
    for (const area of ['dns', 'email', 'registration'] as const) expect(data.areas[area]).toMatchObject({ status: 'ok', error: null, score: expect.any(Number) })
    expect(data.complete).toBe(false)
    expect(data.score).toBeGreaterThanOrEqual(90)
    // a partial report is kept briefly: the failed part may answer next time
    expect(maxAge(headers)).toBeLessThanOrEqual(PARTIAL_TTL)
  })

  it('the registry answering 500: registration fails, the rest answer', async () => {
    const { data } = await report('report-nordap.test')
    expect(data.areas.registration).toMatchObject({
      status: 'failed',
      error: { code: 'upstream_error', upstream: 'rdap', message: expect.stringContaining('HTTP 500') },
    })
    expect(data.areas.registration.sources.map((s) => [s.endpoint, s.status])).toEqual([
      ['domain.age', 'failed'],
      ['domain.registrar', 'failed'],
    ])
    expect(data.registration).toBeNull()
    for (const area of ['dns', 'email', 'tls', 'web'] as const) expect(data.areas[area].status).toBe('ok')
    expect(data.areas.tls.grade).toBe('A+')
  })

  it('a name without an address: TLS and web are skipped with the reason, and nothing connects', async () => {
    const connections = w.web.connections.length
    const { data } = await report('report-bare.test')
    for (const area of ['tls', 'web'] as const) {
      expect(data.areas[area]).toMatchObject({ status: 'skipped', score: null, error: null, reason: 'report-bare.test has no A or AAAA record: there is no server to check.', sources: [] })
    }
    expect(data.areas.email.status).toBe('ok')
    expect(data.complete).toBe(true)
    expect(w.web.connections.length).toBe(connections)
  })

  it('a name that does not exist: DNS says so, mail, TLS and web are skipped, registration is the registrable domain', async () => {
    const { data } = await report('gone.report-good.test')
    expect(data.areas.dns).toMatchObject({ status: 'ok', score: 0 })
    expect(data.findings[0]).toMatchObject({ area: 'dns', id: 'dns.nxdomain', severity: 'critical' })
    for (const area of ['email', 'tls', 'web'] as const) expect(data.areas[area]).toMatchObject({ status: 'skipped', reason: 'gone.report-good.test does not exist in DNS (NXDOMAIN).' })
    expect(data.areas.registration.sources[0]).toMatchObject({ endpoint: 'domain.age', url: '/api/domain/age/report-good.test', status: 'ok' })
  })

  it('every part failing is a 502 that names each part error', async () => {
    // Its own service: the timeouts must not open the shared one's DNS breaker.
    const t = await w.app()
    const res = await t.json(`/api/report/report-dark.test?port=${w.port}`).finally(() => t.close())
    expect(res.status).toBe(502)
    expect(res.body.error).toMatchObject({ code: 'upstream_error', message: expect.stringMatching(/^No part of the report for report-dark\.test could be answered/) })
    const areas = res.body.error.details.areas as Record<string, { code: string; message: string }>
    expect(Object.keys(areas).sort()).toEqual(['delegation', 'dns', 'dnssec', 'email', 'issuance', 'network', 'registration', 'tls', 'web'])
    expect(areas.registration).toMatchObject({ code: 'upstream_error', message: expect.stringContaining('HTTP 500') })
    expect(areas.dns!.code).toBe('upstream_error')
  })
})

describe('cache', () => {
  it('a second identical call is a cache hit with the same report; the TTL is the shortest of its parts', async () => {
    // A name no other test reports on, so the first call is a miss.
    const first = await w.t.json(`/api/report/www.report-good.test?port=${w.port}`)
    expect(first.body.meta.cache).toBe('miss')
    const ttls = Object.values(first.body.data.areas as Record<string, Area>).flatMap((a) => a.sources.map((s) => s.ttl as number))
    expect(maxAge(first.headers)).toBe(Math.min(300, ...ttls))
    const again = await w.t.json(`/api/report?domain=www.report-good.test&port=${w.port}`)
    expect(again.body.meta.cache).toBe('hit')
    expect(again.body.data).toEqual(first.body.data)
  })

  it('shares its parts with their own endpoints: after the report, /api/email/health and /api/tls/analyze are hits', async () => {
    // Only reports have asked about these names: a hit comes from a report's part.
    const { data } = await report('report-bare.test')
    expect(data.areas.email.sources[0]).toMatchObject({ endpoint: 'email.health' })
    const health = await w.t.json('/api/email/health/report-bare.test')
    expect(health.body.meta.cache).toBe('hit')
    const tls = await w.t.json(`/api/tls/analyze/report-good.test:${w.port}`)
    expect(tls.body.meta.cache).toBe('hit')
    const registrar = await w.t.json('/api/domain/registrar/report-good.test')
    expect(registrar.body.meta.cache).toBe('hit')
  })

  it('a part cached by its own endpoint is reused by the report', async () => {
    // A name no report has asked about yet.
    const tls = await w.t.json(`/api/tls/analyze/www.report-nordap.test:${w.port}`)
    expect(tls.body.meta.cache).toBe('miss')
    const { data } = await report('www.report-nordap.test')
    expect(data.areas.tls.sources[0]).toMatchObject({ endpoint: 'tls.analyze', cache: 'hit' })
    expect(data.areas.dns.sources[0]).toMatchObject({ endpoint: 'dns.lookup', cache: 'miss' })
  })
})

describe('formats', () => {
  it('format=csv is one row per finding', async () => {
    const { data } = await report('report-broken.test')
    const res = await w.t.request(`/api/report/report-broken.test?port=${w.port}&format=csv&fields=findings`)
    expect(res.status).toBe(200)
    const lines = (await res.text()).trim().split(/\r?\n/)
    expect(lines[0]).toBe('findings.area,findings.id,findings.severity,findings.message,findings.fix')
    expect(lines.length).toBe(1 + data.findings.length)
    expect(lines[1]).toMatch(/^(email|tls),(spf\.pass_all|hostname_mismatch),critical,/)
  })
})

describe('input', () => {
  it('a bad domain or port is a 400 that names the parameter', async () => {
    const bad = await w.t.json('/api/report/not..a..domain')
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.param).toBe('domain')
    const port = await w.t.json('/api/report/report-good.test?port=70000')
    expect(port.status).toBe(400)
    expect(port.body.error).toMatchObject({ details: { param: 'port' }, message: expect.stringContaining('65535') })
  })
})
