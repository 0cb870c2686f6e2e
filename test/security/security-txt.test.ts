import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SecurityTxtData } from '../../registry/security/schemas/security-txt-data.ts'
import { parseSecurityTxt } from '../../plugins/security/security-txt/security-txt-parse.ts'
import { validateSecurityTxt } from '../../plugins/security/security-txt/security-txt-validate.ts'
import type { WebWorld } from '../web/web-world.ts'
import { startWebWorld } from '../web/web-world.ts'

let w: WebWorld
const DAY = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')
const TEXT = { 'content-type': 'text/plain; charset=utf-8' }

beforeAll(async () => {
  w = await startWebWorld()
  const P = w.web.httpsPort
  const wk = (host: string) => `https://${host}.web.test/.well-known/security.txt`
  w.web.route(wk('sec-good'), {
    headers: TEXT,
    body: [
      '-----BEGIN PGP SIGNED MESSAGE-----',
      'Hash: SHA512',
      '',
      '# Our security address',
      'Contact: mailto:security@sec-good.web.test',
      'Contact: https://sec-good.web.test/report',
      `Expires: ${iso(Date.now() + 200 * DAY)}`,
      'Encryption: openpgp4fpr:5f2de5521c63a801ab59ccb603d49de44b29100f',
      'Acknowledgments: https://sec-good.web.test/hall-of-fame',
      'Preferred-Languages: en, fr',
      `Canonical: https://sec-good.web.test:${P}/.well-known/security.txt`,
      'Policy: https://sec-good.web.test/disclosure',
      'Hiring: https://sec-good.web.test/jobs',
      'CSAF: https://sec-good.web.test/.well-known/csaf/provider-metadata.json',
      '- # a dash-escaped comment line',
      '-----BEGIN PGP SIGNATURE-----',
      '',
      'iHUEARYKAB0WIQRzSZVGHkNw9kz7Q1Y1DqZ8nB1aSQUCZfYzCAAKCRA1DqZ8nB1a',
      '=abcd',
      '-----END PGP SIGNATURE-----',
      '',
    ].join('\r\n'),
  })
  w.web.route(wk('sec-expired'), { headers: TEXT, body: `Contact: mailto:s@sec-expired.web.test\nExpires: ${iso(Date.now() - 3 * DAY)}\n` })
  w.web.route(wk('sec-bad'), {
    headers: TEXT,
    body: [
      'Contact:security@sec-bad.web.test',
      'Encryption: http://sec-bad.web.test/key.asc',
      'Expires: 2030-01-01',
      `Expires: ${iso(Date.now() + 900 * DAY)}`,
      'Preferred-Languages: en',
      'Preferred-Languages: english!',
      'X-Custom: hello',
      'nonsense line',
    ].join('\n'),
  })
  w.web.route(`https://sec-legacy.web.test/security.txt`, { headers: TEXT, body: `Contact: mailto:s@sec-legacy.web.test\nExpires: ${iso(Date.now() + 30 * DAY)}\n` })
  w.web.route(wk('sec-canonical'), {
    headers: TEXT,
    body: `Contact: mailto:s@x.test\nExpires: ${iso(Date.now() + 30 * DAY)}\nCanonical: https://elsewhere.example/.well-known/security.txt\n`,
  })
  w.web.route(wk('sec-html'), { headers: { 'content-type': 'text/html' }, body: '<html><body>Welcome!</body></html>' })
  w.web.route('https://sec-html.web.test/security.txt', { headers: { 'content-type': 'text/html' }, body: '<html><body>Welcome!</body></html>' })
  w.web.route(wk('sec-redirect'), { status: 301, headers: { location: `https://good.web.test:${P}/.well-known/security.txt` } })
  w.web.route('https://good.web.test/.well-known/security.txt', { headers: TEXT, body: `Contact: mailto:s@good.web.test\nExpires: ${iso(Date.now() + 30 * DAY)}\n` })
  w.web.route(wk('sec-type'), { headers: { 'content-type': 'application/octet-stream' }, body: `Contact: mailto:s@x.test\nExpires: ${iso(Date.now() + 30 * DAY)}\n` })
})
afterAll(async () => {
  await w.close()
})

const txt = async (name: string) => {
  const res = await w.t.json(`/api/security/security-txt/${name}.web.test:${w.web.httpsPort}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(SecurityTxtData.safeParse(res.body.data).success).toBe(true)
  return res.body.data
}
const codes = (d: { findings: Array<{ code: string }> }) => d.findings.map((f) => f.code)

describe('/api/security/security-txt', () => {
  it('a signed, complete file is valid; fields in order, signature detected (not verified)', async () => {
    const d = await txt('sec-good')
    expect(d).toMatchObject({
      found: true,
      valid: true,
      location: 'well_known',
      signed: true,
      signature_verified: null,
      url: `https://sec-good.web.test:${w.web.httpsPort}/.well-known/security.txt`,
      contact: ['mailto:security@sec-good.web.test', 'https://sec-good.web.test/report'],
      preferred_languages: ['en', 'fr'],
      expired: false,
      encryption: ['openpgp4fpr:5f2de5521c63a801ab59ccb603d49de44b29100f'],
      csaf: ['https://sec-good.web.test/.well-known/csaf/provider-metadata.json'],
    })
    expect(d.expires_in_days).toBeGreaterThanOrEqual(199)
    expect(d.fields.map((f: { name: string }) => f.name)).toEqual(['Contact', 'Contact', 'Expires', 'Encryption', 'Acknowledgments', 'Preferred-Languages', 'Canonical', 'Policy', 'Hiring', 'CSAF'])
    expect(codes(d)).toEqual(['security_txt.signature_not_verified'])
  })

  it('an expired file is invalid', async () => {
    const d = await txt('sec-expired')
    expect(d).toMatchObject({ found: true, valid: false, expired: true })
    expect(d.findings[0]).toMatchObject({ code: 'security_txt.expired', severity: 'high' })
    expect(codes(d)).toContain('security_txt.unsigned')
  })

  it('a broken file: no Contact URI, Expires twice and malformed, http URIs, a repeated Preferred-Languages, syntax errors', async () => {
    const d = await txt('sec-bad')
    expect(d.valid).toBe(false)
    const c = codes(d)
    for (const code of ['security_txt.contact_invalid', 'security_txt.expires_repeated', 'security_txt.expires_invalid', 'security_txt.encryption_invalid', 'security_txt.languages_repeated', 'security_txt.languages_invalid', 'security_txt.unknown_fields', 'security_txt.syntax']) {
      expect(c, code).toContain(code)
    }
    const messages = d.findings.map((f: { message: string }) => f.message).join('\n')
    expect(messages).toMatch(/is an email address, not a URI; write mailto:security@sec-bad.web.test/)
    expect(messages).toMatch(/the colon must be followed by one space/)
    expect(messages).toMatch(/Line 8: Not a "Field: value" line/)
    expect(messages).toMatch(/web URIs must be https/)
    expect(d.unknown_fields).toEqual(['X-Custom'])
  })

  it('the legacy location is accepted with a finding', async () => {
    const d = await txt('sec-legacy')
    expect(d).toMatchObject({ found: true, location: 'legacy', valid: true })
    expect(d.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['not_found', 'found'])
    expect(codes(d)).toContain('security_txt.legacy_location')
  })

  it('a Canonical that does not name where the file came from', async () => {
    const d = await txt('sec-canonical')
    expect(d.valid).toBe(false)
    expect(codes(d)).toContain('security_txt.canonical_mismatch')
  })

  it('an HTML page answering 200 is not a security.txt; nothing anywhere is found: false', async () => {
    const html = await txt('sec-html')
    expect(html).toMatchObject({ found: false, valid: false })
    expect(html.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['not_text', 'not_text'])
    const none = await txt('sec-none')
    expect(none).toMatchObject({ found: false, status: 404 })
    expect(none.findings).toEqual([expect.objectContaining({ code: 'security_txt.missing', severity: 'low' })])
  })

  it('redirects are followed; another host is noted; a wrong Content-Type is an error', async () => {
    const moved = await txt('sec-redirect')
    expect(moved).toMatchObject({ found: true, url: `https://good.web.test:${w.web.httpsPort}/.well-known/security.txt` })
    expect(codes(moved)).toContain('security_txt.other_host')
    const typed = await txt('sec-type')
    expect(typed.valid).toBe(false)
    expect(codes(typed)).toContain('security_txt.content_type')
  })

  it('only https: http:// is refused as input, a site without https is a 502', async () => {
    expect((await w.t.json(`/api/security/security-txt/${encodeURIComponent('http://sec-good.web.test')}`)).status).toBe(400)
    const res = await w.t.json(`/api/security/security-txt/sec-good.web.test:${w.web.httpPort}`)
    expect(res.status).toBe(502)
    expect(res.body.error.details).toMatchObject({ upstream: 'web', phase: 'tls' })
  })
})

describe('parse and validate', () => {
  it('a signed message with no signature block is an error; text after the signature is ignored', () => {
    const p = parseSecurityTxt('-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nContact: mailto:a@b.c\n')
    expect(p.signed).toBe(true)
    expect(p.problems[0]!.message).toMatch(/no "-----BEGIN PGP SIGNATURE-----"/)
    const q = parseSecurityTxt('-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nContact: mailto:a@b.c\n-----BEGIN PGP SIGNATURE-----\nx\n-----END PGP SIGNATURE-----\nContact: mailto:evil@x.y\n')
    expect(q.fields.map((f) => f.value)).toEqual(['mailto:a@b.c'])
    expect(q.problems[0]!.message).toMatch(/after the signature/)
  })

  it('Expires more than a year ahead is a warning; a file without Contact or Expires is invalid', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    const far = validateSecurityTxt(parseSecurityTxt('Contact: mailto:a@b.c\nExpires: 2028-01-01T00:00:00Z\n'), [], now)
    expect(far.fields.expires_in_days).toBe(730)
    expect(far.findings.map((f) => f.code)).toContain('security_txt.expires_far')
    const empty = validateSecurityTxt(parseSecurityTxt('Policy: https://x.example/p\n'), [], now)
    expect(empty.findings.map((f) => [f.code, f.severity])).toEqual(expect.arrayContaining([
      ['security_txt.contact_missing', 'high'],
      ['security_txt.expires_missing', 'medium'],
    ]))
  })
})
