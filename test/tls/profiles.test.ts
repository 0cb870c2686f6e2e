import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeTlsProfiles } from '../support/fake-tls-profiles.ts'
import { startFakeTlsProfiles, TEST_GUIDELINES_FILE } from '../support/fake-tls-profiles.ts'
import type { OpensslServer, OpensslServerOptions, TestPki, TlsTestServer } from '../support/tls-servers.ts'
import { createTestPki, leafFor, startOpensslServer, startTlsServer } from '../support/tls-servers.ts'
import { keyPair } from '../support/tls-certs.ts'

// Compliance with the TLS profiles of Mozilla's guidelines (issue 24 item 4)
// against openssl s_server set up to meet or miss each profile, the profiles
// being a document written for the tests in Mozilla's schema
// (test/fixtures/tls-profiles/, not Mozilla's), served by a loopback fake in
// place of ssl-config.mozilla.org. What each server was told to do is the
// expected answer: one deviation per field it was set up to break.

const DAY = 86_400_000
const INTERMEDIATE_SUITES = 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305'
const GROUPS = ['-groups', 'X25519:P-256:P-384']

let fake: FakeTlsProfiles
let t: TestApp
let pki: TestPki
const servers: Array<OpensslServer | TlsTestServer> = []
const apps: TestApp[] = []

const BASE_ENV = { INFRALENS_ALLOW_PRIVATE_TARGETS: 'true', INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_REQUEST_TIMEOUT_MS: '15000' }

beforeAll(async () => {
  fake = await startFakeTlsProfiles()
  pki = createTestPki()
  t = await startTestApp({ ...BASE_ENV, ...pki.env, INFRALENS_TLS_PROFILES_URL: fake.url })
  apps.push(t)
}, 30_000)
afterAll(async () => {
  await Promise.all(servers.map((s) => ('close' in s && typeof s.close === 'function' ? s.close() : undefined)))
  await Promise.all(apps.map((a) => a.close()))
  await fake?.close()
  pki?.close()
})

async function opensslServer(o: Partial<OpensslServerOptions> = {}): Promise<OpensslServer> {
  const s = await startOpensslServer({ cipher: INTERMEDIATE_SUITES, minProtocol: 'TLSv1.2', extra: GROUPS, ...o })
  servers.push(s)
  return s
}

async function analyze(app: TestApp, target: string) {
  const res = await app.json(`/api/tls/analyze/${target}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as Record<string, any>
}

/**
 * The oracle: openssl s_client with these options completes a handshake
 * ("New, <version>, Cipher is <suite>" is printed after one). s_server serves
 * one connection at a time and now and then drops one: a refusal is asked twice.
 */
function sClientConnects(target: string, options: string[]): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    const out = spawnSync('openssl', ['s_client', '-connect', target, ...options], { input: '', encoding: 'utf8', timeout: 15_000 })
    if (/^New, TLSv1(?:\.\d)?, Cipher is (?!\(NONE\))/m.test(out.stdout)) return true
  }
  return false
}

type Deviation = { profile: string; field: string; expected: unknown; seen: unknown; message: string }
const profile = (d: Record<string, any>, name: string) => (d.compliance.profiles as Array<Record<string, any>>).find((p) => p.profile === name)!
const fields = (d: Record<string, any>, name: string) => (profile(d, name).deviations as Deviation[]).map((x) => x.field).sort()
const deviation = (d: Record<string, any>, name: string, field: string) => (profile(d, name).deviations as Deviation[]).find((x) => x.field === field)

describe('an intermediate server (TLS 1.2 and 1.3, ECDHE with AES-GCM and ChaCha20, X25519/P-256/P-384, RSA 2048, 91 days)', () => {
  let d: Record<string, any>
  beforeAll(async () => {
    d = await analyze(t, (await opensslServer()).target)
  }, 60_000)

  it('names the document used: its version and href, the URL it came from, when', () => {
    expect(d.compliance.status).toBe('checked')
    expect(d.compliance.reason).toBeNull()
    expect(d.compliance.guidelines).toMatchObject({ version: 'test-1.0', href: 'http://guidelines.tls.test/test-1.0.json', source: fake.url, source_kind: 'url', refresh_error: null })
    expect(Date.parse(d.compliance.guidelines.fetched_at)).not.toBeNaN()
    expect(d.compliance.guidelines.sha256).toMatch(/^[0-9a-f]{64}$/)
  })

  it('complies with intermediate; HSTS not judged on a host whose certificate is not trusted, and says why', () => {
    expect(profile(d, 'intermediate')).toMatchObject({ compliant: true, deviations: [], oldest_clients: ['Test browser 30'] })
    expect(profile(d, 'intermediate').not_checked).toEqual([{ field: 'hsts_min_age', reason: expect.any(String) }])
    expect(d.compliance.compliant_with).toEqual(['intermediate'])
  })

  it('modern: TLS 1.2 offered, TLS 1.2 suites, an RSA key signed with RSA, 91 days, no staple', () => {
    expect(fields(d, 'modern')).toEqual(['certificate_signatures', 'certificate_types', 'ciphers', 'maximum_certificate_lifespan', 'ocsp_staple', 'tls_versions'])
    expect(deviation(d, 'modern', 'tls_versions')).toMatchObject({ profile: 'modern', expected: ['TLSv1.3'], seen: ['TLSv1.2', 'TLSv1.3'] })
    expect(deviation(d, 'modern', 'tls_versions')!.message).toContain('offers TLSv1.2')
    expect(deviation(d, 'modern', 'certificate_types')).toMatchObject({ expected: ['ecdsa'], seen: 'rsa' })
    expect(deviation(d, 'modern', 'certificate_signatures')).toMatchObject({ seen: 'sha256WithRSAEncryption' })
    expect(deviation(d, 'modern', 'maximum_certificate_lifespan')).toMatchObject({ expected: 90, seen: 91 })
    expect(deviation(d, 'modern', 'ocsp_staple')).toMatchObject({ expected: true, seen: false })
    expect((deviation(d, 'modern', 'ciphers')!.seen as string[]).sort()).toEqual(['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256'])
  })

  it('old: TLS 1.0 and 1.1 missing, and the client order decides', () => {
    expect(fields(d, 'old')).toEqual(['server_preferred_order', 'tls_versions'])
    expect(deviation(d, 'old', 'tls_versions')).toMatchObject({ expected: ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'], seen: ['TLSv1.2', 'TLSv1.3'] })
    expect(deviation(d, 'old', 'tls_versions')!.message).toContain('does not offer TLSv1, TLSv1.1')
    expect(deviation(d, 'old', 'server_preferred_order')).toMatchObject({ expected: true, seen: false })
  })

  it('the grade does not depend on compliance', () => {
    expect(d.grade).toBe('T')
    expect(d.grade_if_trusted).toBe('A')
    expect((d.findings as Array<{ id: string }>).map((f) => f.id).filter((id) => /mozilla|profile|complian/.test(id))).toEqual([])
  })
})

describe('servers set up to miss a profile', () => {
  it('TLS 1.0 and a CBC suite: intermediate lists both; old (which has them, with the server order) is met', async () => {
    const s = await opensslServer({ cipher: `${INTERMEDIATE_SUITES}:ECDHE-RSA-AES128-SHA:@SECLEVEL=0`, minProtocol: 'TLSv1', serverPreference: true })
    const d = await analyze(t, s.target)
    // s_client agrees on the versions offered and on the CBC suite.
    const versions = (['-tls1', '-tls1_1', '-tls1_2', '-tls1_3'] as const).filter((v) => sClientConnects(s.target, [v, '-cipher', 'ALL:@SECLEVEL=0']))
    expect(versions).toEqual(['-tls1', '-tls1_1', '-tls1_2', '-tls1_3'])
    expect(sClientConnects(s.target, ['-tls1_2', '-cipher', 'ECDHE-RSA-AES128-SHA:@SECLEVEL=0'])).toBe(true)
    expect(fields(d, 'intermediate')).toEqual(['ciphers', 'tls_versions'])
    expect(deviation(d, 'intermediate', 'tls_versions')).toMatchObject({ profile: 'intermediate', expected: ['TLSv1.2', 'TLSv1.3'], seen: ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] })
    expect(deviation(d, 'intermediate', 'tls_versions')!.message).toContain('offers TLSv1, TLSv1.1, which intermediate does not')
    expect(deviation(d, 'intermediate', 'ciphers')).toMatchObject({ seen: ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA'] })
    expect(profile(d, 'old')).toMatchObject({ compliant: true, deviations: [] })
    expect(d.compliance.compliant_with).toEqual(['old'])
  }, 60_000)

  it('/api/tls/compliance: the same deviations on their own, one CSV row each; ?profile= narrows them', async () => {
    const s = await opensslServer({ cipher: `${INTERMEDIATE_SUITES}:ECDHE-RSA-AES128-SHA:@SECLEVEL=0`, minProtocol: 'TLSv1', serverPreference: true })
    const res = await t.json(`/api/tls/compliance/${s.target}?profile=intermediate`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(d).toMatchObject({ host: '127.0.0.1', port: s.port, profile: 'intermediate', compliant: false, compliant_with: [], guidelines: { version: 'test-1.0', source: fake.url } })
    expect(d.profiles).toEqual([{ profile: 'intermediate', compliant: false, deviation_count: 2, not_checked: [{ field: 'hsts_min_age', reason: expect.any(String) }], oldest_clients: ['Test browser 30'] }])
    expect((d.deviations as Deviation[]).map((x) => [x.profile, x.field, x.seen])).toEqual([
      ['intermediate', 'tls_versions', ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']],
      ['intermediate', 'ciphers', ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA']],
    ])
    const all = await t.json(`/api/tls/compliance/${s.target}`)
    expect(all.body.data).toMatchObject({ profile: null, compliant: false, compliant_with: ['old'] })
    expect(new Set((all.body.data.deviations as Deviation[]).map((x) => x.profile))).toEqual(new Set(['modern', 'intermediate']))
    const csv = await t.request(`/api/tls/compliance/${s.target}?profile=intermediate&format=csv`)
    expect(csv.status).toBe(200)
    const lines = (await csv.text()).trim().split(/\r?\n/)
    expect(lines).toHaveLength(3)
    const header = lines[0]!.split(',')
    for (const column of ['deviations.profile', 'deviations.field', 'deviations.expected', 'deviations.seen', 'deviations.message']) expect(header).toContain(column)
    expect(lines[2]).toContain('TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA')
    const bad = await t.json(`/api/tls/compliance/${s.target}?profile=paranoid`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.param).toBe('profile')
    expect(bad.body.error.message).toContain('modern, intermediate, old')
  }, 60_000)

  it('an RSA 1024 key valid for 400 days: rsa_key_size and maximum_certificate_lifespan', async () => {
    const now = Date.now()
    const s = await opensslServer({ cipher: `${INTERMEDIATE_SUITES}:@SECLEVEL=0`, leaf: { key: keyPair({ type: 'rsa', bits: 1024 }), notBefore: new Date(now - DAY), notAfter: new Date(now + 399 * DAY) } })
    const d = await analyze(t, s.target)
    expect(fields(d, 'intermediate')).toEqual(['maximum_certificate_lifespan', 'rsa_key_size'])
    expect(deviation(d, 'intermediate', 'rsa_key_size')).toMatchObject({ expected: 2048, seen: 1024 })
    expect(deviation(d, 'intermediate', 'maximum_certificate_lifespan')).toMatchObject({ expected: 366, seen: 400 })
    expect(d.certificate.public_key.bits).toBe(1024)
  }, 60_000)

  it('groups beyond the profile (OpenSSL 3 defaults: x448, secp521r1, ffdhe*): tls_curves lists them', async () => {
    const s = await opensslServer({ extra: [] })
    const d = await analyze(t, s.target)
    expect(fields(d, 'intermediate')).toEqual(['tls_curves'])
    const seen = deviation(d, 'intermediate', 'tls_curves')!.seen as string[]
    // s_client offering one group at a time on TLS 1.3: those it gets a handshake with, less the profile's three.
    const openssl: Record<string, string> = { x25519: 'X25519', x448: 'X448', secp256r1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521', ffdhe2048: 'ffdhe2048', ffdhe3072: 'ffdhe3072', ffdhe4096: 'ffdhe4096', ffdhe6144: 'ffdhe6144', ffdhe8192: 'ffdhe8192' }
    const accepted = Object.keys(openssl).filter((name) => sClientConnects(s.target, ['-tls1_3', '-groups', openssl[name]!]))
    expect(seen.slice().sort()).toEqual(accepted.filter((g) => !['x25519', 'secp256r1', 'secp384r1'].includes(g)).sort())
    expect(seen).toEqual(expect.arrayContaining(['x448', 'secp521r1', 'ffdhe2048']))
  }, 60_000)

  it('an ECDSA P-256 key, TLS 1.3 only, 60 days: modern misses the staple, and the RSA signature of the test CA over the key', async () => {
    const now = Date.now()
    const s = await opensslServer({ minProtocol: 'TLSv1.3', leaf: { key: keyPair({ type: 'ec', curve: 'P-256' }), notBefore: new Date(now - DAY), notAfter: new Date(now + 59 * DAY) } })
    const d = await analyze(t, s.target)
    // certificate_signatures is the issuer's signature on the certificate: the test PKI's issuing CA has an RSA key.
    expect(fields(d, 'modern')).toEqual(['certificate_signatures', 'ocsp_staple'])
    expect(deviation(d, 'modern', 'certificate_signatures')).toMatchObject({ expected: ['ecdsa-with-SHA256', 'ecdsa-with-SHA384'], seen: 'sha256WithRSAEncryption' })
    expect(d.certificate.public_key).toMatchObject({ type: 'EC', curve: 'P-256' })
    expect(fields(d, 'intermediate')).toEqual(['tls_versions'])
    expect(deviation(d, 'intermediate', 'tls_versions')!.message).toContain('does not offer TLSv1.2')
    expect(fields(d, 'old')).toEqual(['certificate_types', 'tls_versions'])
  }, 60_000)
})

describe('HSTS, judged on a host whose certificate is trusted', () => {
  async function hstsServer(n: number, hsts?: string): Promise<string> {
    const address = `127.0.0.${n}`
    const s = await startTlsServer({ address, leaf: leafFor(pki, address, { dns: [], ips: [address] }), chain: [pki.intermediate], minVersion: 'TLSv1.2', ciphers: INTERMEDIATE_SUITES, ...(hsts ? { hsts } : {}) })
    servers.push(s)
    return `${address}:${s.port}`
  }

  it('no Strict-Transport-Security header: hsts_min_age, seen null', async () => {
    const d = await analyze(t, await hstsServer(91))
    expect(d.hsts).toMatchObject({ checked: true, present: false })
    expect(deviation(d, 'intermediate', 'hsts_min_age')).toMatchObject({ expected: 31536000, seen: null })
    expect(deviation(d, 'intermediate', 'hsts_min_age')!.message).toContain('No Strict-Transport-Security header')
  }, 60_000)

  it('max-age=300: hsts_min_age, seen 300; a year is enough', async () => {
    const short = await analyze(t, await hstsServer(92, 'max-age=300'))
    expect(deviation(short, 'intermediate', 'hsts_min_age')).toMatchObject({ expected: 31536000, seen: 300 })
    const year = await analyze(t, await hstsServer(93, 'max-age=31536000'))
    expect(deviation(year, 'intermediate', 'hsts_min_age')).toBeUndefined()
    expect(profile(year, 'intermediate').not_checked).toEqual([])
  }, 60_000)
})

describe('where the profiles come from', () => {
  it('the document is loaded once (through the redirect of latest.json) and kept for later analyses', async () => {
    const s = await opensslServer()
    const before = fake.requests.length
    const a = await analyze(t, s.target)
    const b = await analyze(t, s.target)
    expect(fake.requests.length).toBe(before)
    expect(a.compliance.guidelines.fetched_at).toBe(b.compliance.guidelines.fetched_at)
    expect(fake.requests.slice(0, 2)).toEqual(['/guidelines/latest.json', '/guidelines/test-1.0.json'])
  }, 60_000)

  it('a file the operator provides wins over the URL', async () => {
    const app = await startTestApp({ ...BASE_ENV, INFRALENS_TLS_PROFILES_URL: `${fake.base}/guidelines/fail.json`, INFRALENS_TLS_PROFILES_FILE: TEST_GUIDELINES_FILE })
    apps.push(app)
    const d = await analyze(app, (await opensslServer()).target)
    expect(d.compliance.guidelines).toMatchObject({ version: 'test-1.0', source: TEST_GUIDELINES_FILE, source_kind: 'file' })
    expect(d.compliance.compliant_with).toEqual(['intermediate'])
  }, 60_000)

  it('a profiles file that is missing or not a guidelines document stops start-up, naming the setting', async () => {
    await expect(startTestApp({ INFRALENS_TLS_PROFILES_FILE: '/nonexistent/guidelines.json' })).rejects.toThrow(/INFRALENS_TLS_PROFILES_FILE=\/nonexistent\/guidelines.json: ENOENT/)
    await expect(startTestApp({ INFRALENS_TLS_PROFILES_FILE: join(ROOT, 'package.json') })).rejects.toThrow(/INFRALENS_TLS_PROFILES_FILE=.*package.json: the document is not in the guidelines schema/)
  })

  for (const [path, reason] of [
    ['fail.json', 'HTTP 500'],
    ['garbage.json', 'not JSON'],
    ['wrong.json', 'not in the guidelines schema: configurations: expected an object'],
  ] as const) {
    it(`${path}: compliance unavailable with the reason, the rest of the analysis as usual`, async () => {
      const app = await startTestApp({ ...BASE_ENV, INFRALENS_TLS_PROFILES_URL: `${fake.base}/guidelines/${path}` })
      apps.push(app)
      const d = await analyze(app, (await opensslServer()).target)
      expect(d.compliance).toMatchObject({ status: 'unavailable', guidelines: null, compliant_with: [], profiles: [] })
      expect(d.compliance.reason).toContain(reason)
      expect(d.compliance.reason).toContain(`${fake.base}/guidelines/${path}`)
      expect(d.grade_if_trusted).toBe('A')
      expect(d.protocols.filter((p: { supported: boolean }) => p.supported).map((p: { protocol: string }) => p.protocol)).toEqual(['TLSv1.2', 'TLSv1.3'])
      if (path === 'fail.json') {
        const only = await app.json(`/api/tls/compliance/${d.host}:${d.port}`)
        expect(only.status).toBe(503)
        expect(only.body.error).toMatchObject({ code: 'service_unavailable', details: { data: 'tls_profiles' } })
        expect(only.body.error.message).toContain('HTTP 500')
      }
    }, 60_000)
  }

})
