import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeTimeoutMs } from '../../plugins/email/probe-timeout.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestCa } from '../support/certs.ts'
import { createTestCa } from '../support/certs.ts'
import type { FakeHttps } from '../support/fake-https.ts'
import { startFakeHttps } from '../support/fake-https.ts'
import type { FakeSmtp } from '../support/fake-smtp.ts'
import { startFakeSmtp } from '../support/fake-smtp.ts'
import { randomLoopback } from '../support/fake-web.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// A mail host or policy host that accepts the connection and then says nothing
// costs the email answer one probe deadline (a share of the request's), not the
// whole request: the answer is a 200 that reports the host as timed out.

const REQUEST_TIMEOUT_MS = 1500
const PROBE_MS = probeTimeoutMs(REQUEST_TIMEOUT_MS)

describe('probeTimeoutMs', () => {
  it('is a third of the request deadline, kept between 200 ms and 10 s, and never shrinks as the deadline grows', () => {
    expect(probeTimeoutMs(1500)).toBe(500)
    expect(probeTimeoutMs(25_000)).toBe(8333)
    expect(probeTimeoutMs(300_000)).toBe(10_000)
    expect(probeTimeoutMs(100)).toBe(200)
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 300_000 }), fc.integer({ min: 0, max: 10_000 }), (r, more) => {
        const ms = probeTimeoutMs(r)
        expect(ms).toBeGreaterThanOrEqual(200)
        expect(ms).toBeLessThanOrEqual(10_000)
        // Above the floor, two thirds of the deadline stay for the DNS before and after the probes.
        if (r >= 600) expect(ms).toBeLessThanOrEqual(r / 3)
        expect(probeTimeoutMs(r + more)).toBeGreaterThanOrEqual(ms)
      }),
    )
  })
})

describe('silent hosts through the service', () => {
  const ZONE = 'silent.test'
  const at = { good: randomLoopback(), silent: [randomLoopback(), randomLoopback(), randomLoopback()], https: randomLoopback() }
  let ca: TestCa
  let smtp: FakeSmtp
  let https: FakeHttps
  let dns: LoopbackDns
  let t: TestApp

  beforeAll(async () => {
    ca = createTestCa('infralens probe deadline CA')
    smtp = await startFakeSmtp([
      { address: at.good, hostname: `mx.ok.${ZONE}`, tls: ca.issue([`mx.ok.${ZONE}`]) },
      ...at.silent.map((address, i) => ({ address, hostname: `mx${i}.${ZONE}`, fault: 'hang' as const })),
    ])
    https = await startFakeHttps({
      address: at.https,
      port: 443,
      certificates: { [`mta-sts.all.${ZONE}`]: ca.issue([`mta-sts.all.${ZONE}`]) },
      routes: { [`mta-sts.all.${ZONE}/.well-known/mta-sts.txt`]: { body: 'version: STSv1\r\nmode: enforce\r\nmx: *.silent.test\r\nmax_age: 86400\r\n', fault: 'hang' } },
    })
    const zone = `
$ORIGIN ${ZONE}.
$TTL 300
@ IN SOA ns1 hostmaster ( 1 3600 900 604800 60 )
@ IN NS ns1
ns1 IN A 192.0.2.53
mx.ok IN A ${at.good}
${at.silent.map((address, i) => `mx${i} IN A ${address}`).join('\n')}
one IN MX 10 mx.ok
one IN MX 20 mx0
one IN TXT "v=spf1 mx -all"
all IN MX 10 mx0
all IN MX 20 mx1
all IN MX 30 mx2
_mta-sts.all IN TXT "v=STSv1; id=20261124"
mta-sts.all IN A ${at.https}
`
    dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, zone] })
    t = await startTestApp({
      ...dns.env,
      INFRALENS_SMTP_PORT: String(smtp.port),
      INFRALENS_EXTRA_CA_FILE: ca.caFile,
      INFRALENS_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      INFRALENS_RATE_LIMITS: 'anonymous=100000',
      INFRALENS_CACHE_MAX_ENTRIES: '0',
    })
  }, 60_000)

  afterAll(async () => {
    await t?.close()
    await Promise.all([dns?.close(), smtp?.close(), https?.close()])
    ca?.close()
  })

  const timed = async (path: string) => {
    const started = performance.now()
    const res = await t.json(path)
    return { ...res, ms: performance.now() - started }
  }

  it('a silent MX host beside a good one: 200, that host\'s STARTTLS timed out at the probe deadline, the good host checked', async () => {
    for (const kind of ['health', 'diagnose'] as const) {
      const r = await timed(`/api/email/${kind}/one.${ZONE}`)
      expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200)
      expect(r.ms).toBeLessThan(REQUEST_TIMEOUT_MS)
      const findings = (kind === 'health' ? r.body.data.parts.tls.findings : r.body.data.tls.findings) as Array<{ id: string; message: string }>
      const silent = findings.find((f) => f.id === 'tls.smtp_error')
      expect(silent?.message).toContain(`mx0.${ZONE}:${smtp.port}`)
      expect(silent?.message).toContain(`timed out after ${PROBE_MS} ms waiting for the greeting`)
      if (kind === 'diagnose') {
        const hosts = r.body.data.tls.hosts as Array<{ host: string; status: string; error: string | null; time_ms: number }>
        const byHost = Object.fromEntries(hosts.map((h) => [h.host, h]))
        expect(byHost[`mx.ok.${ZONE}`]).toMatchObject({ status: 'ok', error: null })
        expect(byHost[`mx0.${ZONE}`]).toMatchObject({ status: 'smtp_error', error: `timed out after ${PROBE_MS} ms waiting for the greeting` })
        expect(byHost[`mx0.${ZONE}`]!.time_ms).toBeGreaterThanOrEqual(PROBE_MS - 50)
      }
    }
  })

  it('every MX host and the MTA-STS policy host silent: diagnose still answers 200 within the deadline, each reported', async () => {
    const r = await timed(`/api/email/diagnose/all.${ZONE}`)
    expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200)
    expect(r.ms).toBeLessThan(REQUEST_TIMEOUT_MS)
    const hosts = r.body.data.tls.hosts as Array<{ host: string; status: string; error: string | null }>
    expect(hosts.map((h) => h.host).sort()).toEqual([0, 1, 2].map((i) => `mx${i}.${ZONE}`))
    for (const h of hosts) expect(h).toMatchObject({ status: 'smtp_error', error: `timed out after ${PROBE_MS} ms waiting for the greeting` })
    expect(r.body.data.mta_sts.record.status).toBe('found')
    expect(r.body.data.mta_sts.policy).toMatchObject({ fetched: false, mode: null, error: expect.stringMatching(/timed out/) })
    expect(r.body.data.findings.map((f: { id: string }) => f.id)).toContain('mta_sts.policy_unreachable')
    // TLS-RPT is still looked at (it waits only for the MTA-STS record, beside the probes).
    expect(r.body.data.tls_rpt).toBeDefined()
    // Side by side: one after another, the three probes alone would take the whole deadline.
    expect(r.ms).toBeLessThan(3 * PROBE_MS)
  })
})
