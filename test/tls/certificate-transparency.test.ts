import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readEntries, splitIdentities } from '../../plugins/ct/ct-entries.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeCrtsh } from '../support/fake-crtsh.ts'
import { startFakeCrtsh } from '../support/fake-crtsh.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

// /api/certificate-transparency against a loopback crt.sh replaying two recorded
// answers: example.com in the current JSON shape, dli.mn.gov in the 2020 shape
// (no common_name, no serial_number). INFRALENS_REQUEST_TIMEOUT_MS=3000 gives
// crt.sh 2 s.

let dns: LoopbackDns
let crtsh: FakeCrtsh
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns()
  crtsh = await startFakeCrtsh()
  // No cache here (faults must reach crt.sh every time); the caching test starts its own app.
  t = await startTestApp({ ...dns.env, ...crtsh.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_REQUEST_TIMEOUT_MS: '3000', INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_BREAKER_THRESHOLD: '1000' })
})
afterAll(async () => {
  await t.close()
  await crtsh.close()
  await dns.close()
})
beforeEach(() => crtsh.setFault(null))

async function ct(domain: string, query = '', app: TestApp = t) {
  return app.json(`/api/certificate-transparency/${domain}?format=json${query}`)
}

describe('the current crt.sh shape (example.com)', () => {
  it('entries merged into certificates by issuer and serial, names split and deduplicated', async () => {
    const res = await t.json('/api/certificate-transparency/example.com')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(d).toMatchObject({ domain: 'example.com', schema: 'current', log_entries: 23, skipped_entries: 0, expired_included: true, include_subdomains: false })
    // 23 log entries (precertificate + certificate, some in several logs) are 15 certificates.
    expect(d.certificate_count).toBe(15)
    const latest = d.certificates.find((c: { serial_number: string }) => c.serial_number === '0c1fcb184518c7e3866741236d6b73f1')
    expect(latest).toMatchObject({
      serial_number: '0c1fcb184518c7e3866741236d6b73f1',
      common_name: 'www.example.org',
      names: ['example.com', 'www.example.com'],
      issuer: { name: 'C=US, O=DigiCert Inc, CN=DigiCert TLS RSA SHA256 2020 CA1', organization: 'DigiCert Inc', common_name: 'DigiCert TLS RSA SHA256 2020 CA1', ca_id: 185756 },
      not_before: '2023-01-13T00:00:00.000Z',
      not_after: '2024-02-13T23:59:59.000Z',
      expired: true,
      crtsh_ids: [8396709327, 8913351873],
      first_logged: '2023-01-13T13:18:21.987Z',
      log_entries: 2,
    })
    expect(d.names).toEqual(expect.arrayContaining(['*.example.com', 'example.com', 'm.example.com', 'www.example.com']))
    expect(new Set(d.names).size).toBe(d.names.length)
    expect(d.names.every((name: string) => name === name.toLowerCase() && !name.includes('@'))).toBe(true)
    // Identities that are not DNS names are kept apart.
    const mail = d.certificates.find((c: { other_identities: string[] }) => c.other_identities.includes('subjectname@example.com'))
    expect(mail.names).toEqual([])
    // issuer_ca_id -1 means unknown.
    expect(d.certificates.find((c: { serial_number: string }) => c.serial_number === '1ac1e693c87d36563a92ca145c87bbc26fd49f4c').issuer.ca_id).toBeNull()
    expect(d.issuers[0]).toMatchObject({ organization: 'DigiCert Inc', certificate_count: expect.any(Number) })
    // Newest first.
    const starts = d.certificates.map((c: { not_before: string }) => c.not_before)
    expect([...starts].sort().reverse()).toEqual(starts)
    expect(crtsh.log.at(-1)).toMatchObject({ q: 'example.com', output: 'json', exclude: null })
  })

  it('?expired=false: only certificates valid now (and crt.sh is asked to leave the rest out)', async () => {
    crtsh.serve('expiry.test', [
      { issuer_ca_id: 1, issuer_name: 'C=US, O=Test CA, CN=Test CA 1', common_name: 'expiry.test', name_value: 'expiry.test', id: 1, entry_timestamp: '2020-01-01T00:00:00', not_before: '2020-01-01T00:00:00', not_after: '2021-01-01T00:00:00', serial_number: '01' },
      { issuer_ca_id: 1, issuer_name: 'C=US, O=Test CA, CN=Test CA 1', common_name: 'expiry.test', name_value: 'expiry.test\nWWW.expiry.test', id: 2, entry_timestamp: null, not_before: '2026-01-01T00:00:00', not_after: '2099-01-01T00:00:00', serial_number: '02' },
    ])
    const all = (await ct('expiry.test')).body.data
    expect(all.certificate_count).toBe(2)
    const res = await ct('expiry.test', '&expired=false')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ expired_included: false, certificate_count: 1, names: ['expiry.test', 'www.expiry.test'] })
    expect(res.body.data.certificates[0]).toMatchObject({ serial_number: '02', expired: false, first_logged: null })
    expect(crtsh.log.at(-1)).toMatchObject({ q: 'expiry.test', exclude: 'expired' })
    expect((await ct('expiry.test', '&expired=maybe')).status).toBe(400)
  })

  it('?include_subdomains=true asks crt.sh for %.domain', async () => {
    const res = await ct('example.com', '&include_subdomains=true')
    expect(res.status).toBe(200)
    expect(res.body.data.include_subdomains).toBe(true)
    expect(crtsh.log.at(-1)!.q).toBe('%.example.com')
  })

  it('no entries: 200 with nothing', async () => {
    const res = await ct('nothing.test')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ certificate_count: 0, certificates: [], names: [], log_entries: 0 })
  })
})

describe('the 2020 crt.sh shape (dli.mn.gov, no common_name or serial_number)', () => {
  it('is read too: entries merged by issuer, validity and names', async () => {
    const res = await t.json('/api/certificate-transparency/dli.mn.gov')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(d).toMatchObject({ schema: 'legacy', log_entries: 30, skipped_entries: 0 })
    expect(d.certificate_count).toBeLessThan(30)
    expect(d.certificates.every((c: { serial_number: unknown; common_name: unknown }) => c.serial_number === null && c.common_name === null)).toBe(true)
    const first = d.certificates[0]
    expect(first).toMatchObject({ names: ['remote.dli.mn.gov', 'www.remote.dli.mn.gov'], log_entries: 2, issuer: { organization: 'Sectigo Limited', ca_id: 105492 } })
    expect(d.names).toEqual(expect.arrayContaining(['dli.mn.gov', 'www.dli.mn.gov', 'intranet.dli.mn.gov', 'remote.dli.mn.gov']))
  })

  it('the shape detection and the identity split, directly', () => {
    expect(readEntries([{ id: 1, issuer_ca_id: 2, issuer_name: 'CN=x', name_value: 'a.test', not_before: '2020-01-01T00:00:00', not_after: '2021-01-01T00:00:00' }]).schema).toBe('legacy')
    expect(readEntries([{ id: 1, name_value: 'a', not_before: 'garbage', not_after: '2021-01-01' }, 'nonsense', null]).skipped).toBe(3)
    expect(splitIdentities('A.Test\n*.a.test\nuser@a.test\nAS1 Test - a.test\na.test.')).toEqual({ dns: ['*.a.test', 'a.test'], other: ['AS1 Test - a.test', 'user@a.test'] })
  })
})

describe('crt.sh failing: 502 upstream_error with upstream "crtsh" and the reason', () => {
  async function failure(query: string) {
    const res = await ct('example.com', query)
    expect(res.status, JSON.stringify(res.body)).toBe(502)
    expect(res.body.error.code).toBe('upstream_error')
    expect(res.body.error.details.upstream).toBe('crtsh')
    return res.body.error
  }

  it('never answering: timeout, within crt.sh’s share of the deadline', async () => {
    crtsh.setFault({ kind: 'timeout' })
    const started = Date.now()
    const e = await failure('')
    expect(e.details.reason).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(2900)
  })

  it('answering too slowly: timeout; slow but in time: 200', async () => {
    crtsh.setFault({ kind: 'slow', ms: 2500 })
    expect((await failure('')).details.reason).toBe('timeout')
    crtsh.setFault({ kind: 'slow', ms: 300 })
    const res = await ct('example.com')
    expect(res.status).toBe(200)
    expect(res.body.data.certificate_count).toBe(15)
  })

  it.each([500, 502, 503, 429])('HTTP %i: http_error with the status', async (status) => {
    crtsh.setFault({ kind: 'status', status })
    expect((await failure('')).details).toMatchObject({ reason: 'http_error', status })
  })

  it('an HTML page with 200, JSON cut off, JSON that is not a list: bad_response', async () => {
    crtsh.setFault({ kind: 'garbage' })
    expect((await failure('')).details).toMatchObject({ reason: 'bad_response', content_type: 'text/html' })
    crtsh.setFault({ kind: 'truncated' })
    expect((await failure('')).details.reason).toBe('bad_response')
    crtsh.setFault({ kind: 'garbage', body: '{"error":"x"}', contentType: 'application/json' })
    expect((await failure('')).details.reason).toBe('bad_response')
    crtsh.setFault({ kind: 'garbage', body: '[{"what":1},{"id":"x"}]', contentType: 'application/json' })
    expect((await failure('')).details.reason).toBe('bad_response')
  })

  it('a reset connection: 502', async () => {
    crtsh.setFault({ kind: 'reset' })
    expect((await failure('')).details.reason).toMatch(/reset|network/)
  })
})

describe('caching', () => {
  it('answers are cached: crt.sh is asked once per input', async () => {
    const cached = await startTestApp({ ...dns.env, ...crtsh.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_REQUEST_TIMEOUT_MS: '3000' })
    try {
      const before = crtsh.log.length
      const first = await ct('dli.mn.gov', '', cached)
      const second = await ct('dli.mn.gov', '&format=json', cached)
      expect(first.body.meta.cache).toBe('miss')
      expect(second.body.meta.cache).toBe('hit')
      expect(second.body.data).toEqual(first.body.data)
      expect(crtsh.log.length).toBe(before + 1)
      // A different input is a different entry.
      expect((await ct('dli.mn.gov', '&expired=false', cached)).body.meta.cache).toBe('miss')
    } finally {
      await cached.close()
    }
  })
})
