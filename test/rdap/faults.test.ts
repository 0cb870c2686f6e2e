import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { startFakeRdap } from '../support/fake-rdap.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

// Every way an RDAP server can fail, and the 502 envelope that reports it.
// INFRALENS_REQUEST_TIMEOUT_MS=3000 gives each RDAP exchange 1 s.

let dns: LoopbackDns
let rdap: FakeRdap
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns()
  rdap = await startFakeRdap()
  t = await startTestApp({ ...dns.env, ...rdap.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_REQUEST_TIMEOUT_MS: '3000' })
  // Load the bootstrap files first, so faults below hit the registries.
  for (const path of ['/api/domain/registrar/google.com', '/api/whois/ip/1.1.1.1', '/api/asn/AS13335']) expect((await t.json(path)).status).toBe(200)
})
afterAll(async () => {
  await t.close()
  await rdap.close()
  await dns.close()
})
beforeEach(() => rdap.setFault(null))

async function upstreamError(path: string) {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(502)
  expect(res.body).toMatchObject({ success: false, error: { code: 'upstream_error' } })
  expect(res.body).not.toHaveProperty('data')
  expect(res.body.error.details.upstream).toBe('rdap')
  return res.body.error
}

describe('registry failures -> 502 upstream_error with upstream "rdap" and the reason', () => {
  it('429 with Retry-After: http_error, status 429, retry_after passed on', async () => {
    rdap.setFault({ kind: 'status', status: 429, retryAfter: '30' })
    const e = await upstreamError('/api/domain/registrar/google.com')
    expect(e.details).toMatchObject({ reason: 'http_error', status: 429, retry_after: '30', url: `${rdap.origin}/rdap.verisign.com/com/v1/domain/google.com` })
    expect(e.message).toMatch(/rate limiting/)
  })

  it.each([500, 502, 503])('HTTP %i: http_error with the status', async (status) => {
    rdap.setFault({ kind: 'status', status })
    const e = await upstreamError('/api/whois/ip/1.1.1.1')
    expect(e.details).toMatchObject({ reason: 'http_error', status })
  })

  it('403 and other refusals are the upstream\'s failure too (the input was validated)', async () => {
    rdap.setFault({ kind: 'status', status: 403, body: 'forbidden' })
    expect((await upstreamError('/api/asn/AS13335')).details).toMatchObject({ reason: 'http_error', status: 403 })
  })

  it('black hole: timeout within the RDAP deadline, not the request deadline (no 504)', async () => {
    rdap.setFault({ kind: 'timeout' })
    const started = Date.now()
    const e = await upstreamError('/api/domain/age/google.com')
    const took = Date.now() - started
    expect(e.details).toMatchObject({ reason: 'timeout' })
    expect(took).toBeGreaterThanOrEqual(900)
    expect(took).toBeLessThan(2500)
  })

  it('non-JSON (an HTML error page with 200): bad_response with status and content type', async () => {
    rdap.setFault({ kind: 'garbage' })
    const e = await upstreamError('/api/domain/whois/google.com')
    expect(e.details).toMatchObject({ reason: 'bad_response', status: 200, content_type: 'text/html' })
  })

  it('JSON that is not an object, and truncated JSON: bad_response', async () => {
    rdap.setFault({ kind: 'garbage', body: '[1,2,3]', contentType: 'application/rdap+json' })
    expect((await upstreamError('/api/asn/13335')).details.reason).toBe('bad_response')
    rdap.setFault({ kind: 'garbage', body: '{"objectClassName": "autnum", "handle": "AS1', contentType: 'application/rdap+json' })
    expect((await upstreamError('/api/asn/13335')).details.reason).toBe('bad_response')
  })

  it('connection reset: reason reset', async () => {
    rdap.setFault({ kind: 'reset' })
    expect((await upstreamError('/api/whois/ip/1.1.1.1')).details.reason).toBe('reset')
  })

  it('redirect loops and redirects without a Location are bad responses', async () => {
    rdap.setFault({ kind: 'redirect', location: '/rdap.apnic.net/ip/1.1.1.1' })
    const loop = await upstreamError('/api/whois/ip/1.1.1.1')
    expect(loop.details.reason).toBe('bad_response')
    expect(loop.message).toMatch(/redirect/i)
    rdap.setFault({ kind: 'redirect', location: 'mailto:noc@example.net' })
    expect((await upstreamError('/api/whois/ip/1.1.1.1')).details.reason).toBe('bad_response')
  })

  it('a 200 carrying an RDAP error body is read by its errorCode', async () => {
    rdap.setFault({ kind: 'status', status: 200, body: JSON.stringify({ errorCode: 404, title: 'Not Found' }) })
    expect((await t.json('/api/asn/13335')).status).toBe(404)
    rdap.setFault({ kind: 'status', status: 200, body: JSON.stringify({ errorCode: 500, title: 'Internal' }) })
    expect((await upstreamError('/api/asn/13335')).details).toMatchObject({ reason: 'http_error', status: 500 })
  })

  it('a fault that clears: the next request answers (errors are not cached)', async () => {
    rdap.setFault({ fault: { kind: 'status', status: 503 }, times: 1 })
    await upstreamError('/api/whois/ip/1.1.1.1')
    expect((await t.json('/api/whois/ip/1.1.1.1')).status).toBe(200)
  })

  it('the 502 is logged with upstream and reason', async () => {
    rdap.setFault({ kind: 'status', status: 500 })
    await upstreamError('/api/asn/AS13335')
    // Access lines are written in batches: wait for this request's, not an earlier test's 502.
    const mine = () => t.logs.findLast((l) => l.status === 502 && l.path === '/api/asn/AS13335')
    for (let i = 0; i < 100 && !mine(); i++) await new Promise((r) => setTimeout(r, 20))
    const entry = mine()
    expect(entry).toMatchObject({ error: { code: 'upstream_error', upstream: 'rdap', reason: 'http_error' } })
  })
})

describe('bootstrap failures', () => {
  it.each([
    ['HTTP 500', { kind: 'status', status: 500 }],
    ['garbage', { kind: 'garbage' }],
    ['a black hole', { kind: 'timeout' }],
  ] as const)('%s: the bundled snapshot is used (its servers are real hosts, unreachable from the test DNS)', async (_label, fault) => {
    const app = await startTestApp({ ...dns.env, ...rdap.env, INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_REQUEST_TIMEOUT_MS: '3000' })
    try {
      rdap.setFault({ fault, scope: 'bootstrap' })
      const res = await app.json('/api/domain/whois/google.com')
      // The snapshot sent the query to https://rdap.verisign.com/..., whose name the loopback resolver refuses.
      expect(res.status).toBe(502)
      expect(res.body.error.details).toMatchObject({ upstream: 'rdap', reason: 'network', url: 'https://rdap.verisign.com/com/v1/domain/google.com' })
      expect(app.logs.some((l) => l.msg === 'RDAP bootstrap unavailable; using the bundled snapshot' && l.kind === 'dns')).toBe(true)
      // a TLD the snapshot has no service for goes to WHOIS (issue 26); this world has no port-43 servers
      expect((await app.json('/api/domain/whois/example.invalidtld')).body.error.details).toMatchObject({ upstream: 'whois', whois_server: 'whois.iana.org:43' })
    } finally {
      await app.close()
    }
  })
})
