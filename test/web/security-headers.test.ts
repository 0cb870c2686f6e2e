import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analyzeCookies, parseSetCookie } from '../../plugins/web/security-headers/cookies.ts'
import { analyzeCsp } from '../../plugins/web/security-headers/csp.ts'
import { analyzeFraming } from '../../plugins/web/security-headers/framing.ts'
import { gradeSecurityHeaders } from '../../plugins/web/security-headers/grade-headers.ts'
import { gradeOf } from '../../plugins/web/security-headers/grade.ts'
import { parseHsts } from '../../plugins/web/security-headers/hsts.ts'
import { parsePermissionsPolicy } from '../../plugins/web/security-headers/permissions-policy.ts'
import { analyzeReferrerPolicy } from '../../plugins/web/security-headers/simple-headers.ts'
import { SecurityHeadersData } from '../../registry/web/schemas/security-headers-data.ts'
import type { WebWorld } from './web-world.ts'
import { startWebWorld } from './web-world.ts'

let w: WebWorld
beforeAll(async () => {
  w = await startWebWorld()
})
afterAll(async () => {
  await w.close()
})

const grade = async (host: string) => {
  const res = await w.t.json(`/api/web/security-headers/${encodeURIComponent(host)}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(SecurityHeadersData.safeParse(res.body.data).success).toBe(true)
  return res.body.data
}
const check = (d: { checks: Array<{ id: string; reason: string }> }, id: string) => d.checks.find((c) => c.id === id)

describe('/api/web/security-headers: the test sites', () => {
  it('the well-configured site gets A+ with every check passing and no findings', async () => {
    const d = await grade(w.web.https('good.web.test'))
    expect(d).toMatchObject({ grade: 'A+', score: 100, https: true, status: 200 })
    expect(d.checks.every((c: { points: number }) => c.points === 0)).toBe(true)
    expect(d.checks.filter((c: { result: string }) => c.result === 'fail' || c.result === 'warn')).toEqual([])
    expect(d.findings).toEqual([])
    expect(d.hsts).toMatchObject({ max_age: 63072000, include_subdomains: true, preload: true, preload_ready: true, valid: true })
    expect(d.csp).toMatchObject({ present: true, unsafe_inline: false, strict_dynamic: true, nonces_or_hashes: true, object_src_none: true, frame_ancestors: ["'self'"] })
    expect(d.framing).toMatchObject({ protected: true, via: 'frame-ancestors' })
    expect(d.referrer_policy.effective).toBe('strict-origin-when-cross-origin')
    expect(d.cross_origin).toMatchObject({ opener_policy: 'same-origin', embedder_policy: 'require-corp', isolated: true })
    expect(d.cookies.map((c: { name: string }) => c.name)).toEqual(['__Host-sid', 'csrf'])
    expect(JSON.stringify(d.cookies)).not.toContain('abc') // cookie values are not echoed
  })

  it('the broken site gets F, with the points and reason of each failure', async () => {
    const d = await grade(w.web.https('broken.web.test'))
    expect(d.grade).toBe('F')
    expect(d.score).toBe(5)
    expect(d.score).toBe(100 + d.checks.reduce((s: number, c: { points: number }) => s + c.points, 0))
    expect(check(d, 'hsts')).toMatchObject({ result: 'warn', points: -10, reason: 'max-age is 300 s, under six months' })
    expect(check(d, 'csp.unsafe_inline')).toMatchObject({ result: 'fail', points: -20 })
    expect(check(d, 'csp.broad_sources')).toMatchObject({ points: -5 }) // the CSP total is capped at -25
    expect(check(d, 'csp.broad_sources')!.reason).toMatch(/capped/)
    expect(check(d, 'framing')).toMatchObject({ result: 'fail', points: -20, value: 'ALLOW-FROM https://partner.example' })
    expect(check(d, 'content_type_options')).toMatchObject({ points: -5 })
    expect(check(d, 'referrer_policy')).toMatchObject({ result: 'fail', points: -10 })
    expect(check(d, 'permissions_policy')).toMatchObject({ points: -5, reason: 'Only the deprecated Feature-Policy is sent' })
    expect(check(d, 'cookies.secure')).toMatchObject({ points: -10 })
    expect(check(d, 'cookies.http_only')).toMatchObject({ points: -10, reason: 'Session-like cookies without HttpOnly: PHPSESSID' })
    expect(d.csp).toMatchObject({ unsafe_inline: true, unsafe_eval: true, broad_script_sources: ['https:'] })
    expect(d.csp.wildcards).toEqual([
      { directive: 'default-src', source: '*' },
      { directive: 'script-src', source: '*.cdn.example' },
    ])
    const codes = d.findings.map((f: { code: string }) => f.code)
    for (const code of ['csp.unsafe_inline', 'csp.unsafe_eval', 'csp.wildcards', 'framing.unprotected', 'referrer.unsafe_url', 'cookies.not_secure', 'cookies.rejected', 'disclosure.server_version', 'disclosure.x-powered-by', 'xxp.deprecated']) {
      expect(codes).toContain(code)
    }
    // most severe first
    const rank = ['critical', 'high', 'medium', 'low', 'info']
    const order = d.findings.map((f: { severity: string }) => rank.indexOf(f.severity))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    const cookies = Object.fromEntries(d.cookies.map((c: { name: string; issues: string[] }) => [c.name, c.issues]))
    expect(cookies['__Host-pref'].join(' ')).toMatch(/Path=\//)
    expect(cookies.tracking.join(' ')).toMatch(/SameSite=None without Secure/)
  })

  it('a site with some headers lands in the middle (C)', async () => {
    const d = await grade(w.web.https('partial.web.test'))
    expect(d).toMatchObject({ grade: 'C', score: 65 })
    expect(check(d, 'framing')).toMatchObject({ result: 'pass', reason: 'X-Frame-Options DENY' })
  })

  it('a plain-http site fails the https check and HSTS does not apply', async () => {
    const d = await grade(w.web.http('plain.web.test'))
    expect(d).toMatchObject({ grade: 'F', https: false, final_url: `http://plain.web.test:${w.web.httpPort}/` })
    expect(d.fallback).not.toBeNull()
    expect(check(d, 'https')).toMatchObject({ result: 'fail', points: -30 })
    expect(check(d, 'hsts')).toMatchObject({ result: 'not_applicable', points: 0 })
    expect(d.findings[0]).toMatchObject({ code: 'https.missing', severity: 'critical' })
  })

  it('the page graded is the end of the redirect chain', async () => {
    const d = await grade(`http://good.web.test:${w.web.httpPort}/`)
    expect(d).toMatchObject({ grade: 'A+', final_url: `https://good.web.test:${w.web.httpsPort}/`, url: `http://good.web.test:${w.web.httpPort}/` })
    expect(d.redirects).toHaveLength(1)
    expect(d.redirects[0]).toMatchObject({ status: 301, upgrade_to_https: true })
  })

  it('an untrusted certificate costs 20 points', async () => {
    const d = await grade(`https://h1-wrong.web.test:${w.h1.httpsPort}/`)
    expect(check(d, 'https')).toMatchObject({ result: 'fail', points: -20 })
    expect(d.findings.map((f: { code: string }) => f.code)).toContain('https.untrusted_certificate')
  })

  it('csv rows are the checks', async () => {
    const res = await w.t.request(`/api/web/security-headers/${w.web.https('good.web.test')}?format=csv&fields=checks`)
    const [head] = (await res.text()).split(/\r?\n/)
    expect(head).toBe('checks.id,checks.header,checks.result,checks.points,checks.value,checks.reason')
  })
})

describe('header parsing (RFC 6797, CSP3, RFC 6265bis, RFC 8941)', () => {
  it('HSTS: case-insensitive directives, quoted max-age, duplicates and a missing max-age invalidate', () => {
    expect(parseHsts('Max-Age="31536000"; INCLUDESUBDOMAINS')).toMatchObject({ max_age: 31536000, include_subdomains: true, valid: true, preload_ready: false })
    expect(parseHsts('max-age=1; max-age=2').valid).toBe(false)
    expect(parseHsts('includeSubDomains').valid).toBe(false)
    expect(parseHsts('max-age=abc').valid).toBe(false)
    expect(parseHsts('max-age=31536000; includeSubDomains; preload')).toMatchObject({ preload_ready: true })
  })

  it('CSP: several policies are intersected; nonces and strict-dynamic neutralize unsafe-inline; report-only blocks nothing', () => {
    const nonce = analyzeCsp(["script-src 'self' 'unsafe-inline' 'nonce-abc'; object-src 'none'"], [])
    expect(nonce.detail.unsafe_inline).toBe(false)
    expect(nonce.checks.reduce((s, c) => s + c.points, 0)).toBe(0)
    // one policy allows inline, the other does not: inline scripts are blocked
    const two = analyzeCsp(["script-src 'unsafe-inline'", "default-src 'self'; object-src 'none'"], [])
    expect(two.detail.unsafe_inline).toBe(false)
    const dup = analyzeCsp(["script-src 'self'; script-src *; object-src 'none'"], [])
    expect(dup.detail.broad_script_sources).toEqual([])
    expect(dup.detail.policies[0]!.problems[0]).toMatch(/more than once/)
    const reportOnly = analyzeCsp([], ["default-src 'self'"])
    expect(reportOnly.detail).toMatchObject({ present: false, report_only: true })
    expect(reportOnly.checks[0]).toMatchObject({ points: -20 })
    const none = analyzeCsp([], [])
    expect(none.checks[0]).toMatchObject({ result: 'fail', points: -25 })
    const unrestricted = analyzeCsp(["img-src 'self'"], [])
    expect(unrestricted.checks.find((c) => c.id === 'csp.scripts')).toMatchObject({ points: -20 })
  })

  it('framing: frame-ancestors wins over X-Frame-Options; garbage and ALLOW-FROM leave the page frameable', () => {
    expect(analyzeFraming(['DENY'], ['*']).detail.protected).toBe(false)
    expect(analyzeFraming(['ALLOW-FROM x'], ["'self'"]).detail).toMatchObject({ protected: true, via: 'frame-ancestors' })
    expect(analyzeFraming(['sameorigin'], null).detail.protected).toBe(true)
    expect(analyzeFraming(['DENY, SAMEORIGIN'], null).detail.protected).toBe(false)
    expect(analyzeFraming(['yes'], null).checks[0]!.points).toBe(-20)
  })

  it('Referrer-Policy: the last recognized token of a fallback list applies', () => {
    expect(analyzeReferrerPolicy(['unsafe-url, no-referrer']).detail.effective).toBe('no-referrer')
    expect(analyzeReferrerPolicy(['no-referrer, bogus']).detail.effective).toBe('no-referrer')
    expect(analyzeReferrerPolicy(['bogus']).checks[0]!.points).toBe(-5)
  })

  it('Permissions-Policy: structured-field syntax; Feature-Policy syntax is invalid', () => {
    expect(parsePermissionsPolicy('camera=(), geolocation=(self "https://a.example"), fullscreen=*')).toEqual({
      features: [
        { name: 'camera', allowlist: [] },
        { name: 'geolocation', allowlist: ['self', 'https://a.example'] },
        { name: 'fullscreen', allowlist: ['*'] },
      ],
      problems: [],
    })
    expect(parsePermissionsPolicy("camera 'none'").problems[0]).toMatch(/Feature-Policy/)
    expect(parsePermissionsPolicy('camera').problems[0]).toMatch(/no allowlist/)
  })

  it('cookies: attributes, prefixes, and only session-like names need HttpOnly', () => {
    expect(parseSetCookie('__Host-a=1; Secure; Path=/; HttpOnly; SameSite=strict')).toMatchObject({ name: '__Host-a', secure: true, http_only: true, same_site: 'strict', prefix: '__Host-', path: '/' })
    expect(parseSetCookie('theme=dark; SameSite=Bogus')).toMatchObject({ same_site: 'invalid', session_like: false })
    const a = analyzeCookies(['theme=dark; Secure; SameSite=Lax', 'auth_token=1; Secure; SameSite=Lax'], true)
    expect(a.checks.map((c) => [c.id, c.points])).toEqual([['cookies.http_only', -10]])
    // over http, Secure is not demanded here (the https check already failed)
    expect(analyzeCookies(['theme=dark'], false).checks[0]).toMatchObject({ id: 'cookies', result: 'pass' })
  })

  it('grades by score, and grading is a pure function of a response', () => {
    expect([100, 99, 90, 89, 75, 60, 45, 30, 29, 0].map(gradeOf)).toEqual(['A+', 'A', 'A', 'B', 'B', 'C', 'D', 'E', 'F', 'F'])
    const g = gradeSecurityHeaders({ url: 'https://x.example/', headers: [], tls: { protocol: 'TLSv1.3', cipher: null, alpn: null, authorized: true, authorization_error: null } })
    // nothing sent: HSTS -20, CSP -25, framing -20, nosniff -5, referrer -5, permissions -5
    expect(g).toMatchObject({ score: 20, grade: 'F' })
  })
})
