import { describe, expect, it } from 'vitest'
import type { DnsLookup } from '../../plugins/report/areas/dns.ts'
import { addressless, dnsAnswer } from '../../plugins/report/areas/dns.ts'
import type { Delegation } from '../../plugins/report/areas/delegation.ts'
import { delegationAnswer } from '../../plugins/report/areas/delegation.ts'
import { dnssecAnswer } from '../../plugins/report/areas/dnssec.ts'
import type { EmailDane } from '../../plugins/report/areas/email.ts'
import { emailAnswer } from '../../plugins/report/areas/email.ts'
import { registrationAnswer, registrationFacts } from '../../plugins/report/areas/registration.ts'
import { TLS_GRADE_SCORE } from '../../plugins/report/areas/tls.ts'
import { DNSSEC_SEVERITY, EMAIL_SEVERITY } from '../../plugins/report/findings.ts'
import { SEVERITIES } from '../../registry/flagship/schemas/report-findings.ts'

// What each area makes of its part's data, on crafted answers: the cases the
// loopback world (report.test.ts) does not reach.

const type = (status: 'answer' | 'nodata' | 'nxdomain' | 'servfail' | 'error', count = 0) => ({ rcode: status === 'error' ? null : status === 'servfail' ? 'SERVFAIL' : 'NOERROR', status, count, latency_ms: 1 })

function lookup(types: Record<string, ReturnType<typeof type>>, over: Partial<DnsLookup> = {}): DnsLookup {
  return { domain: 'x.test', exists: true, rcode: 'NOERROR', authenticated: false, canonical_name: 'x.test', records: [], types, resolver: null, ...over }
}

const fine = { A: type('answer', 2), AAAA: type('answer', 1), NS: type('answer', 2), MX: type('answer', 1), CAA: type('answer', 1), TXT: type('answer', 1) }
const ids = (answer: { findings: Array<{ id: string }> }) => answer.findings.map((f) => f.id)

describe('dns area', () => {
  it('a complete zone scores 100 with no findings', () => {
    expect(dnsAnswer(lookup(fine))).toEqual({ score: 100, grade: null, summary: '2 A, 1 AAAA, 2 NS, 1 MX, 1 TXT, 1 CAA', findings: [] })
  })

  it('NXDOMAIN is critical and scores 0', () => {
    const answer = dnsAnswer(lookup({ A: type('nxdomain') }, { exists: false, rcode: 'NXDOMAIN' }))
    expect(answer).toMatchObject({ score: 0, findings: [{ area: 'dns', id: 'dns.nxdomain', severity: 'critical' }] })
  })

  it('failed queries, a single name server, no IPv6, no CAA and an alias are each reported', () => {
    const answer = dnsAnswer(lookup({ ...fine, MX: type('servfail'), NS: type('answer', 1), AAAA: type('nodata'), CAA: type('nodata') }, { canonical_name: 'cdn.example' }))
    expect(ids(answer)).toEqual(['dns.query_failed', 'dns.single_nameserver', 'dns.no_ipv6', 'dns.caa_missing', 'dns.alias'])
    expect(answer.findings[0]!.message).toContain('MX (SERVFAIL)')
    expect(answer.score).toBe(100 - 25 - 10 - 5 - 5)
  })

  it('no address at all is not "no IPv6"; an address query that failed is not "no address"', () => {
    expect(ids(dnsAnswer(lookup({ ...fine, A: type('nodata'), AAAA: type('nodata') })))).toEqual(['dns.no_address'])
    expect(ids(dnsAnswer(lookup({ ...fine, A: type('error'), AAAA: type('nodata') })))).toEqual(['dns.query_failed'])
    expect(addressless(lookup({ ...fine, A: type('nodata'), AAAA: type('answer', 1) }))).toBe(false)
    expect(addressless(lookup({ ...fine, A: type('servfail'), AAAA: type('nodata') }))).toBe(false)
    expect(addressless(lookup({ ...fine, A: type('nodata'), AAAA: type('nodata') }))).toBe(true)
  })
})

describe('dnssec area', () => {
  const verdict = (status: 'secure' | 'insecure' | 'bogus' | 'indeterminate', findings: Array<{ severity: 'critical' | 'warning' | 'info'; code: string; zone: string; message: string }> = []) =>
    dnssecAnswer({ status, message: 'why', insecure_at: status === 'insecure' ? 'test' : null, bogus_at: status === 'bogus' ? 'x.test' : null, findings } as Parameters<typeof dnssecAnswer>[0])

  it('scores the verdict: secure 100, insecure 60, bogus 0, indeterminate not at all', () => {
    expect([verdict('secure'), verdict('insecure'), verdict('bogus'), verdict('indeterminate')].map((a) => [a.score, ids(a)])).toEqual([
      [100, []],
      [60, ['dnssec.unsigned']],
      [0, ['dnssec.bogus']],
      [null, ['dnssec.indeterminate']],
    ])
    expect(verdict('bogus').findings[0]).toMatchObject({ severity: 'critical', message: expect.stringContaining('at x.test') })
  })

  it('passes the validator findings on, severity mapped', () => {
    const answer = verdict('secure', [{ severity: 'warning', code: 'ds_digest_sha1', zone: 'x.test', message: 'SHA-1 DS' }])
    expect(answer.findings).toEqual([{ area: 'dnssec', id: 'ds_digest_sha1', severity: 'medium', message: 'x.test: SHA-1 DS', fix: null }])
  })
})

describe('registration area', () => {
  const facts = (age_days: number | null, days_to_expiry: number | null) => ({ registrar: 'R', created: null, expires: '2030-01-01T00:00:00Z', age_days, days_to_expiry })

  it('expired is critical, 30 days or less to expiry high, younger than 30 days medium', () => {
    expect(ids(registrationAnswer(facts(3000, -2)))).toEqual(['registration.expired'])
    expect(ids(registrationAnswer(facts(3000, 30)))).toEqual(['registration.expiring_soon'])
    expect(ids(registrationAnswer(facts(3000, 31)))).toEqual([])
    expect(ids(registrationAnswer(facts(29, 300)))).toEqual(['registration.newly_registered'])
    expect(ids(registrationAnswer(facts(30, 300)))).toEqual([])
  })

  it('without any date nothing is scored', () => {
    expect(registrationAnswer(facts(null, null)).score).toBeNull()
    expect(registrationAnswer(facts(null, 200)).score).toBe(100)
  })

  it('facts come from whichever part answered', () => {
    expect(registrationFacts(null, { registrar: { name: 'R', handle: null, iana_id: null, url: null, abuse_email: null, abuse_phone: null } } as Parameters<typeof registrationFacts>[1])).toEqual({
      registrar: 'R',
      created: null,
      expires: null,
      age_days: null,
      days_to_expiry: null,
    })
  })
})

describe('one severity scale', () => {
  it('every other scale maps into it, most severe to most severe', () => {
    for (const map of [EMAIL_SEVERITY, DNSSEC_SEVERITY]) {
      const mapped = Object.values(map)
      for (const s of mapped) expect(SEVERITIES).toContain(s)
      expect(mapped[0]).toBe('critical')
      expect(mapped.at(-1)).toBe('info')
    }
  })

  it('TLS grades score in grade order; T and M (browsers refuse) score 0', () => {
    const order = ['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F'] as const
    for (let i = 1; i < order.length; i++) expect(TLS_GRADE_SCORE[order[i]!]).toBeLessThan(TLS_GRADE_SCORE[order[i - 1]!])
    expect([TLS_GRADE_SCORE.T, TLS_GRADE_SCORE.M]).toEqual([0, 0])
  })
})

describe('delegation area', () => {
  const server = (address: string, status: 'ok' | 'lame' | 'unreachable' | 'refused_target') => ({
    name: 'ns.x.test', address, status, rcode: null, authoritative: null, serial: null, ns: null, tcp: null, edns: null, recursion_available: null, axfr_allowed: null, asn: null, latency_ms: null, error: null,
  })
  const finding = (id: string, severity: 'critical' | 'high' | 'medium' | 'low' | 'info') => ({ id, severity, message: id, fix: null, zonemaster: null, servers: [] })
  const data = (servers: Array<ReturnType<typeof server>>, findings: Array<ReturnType<typeof finding>>, names = ['ns.x.test']): Delegation => ({
    domain: 'x.test', ns: { status: names.length ? 'answer' : 'nodata', names }, parent: null, servers, serials: [1], dnssec: null, findings,
  })

  it('scores 100 minus its findings\' penalties, findings kept as the endpoint gave them', () => {
    const answer = delegationAnswer(data([server('192.0.2.1', 'ok'), server('198.51.100.1', 'lame')], [finding('delegation.lame', 'high'), finding('delegation.ds_no_matching_dnskey', 'critical')]))
    expect(answer).toMatchObject({ score: 100 - 25 - 50, grade: null, summary: '1 of 2 name server addresses answer authoritatively' })
    expect('findings' in answer && answer.findings.map((f) => [f.area, f.id, f.severity])).toEqual([
      ['delegation', 'delegation.lame', 'high'],
      ['delegation', 'delegation.ds_no_matching_dnskey', 'critical'],
    ])
  })

  it('no server could be asked: not scored; no NS records: skipped', () => {
    expect(delegationAnswer(data([server('192.0.2.1', 'refused_target')], [finding('delegation.address_refused', 'info')]))).toMatchObject({ score: null, summary: expect.stringMatching(/^not checked/) })
    expect(delegationAnswer(data([], [finding('delegation.no_nameservers', 'critical')], []))).toEqual({ skipped: 'x.test has no NS records (nodata): it is not a delegated zone.' })
  })
})

describe('email area with DANE', () => {
  const health = { score: 95, grade: 'A', parts: Object.fromEntries(['spf', 'dmarc', 'dkim', 'mx', 'tls'].map((p) => [p, { applicable: true, score: 95, summary: '' }])), findings: [] } as unknown as Parameters<typeof emailAnswer>[0]
  const dane = (status: EmailDane['status'], findings: Array<{ id: string; severity: 'critical' | 'high' | 'medium' | 'low' | 'info' }>): EmailDane =>
    ({ domain: 'x.test', status, score: null, mx: { status: 'answer', implicit: false, null_mx: false, hosts: [], dnssec: null }, hosts: [], findings: findings.map((f) => ({ ...f, message: f.id, fix: null, zonemaster: null, servers: [] })) }) as EmailDane

  it('DANE not used: health\'s score and grade, no finding for it, said in the summary', () => {
    const answer = emailAnswer(health, null, dane('not_used', [{ id: 'dane.not_used', severity: 'info' }]))
    expect(answer).toMatchObject({ score: 95, grade: 'A', findings: [] })
    expect(answer.summary).toMatch(/, DANE not used$/)
  })

  it('DANE failing: its findings join the area and cost their points; the grade follows the score', () => {
    const answer = emailAnswer(health, null, dane('failing', [{ id: 'dane.mismatch', severity: 'critical' }]))
    expect(answer).toMatchObject({ score: 45, grade: 'F', findings: [{ area: 'email', id: 'dane.mismatch', severity: 'critical' }] })
    expect(emailAnswer(health, null, dane('valid', []))).toMatchObject({ score: 95, grade: 'A' })
  })

  it('DANE not checked: health stands, the summary says why', () => {
    expect(emailAnswer(health, null, { error: 'timeout' })).toMatchObject({ score: 95, grade: 'A', summary: expect.stringMatching(/DANE not checked \(timeout\)$/) })
  })
})
