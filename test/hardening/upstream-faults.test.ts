import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { RdapFault } from '../support/fake-rdap.ts'
import type { RipestatFault } from '../support/fake-ripestat.ts'
import type { CrtshFault } from '../support/fake-crtsh.ts'
import type { WebRoute } from '../support/fake-web.ts'
import type { FaultWorld } from './fault-world.ts'
import { REQUEST_TIMEOUT_MS, mailDomain, policyDomain, startFaultWorld } from './fault-world.ts'
import type { TcpFault } from './faulty-tcp.ts'

// The fault matrix beyond DNS (dns-faults.test.ts): every upstream fake times out,
// resets, answers garbage, 5xx (where HTTP) or drips slowly, and every endpoint
// on it gives a defined answer within the request deadline — a 502 naming the
// upstream and the reason, or, where the endpoint degrades by design, the degraded
// answer — and the process stays healthy. Endpoints of one row run in parallel.

type Res = { status: number; body: Record<string, any>; ms: number; path: string }

let w: FaultWorld
beforeAll(async () => {
  w = await startFaultWorld()
  // The RDAP bootstrap files are loaded once; faults below hit the registries.
  for (const path of ['/api/domain/registrar/google.com', '/api/whois/ip/1.1.1.1', '/api/asn/AS13335']) expect((await w.t.json(path)).status).toBe(200)
}, 60_000)
afterAll(async () => {
  // no fault anywhere was answered with a 500
  const unhandled = w?.t.logs.filter((l) => l.msg === 'unhandled error')
  await w?.close()
  expect(unhandled).toEqual([])
})

async function get(path: string): Promise<Res> {
  const started = performance.now()
  const res = await w.t.json(path)
  return { status: res.status, body: res.body, ms: performance.now() - started, path }
}

/** The answer came within the request deadline (generously: the box is shared). */
function inTime(r: Res): void {
  expect(r.ms, r.path).toBeLessThan(REQUEST_TIMEOUT_MS + 1500)
}

function upstreamError(r: Res, upstream: string, reasons: readonly string[]): void {
  expect(r.status, `${r.path}: ${JSON.stringify(r.body)}`).toBe(502)
  expect(r.body).toMatchObject({ success: false, error: { code: 'upstream_error', details: { upstream } } })
  expect(reasons, `${r.path}: ${JSON.stringify(r.body.error)}`).toContain(r.body.error.details.reason)
  expect(typeof r.body.request_id).toBe('string')
  inTime(r)
}

async function healthy(path?: string): Promise<void> {
  expect((await w.t.json('/api/health')).status).toBe(200)
  if (path) expect((await w.t.json(path)).status, `${path} after the fault`).toBe(200)
}

describe('RDAP', () => {
  const rows: Array<[string, RdapFault, string]> = [
    ['timeout', { kind: 'timeout' }, 'timeout'],
    ['reset', { kind: 'reset' }, 'reset'],
    ['garbage', { kind: 'garbage' }, 'bad_response'],
    ['5xx', { kind: 'status', status: 503 }, 'http_error'],
    ['slow drip', { kind: 'drip', bytes: 1, intervalMs: 200 }, 'timeout'],
  ]
  const failing = ['/api/domain/whois/google.com', '/api/domain/registrar/google.com', '/api/domain/age/google.com', '/api/domain/nameservers/google.com', '/api/whois/ip/1.1.1.1', '/api/asn/AS13335']
  for (const [name, fault, reason] of rows) {
    it(`${name}: 502 rdap/${reason} from every RDAP endpoint; domain intelligence degrades`, async () => {
      w.rdap.setFault(fault)
      try {
        const [intel, ...errors] = await Promise.all(['/api/domain/intelligence/google.com', ...failing].map(get))
        for (const r of errors) upstreamError(r, 'rdap', [reason])
        expect(intel!.status).toBe(200)
        expect(intel!.body.data.registration).toBeNull()
        expect(intel!.body.data.errors).toEqual([expect.objectContaining({ part: 'rdap' })])
        // the parts from DNS are still there
        expect(intel!.body.data.nameservers.dns).toContain('ns1.google.com')
        inTime(intel!)
      } finally {
        w.rdap.setFault(null)
      }
      await healthy('/api/domain/registrar/google.com')
    })
  }
})

describe('RIPEstat', () => {
  const rows: Array<[string, RipestatFault, string]> = [
    ['timeout', { kind: 'timeout' }, 'timeout'],
    ['reset', { kind: 'reset' }, 'reset'],
    ['garbage', { kind: 'garbage' }, 'bad_response'],
    ['5xx', { kind: 'status', status: 503 }, 'http_error'],
    ['slow drip', { kind: 'drip', bytes: 1, intervalMs: 200 }, 'timeout'],
  ]
  for (const [name, fault, reason] of rows) {
    it(`${name}: 502 ripestat/${reason} from the BGP and RPKI endpoints; ASN and network intelligence degrade`, async () => {
      w.ripestat.setFault(fault)
      try {
        const [asn, intel, ...errors] = await Promise.all(['/api/asn/AS13335', '/api/network/intelligence/8.8.8.8', '/api/bgp/prefix/193.0.0.0/21', '/api/bgp/asn/AS3333', '/api/rpki/193.0.0.0/21'].map(get))
        for (const r of errors) upstreamError(r, 'ripestat', [reason])
        // /api/asn: the registry part (RDAP) answers; the routing parts name RIPEstat's failure
        expect(asn!.status).toBe(200)
        expect(asn!.body.data.asn).toBe(13335)
        expect(asn!.body.data.routing).toMatchObject({ prefixes: null, neighbours: null })
        expect(asn!.body.data.errors.length).toBeGreaterThan(0)
        for (const e of asn!.body.data.errors) expect(e).toMatchObject({ upstream: 'ripestat', reason })
        inTime(asn!)
        expect(intel!.status).toBe(200)
        expect(intel!.body.data.errors).toContainEqual(expect.objectContaining({ part: 'bgp', upstream: 'ripestat', reason }))
        inTime(intel!)
      } finally {
        w.ripestat.setFault(null)
      }
      await healthy('/api/bgp/prefix/193.0.0.0/21')
    })
  }
})

describe('crt.sh', () => {
  const rows: Array<[string, CrtshFault, string]> = [
    ['timeout', { kind: 'timeout' }, 'timeout'],
    ['reset', { kind: 'reset' }, 'reset'],
    ['garbage', { kind: 'garbage' }, 'bad_response'],
    ['truncated JSON', { kind: 'truncated' }, 'bad_response'],
    ['5xx', { kind: 'status', status: 503 }, 'http_error'],
    ['slow drip', { kind: 'drip', bytes: 1, intervalMs: 200 }, 'timeout'],
  ]
  for (const [name, fault, reason] of rows) {
    it(`${name}: 502 crtsh/${reason}`, async () => {
      w.crtsh.setFault(fault)
      try {
        upstreamError(await get('/api/certificate-transparency/example.com'), 'crtsh', [reason])
      } finally {
        w.crtsh.setFault(null)
      }
      await healthy('/api/certificate-transparency/example.com')
    })
  }
})

describe('web sites (HTTP/1.1 and HTTP/2 over TLS, plain http)', () => {
  const PATHS = ['/', '/robots.txt', '/.well-known/security.txt']
  const rows: Array<[string, WebRoute, string | null]> = [
    ['timeout', { hang: true }, 'timeout'],
    ['reset', { fault: 'reset' }, 'reset'],
    ['garbage', { fault: 'garbage' }, 'bad_response'],
    ['slow drip', { fault: 'drip', dripMs: 200 }, 'timeout'],
    ['5xx', { status: 503, body: 'down for maintenance' }, null],
  ]
  const endpoints = (site: 'h1' | 'h2') => {
    const fake = site === 'h1' ? w.h1 : w.h2
    const https = encodeURIComponent(`https://${site}.faults.test:${fake.httpsPort}/`)
    const http = encodeURIComponent(`http://${site}.faults.test:${fake.httpPort}/`)
    return [
      `/api/web/headers/${https}`,
      `/api/web/headers/${http}`,
      `/api/web/redirects/${https}`,
      `/api/web/robots/${https}`,
      `/api/web/security-headers/${https}`,
      `/api/security/security-txt/${site}.faults.test:${fake.httpsPort}`,
    ]
  }
  for (const site of ['h1', 'h2'] as const) {
    for (const [name, route, reason] of rows) {
      it(`${site} ${name}: ${reason ? `502 web/${reason}` : 'the site\'s own 5xx, reported'} on every web endpoint`, async () => {
        const fake = site === 'h1' ? w.h1 : w.h2
        for (const p of PATHS) fake.route(`*${p}`, route)
        try {
          const answers = await Promise.all(endpoints(site).map(get))
          if (reason) {
            // HTTP/2 has no room for raw garbage: its fake ends the session with PROTOCOL_ERROR,
            // which the client reports as the connection dropping.
            const reasons = site === 'h2' && name === 'garbage' ? ['bad_response', 'reset'] : [reason]
            for (const r of answers) upstreamError(r, 'web', reasons)
            return
          }
          // A 503 from a site is what the site answered: reported, not an upstream failure.
          for (const r of answers) {
            expect(r.status, r.path).toBe(200)
            inTime(r)
          }
          const [headers, plain, redirects, robots, security, securityTxt] = answers.map((r) => r.body.data)
          expect(headers.status).toBe(503)
          expect(plain.status).toBe(503)
          expect(redirects).toMatchObject({ final_status: 503 })
          expect(robots.status).toBe(503)
          expect(security.status).toBe(503)
          expect(securityTxt).toMatchObject({ found: false, status: 503 })
        } finally {
          for (const p of PATHS) fake.route(`*${p}`, { status: 404, body: 'not found' })
        }
        await healthy()
      })
    }
  }
})

describe('TLS targets', () => {
  const rows: Array<[TcpFault, string]> = [
    ['hang', 'timeout'],
    ['reset', 'reset'],
    ['garbage', 'bad_response'],
    ['drip', 'timeout'],
  ]
  for (const [fault, reason] of rows) {
    // The cipher scan included: a dropped hello alone reads as "not these suites" (servers do
    // close on hellos they refuse), but a port that answers not one hello in TLS is no TLS server.
    it(`${fault}: 502 tls/${reason} from the handshake endpoints and the cipher scan alike`, async () => {
      w.tls.setFault(fault)
      const target = `tls.faults.test:${w.tls.port}`
      const answers = await Promise.all([`/api/tls/${target}`, `/api/tls/certificate/${target}`, `/api/tls/ciphers/${target}`, `/api/tls/analyze/${target}`].map(get))
      for (const r of answers) upstreamError(r, 'tls', [reason])
      await healthy()
    })
  }
})

describe('SMTP (STARTTLS probes of MX hosts)', () => {
  // The email endpoints report a broken mail host as a finding of the TLS part, not as a 502.
  const degraded = async (fault: string) => {
    const host = `mx.${mailDomain(fault)}`
    for (const r of await Promise.all([get(`/api/email/health/${mailDomain(fault)}`), get(`/api/email/diagnose/${mailDomain(fault)}`)])) {
      expect(r.status, `${r.path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200)
      inTime(r)
      const tlsFindings = r.body.data.parts.tls.findings as Array<{ id: string; message: string }>
      expect(tlsFindings.some((f) => f.id.startsWith('tls.') && f.id !== 'tls.ok' && f.message.includes(host)), JSON.stringify(tlsFindings)).toBe(true)
    }
    await healthy()
  }
  // hang and drip: the probe's deadline is a share of the request's (plugins/email/probe-timeout.ts),
  // so a silent or dripping MX is reported as timed out instead of the whole answer becoming a 504.
  for (const fault of ['hang', 'reset', 'garbage', 'drip', 'reject'] as const) it(`${fault}: a degraded answer naming the host`, () => degraded(fault))
})

describe('MTA-STS policy hosts', () => {
  const degraded = async (fault: string, id: string) => {
    const r = await get(`/api/email/diagnose/${policyDomain(fault)}`)
    expect(r.status, `${r.path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200)
    inTime(r)
    expect(r.body.data.mta_sts.record.status).toBe('found')
    expect(r.body.data.mta_sts.policy).toMatchObject({ mode: null, error: expect.any(String) })
    expect(r.body.data.findings.map((f: { id: string }) => f.id)).toContain(id)
    await healthy()
  }
  it('reset: the policy is reported unreachable', () => degraded('reset', 'mta_sts.policy_unreachable'))
  it('garbage: the policy is reported unreachable', () => degraded('garbage', 'mta_sts.policy_unreachable'))
  it('5xx: the policy is reported as an HTTP error', () => degraded('status', 'mta_sts.policy_http_error'))
  // The policy fetch's deadline is a share of the request's, as the STARTTLS probe's.
  for (const fault of ['hang', 'drip'] as const) it(`${fault}: the policy is reported unreachable (timed out)`, () => degraded(fault, 'mta_sts.policy_unreachable'))
})

describe('the circuit breaker of a service upstream, end to end', () => {
  it('crt.sh timing out repeatedly: then 502 "unavailable" at once, without calling it; closed again after a good probe', async () => {
    const t = await startTestApp({ ...w.crtsh.env, INFRALENS_BREAKER_THRESHOLD: '2', INFRALENS_BREAKER_OPEN_MS: '500', INFRALENS_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), INFRALENS_CACHE_MAX_ENTRIES: '0' })
    try {
      w.crtsh.setFault({ kind: 'timeout' })
      for (let i = 0; i < 2; i++) upstreamError(await timedGet(t, '/api/certificate-transparency/example.com'), 'crtsh', ['timeout'])
      const asked = w.crtsh.log.length
      const open = await timedGet(t, '/api/certificate-transparency/example.com')
      upstreamError(open, 'crtsh', ['unavailable'])
      expect(open.body.error.details).toMatchObject({ circuit: 'open', retry_after_seconds: 1 })
      expect(open.ms).toBeLessThan(500)
      expect(w.crtsh.log.length).toBe(asked)
      w.crtsh.setFault(null)
      await new Promise((r) => setTimeout(r, 550))
      expect((await t.json('/api/certificate-transparency/example.com')).status).toBe(200)
      expect((await t.json('/api/certificate-transparency/example.com')).status).toBe(200)
    } finally {
      w.crtsh.setFault(null)
      await t.close()
    }
  })
})

describe('no shared breaker for hosts users name', () => {
  it('an MTA-STS policy host failing again and again is reported as it is each time, never as "circuit open"', async () => {
    const t = await startTestApp({ ...w.env, INFRALENS_BREAKER_THRESHOLD: '2', INFRALENS_BREAKER_OPEN_MS: '60000' })
    try {
      for (let i = 0; i < 4; i++) {
        const r = await t.json(`/api/email/diagnose/${policyDomain('status')}`)
        expect(r.status).toBe(200)
        expect(r.body.data.mta_sts.policy).toMatchObject({ fetched: true, http_status: 503, error: 'HTTP 503' })
      }
    } finally {
      await t.close()
    }
  })
})

async function timedGet(t: TestApp, path: string): Promise<Res> {
  const started = performance.now()
  const res = await t.json(path)
  return { status: res.status, body: res.body, ms: performance.now() - started, path }
}
