import { readFileSync } from 'node:fs'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineFixedClock } from '../../runtime/clock.ts'
import { createGuardedNetwork } from '../../runtime/net/guarded-network.ts'
import type { ComplianceFacts } from '../../plugins/tls/profiles/compliance.ts'
import { checkProfile } from '../../plugins/tls/profiles/compliance.ts'
import type { Profile } from '../../plugins/tls/profiles/guidelines.ts'
import { parseGuidelines } from '../../plugins/tls/profiles/guidelines.ts'
import { defineProfileStore } from '../../plugins/tls/profiles/profile-store.ts'
import type { FakeTlsProfiles } from '../support/fake-tls-profiles.ts'
import { startFakeTlsProfiles, TEST_GUIDELINES_FILE } from '../support/fake-tls-profiles.ts'

// The parts of profile compliance no s_server shows cheaply (profiles.test.ts
// has the servers): each field against facts written here, the reading of the
// guidelines document, and the document's loading (guard, retry, keeping a
// day). The profiles are the document written for the tests (not Mozilla's).

const doc = parseGuidelines(readFileSync(TEST_GUIDELINES_FILE, 'utf8'))
const byName = (name: string) => doc.profiles.find((p) => p.name === name)!

/** An intermediate-compliant server, as facts. */
const GOOD: ComplianceFacts = {
  protocols: ['TLSv1.2', 'TLSv1.3'],
  suites: [
    { protocol: 'TLSv1.3', name: 'TLS_AES_128_GCM_SHA256', openssl_name: 'TLS_AES_128_GCM_SHA256', server_preference: null },
    { protocol: 'TLSv1.2', name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', openssl_name: 'ECDHE-RSA-AES128-GCM-SHA256', server_preference: null },
  ],
  groups: ['x25519', 'secp256r1'],
  dh_bits: null,
  dhe_suites: false,
  leaf: { type: 'RSA', bits: 2048, curve: null, signature: 'sha256WithRSAEncryption', validity_days: 90 },
  ocsp_stapled: false,
  hsts: { checked: true, reason: null, present: true, max_age: 63072000 },
}

const fieldsOf = (p: Profile, f: ComplianceFacts) => checkProfile(p, f).deviations.map((d) => d.field).sort()

describe('the guidelines document', () => {
  it('reads the three profiles, the version and href', () => {
    expect(doc.version).toBe('test-1.0')
    expect(doc.href).toBe('http://guidelines.tls.test/test-1.0.json')
    expect(doc.profiles.map((p) => p.name)).toEqual(['modern', 'intermediate', 'old'])
    expect(byName('modern')).toMatchObject({ tls_versions: ['TLSv1.3'], rsa_key_size: null, ocsp_staple: true, unjudged: [] })
  })

  it('a numeric version is kept as written; fields a version lacks are listed, not judged; unknown fields and profiles are ignored', () => {
    const g = parseGuidelines(JSON.stringify({ version: 4, configurations: { intermediate: { tls_versions: ['TLSv1.2'], future_field: 1 }, paranoid: {} } }))
    expect(g.version).toBe('4')
    expect(g.href).toBeNull()
    expect(g.profiles.map((p) => p.name)).toEqual(['intermediate'])
    const r = checkProfile(g.profiles[0]!, GOOD)
    expect(r.deviations.map((d) => d.field)).toEqual(['tls_versions'])
    expect(r.not_checked.map((n) => n.field)).toContain('hsts_min_age')
    expect(r.not_checked.find((n) => n.field === 'ciphers')!.reason).toBe('not in this version of the guidelines')
  })

  it('a field in a form this code does not read (a later version may change one) is not judged, and says why; the others are', () => {
    const g = parseGuidelines(JSON.stringify({ version: '6.0', configurations: { intermediate: { tls_versions: 'TLSv1.2', rsa_key_size: 2048, ciphers: {} } } }))
    const r = checkProfile(g.profiles[0]!, { ...GOOD, leaf: { ...GOOD.leaf, bits: 1024 } })
    expect(r.deviations.map((d) => d.field)).toEqual(['rsa_key_size'])
    expect(r.not_checked).toContainEqual({ field: 'tls_versions', reason: 'unreadable in this document: tls_versions: Invalid input: expected array, received string' })
    expect(r.not_checked).toContainEqual({ field: 'ciphers', reason: 'the document lists neither ciphers.iana nor ciphers.openssl' })
  })

  it('a document with modern and intermediate only (as Mozilla 6.0 has): those two', () => {
    const g = parseGuidelines(JSON.stringify({ version: 6, configurations: { modern: { tls_versions: ['TLSv1.3'] }, intermediate: { tls_versions: ['TLSv1.2', 'TLSv1.3'] } } }))
    expect(g.profiles.map((p) => p.name)).toEqual(['modern', 'intermediate'])
  })

  it.each([
    ['not JSON', '{', 'not JSON'],
    ['no profile', '{"version":1,"configurations":{}}', 'none of the profiles modern, intermediate, old'],
    ['no configurations', '{"version":1}', 'configurations'],
    ['configurations a list', '{"version":1,"configurations":["old"]}', 'configurations: expected an object'],
    ['a profile that is no object', '{"version":1,"configurations":{"old":true}}', 'configurations.old is not an object'],
    ['no version', '{"configurations":{"old":{}}}', 'version'],
    ['a proto key', '{"version":1,"configurations":{"__proto__":{"tls_versions":["x"]}}}', 'none of the profiles'],
  ])('%s: an error saying what is wrong', (_, text, message) => {
    expect(() => parseGuidelines(text)).toThrow(message)
  })
})

describe('each field', () => {
  const intermediate = byName('intermediate')
  const old = byName('old')
  const modern = byName('modern')

  it('a compliant server: no deviation, nothing unchecked', () => {
    expect(checkProfile(intermediate, GOOD)).toEqual({ profile: 'intermediate', compliant: true, deviations: [], not_checked: [], oldest_clients: ['Test browser 30'] })
  })

  it('TLS 1.3 suites outside ciphersuites', () => {
    const f = { ...GOOD, suites: [...GOOD.suites, { protocol: 'TLSv1.3', name: 'TLS_AES_128_CCM_SHA256', openssl_name: 'TLS_AES_128_CCM_SHA256', server_preference: null }] }
    expect(checkProfile(intermediate, f).deviations).toEqual([
      { profile: 'intermediate', field: 'ciphersuites', expected: intermediate.ciphersuites, seen: ['TLS_AES_128_CCM_SHA256'], message: 'TLS 1.3 suites not in intermediate: TLS_AES_128_CCM_SHA256.' },
    ])
  })

  it('ciphers by OpenSSL name when the document has no IANA names', () => {
    const p: Profile = { ...intermediate, ciphers_iana: null }
    const f = { ...GOOD, suites: [...GOOD.suites, { protocol: 'TLSv1.2', name: 'TLS_RSA_WITH_AES_128_GCM_SHA256', openssl_name: 'AES128-GCM-SHA256', server_preference: null }] }
    expect(checkProfile(p, f).deviations).toMatchObject([{ field: 'ciphers', seen: ['AES128-GCM-SHA256'] }])
  })

  it('an ECDSA key on P-521 against certificate_curves (prime256v1 and P-256 are one curve)', () => {
    const ec = (curve: string) => ({ ...GOOD, leaf: { ...GOOD.leaf, type: 'EC', bits: curve === 'P-521' ? 521 : 256, curve, signature: 'ecdsa-with-SHA256' } })
    expect(fieldsOf(intermediate, ec('P-256'))).toEqual([])
    expect(checkProfile(intermediate, ec('P-521')).deviations).toMatchObject([{ field: 'certificate_curves', expected: ['prime256v1', 'secp384r1'], seen: 'P-521' }])
    expect(fieldsOf(old, ec('P-256'))).toEqual(['certificate_signatures', 'certificate_types', 'tls_versions'])
  })

  it('dh_param_size: the TLS 1.2 DHE group and TLS 1.3 ffdhe groups; unknown size with DHE suites is not checked', () => {
    expect(checkProfile(intermediate, { ...GOOD, dh_bits: 1024, dhe_suites: true }).deviations).toMatchObject([{ field: 'dh_param_size', expected: 2048, seen: 1024 }])
    expect(fieldsOf(old, { ...GOOD, protocols: old.tls_versions!.map((v) => (v === 'TLSv1' ? 'TLSv1.0' : v)), dh_bits: 1024, dhe_suites: true })).not.toContain('dh_param_size')
    const r = checkProfile(intermediate, { ...GOOD, dhe_suites: true })
    expect(r.deviations).toEqual([])
    expect(r.not_checked).toEqual([{ field: 'dh_param_size', reason: 'DHE suites are accepted but no handshake showed the group size' }])
    // modern has dh_param_size null: a DHE group is judged by tls_curves, not by size.
    expect(fieldsOf(modern, { ...GOOD, protocols: ['TLSv1.3'], suites: [GOOD.suites[0]!], groups: ['x25519', 'ffdhe2048'], leaf: { ...GOOD.leaf, type: 'EC', curve: 'P-256', bits: 256, signature: 'ecdsa-with-SHA256' }, ocsp_stapled: true })).toEqual(['tls_curves'])
  })

  it('ecdh_param_size: curves under it (X25519 counts as 256)', () => {
    const r = checkProfile(intermediate, { ...GOOD, groups: ['x25519', 'secp224r1', 'secp256r1'] })
    expect(r.deviations.find((d) => d.field === 'ecdh_param_size')).toMatchObject({ expected: 256, seen: ['secp224r1'] })
  })

  it('hsts_min_age: absent, short, not checked over STARTTLS', () => {
    expect(checkProfile(intermediate, { ...GOOD, hsts: { checked: true, reason: null, present: false, max_age: null } }).deviations).toMatchObject([{ field: 'hsts_min_age', seen: null }])
    expect(checkProfile(intermediate, { ...GOOD, hsts: { checked: true, reason: null, present: true, max_age: 86400 } }).deviations).toMatchObject([{ field: 'hsts_min_age', seen: 86400 }])
    const starttls = checkProfile(intermediate, { ...GOOD, hsts: { checked: false, reason: 'not checked: HSTS is an HTTP header, and this is smtp over STARTTLS', present: false, max_age: null } })
    expect(starttls.compliant).toBe(true)
    expect(starttls.not_checked).toEqual([{ field: 'hsts_min_age', reason: 'not checked: HSTS is an HTTP header, and this is smtp over STARTTLS' }])
  })

  it('ocsp_staple only when the profile asks; server_preferred_order only when it asks', () => {
    expect(fieldsOf(modern, { ...GOOD, ocsp_stapled: true })).not.toContain('ocsp_staple')
    expect(fieldsOf(modern, GOOD)).toContain('ocsp_staple')
    const clientOrder = { ...GOOD, suites: GOOD.suites.map((s) => ({ ...s, server_preference: s.protocol === 'TLSv1.2' ? false : null })) }
    expect(fieldsOf(intermediate, clientOrder)).toEqual([])
    expect(checkProfile(old, clientOrder).deviations.find((d) => d.field === 'server_preferred_order')).toMatchObject({ seen: false, message: "The client's suite order decides on TLSv1.2; old wants the server's." })
  })
})

describe('loading the document', () => {
  let fake: FakeTlsProfiles
  const log = pino({ level: 'silent' })
  beforeAll(async () => {
    fake = await startFakeTlsProfiles()
  })
  afterAll(() => fake?.close())

  const network = (allowLoopback: boolean) => createGuardedNetwork({ policy: { allowLoopback }, lookup: async () => [] })

  it('a loopback URL without the private-targets override is refused by the guard: never asked', async () => {
    const store = defineProfileStore({ source: { url: fake.url, file: undefined }, network: network(false), log, now: () => 0, timeoutMs: 2000 })
    const before = fake.requests.length
    const answer = await store.get(new AbortController().signal)
    expect(answer.ok).toBe(false)
    expect(answer.ok ? '' : answer.reason).toContain(fake.url)
    expect(fake.requests.length).toBe(before)
  })

  it('a failure is not retried for five minutes; a day later the document is read again, and a failed refresh keeps it', async () => {
    const clock = defineFixedClock('2026-11-26T12:00:00Z')
    const doc = `${fake.base}/guidelines/test-1.0.json`
    const store = defineProfileStore({ source: { url: doc, file: undefined }, network: network(true), log, now: clock.now, timeoutMs: 2000 })
    const signal = new AbortController().signal
    const asked = () => fake.requests.filter((p) => p === '/guidelines/test-1.0.json').length
    const before = asked()
    fake.failing = true
    try {
      expect(await store.get(signal)).toMatchObject({ ok: false, reason: `the TLS profiles could not be loaded from ${doc}: ${doc} answered HTTP 503` })
      fake.failing = false
      clock.advance(4 * 60_000)
      expect((await store.get(signal)).ok).toBe(false)
      expect(asked()).toBe(before + 1)
      clock.advance(61_000)
      expect(await store.get(signal)).toMatchObject({ ok: true, refresh_error: null, loaded: { fetched_at: '2026-11-26T12:05:01.000Z', source_kind: 'url', source: doc } })
      expect(asked()).toBe(before + 2)
      clock.advance(60 * 60_000)
      expect((await store.get(signal)).ok).toBe(true)
      expect(asked()).toBe(before + 2)
      fake.failing = true
      clock.advance(86_400_000)
      expect(await store.get(signal)).toMatchObject({ ok: true, loaded: { fetched_at: '2026-11-26T12:05:01.000Z' }, refresh_error: expect.stringContaining('HTTP 503') })
      expect(asked()).toBe(before + 3)
    } finally {
      fake.failing = false
    }
  })

  it('a redirect to anything but http(s) is not followed', async () => {
    const url = `${fake.base}/guidelines/to-file.json`
    const store = defineProfileStore({ source: { url, file: undefined }, network: network(true), log, now: () => 0, timeoutMs: 2000 })
    expect(await store.get(new AbortController().signal)).toEqual({ ok: false, reason: `the TLS profiles could not be loaded from ${url}: ${url} redirects to file: (only http and https are followed)` })
  })

  it('concurrent analyses share one load', async () => {
    const store = defineProfileStore({ source: { url: `${fake.base}/guidelines/test-1.0.json`, file: undefined }, network: network(true), log, now: () => 0, timeoutMs: 2000 })
    const before = fake.requests.length
    const answers = await Promise.all(Array.from({ length: 5 }, () => store.get(new AbortController().signal)))
    expect(answers.every((a) => a.ok)).toBe(true)
    expect(fake.requests.length).toBe(before + 1)
  })
})
