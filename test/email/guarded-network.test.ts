import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestCa } from '../support/certs.ts'
import { createTestCa } from '../support/certs.ts'
import type { FakeHttps } from '../support/fake-https.ts'
import { startFakeHttps } from '../support/fake-https.ts'
import type { FakeSmtp } from '../support/fake-smtp.ts'
import { startFakeSmtp } from '../support/fake-smtp.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// The email checks with the guarded network as in production
// (INFRALENS_ALLOW_PRIVATE_TARGETS off): a domain whose MX hosts and MTA-STS host
// resolve to 127.x and 10.x is reported, but nothing connects to them. Real
// servers listen on the 127.x addresses, so a connection would show in their logs;
// a second app that allows loopback shows that it would.

const MX_LOOPBACK = '127.0.26.1'
const HTTPS_LOOPBACK = '127.0.44.2'

const ZONE = `
$ORIGIN inside.test.
$TTL 300
@        IN SOA ns1 hostmaster ( 1 3600 900 604800 300 )
@        IN NS  ns1
ns1      IN A   127.0.0.53
@        IN MX  10 mx1
@        IN MX  20 mx2
mx1      IN A   ${MX_LOOPBACK}
mx2      IN A   10.0.0.25
@        IN TXT "v=spf1 mx -all"
_dmarc   IN TXT "v=DMARC1; p=reject"
_mta-sts IN TXT "v=STSv1; id=20260101"
mta-sts  IN A   ${HTTPS_LOOPBACK}
`
const POLICY = 'version: STSv1\nmode: enforce\nmx: *.inside.test\nmax_age: 604800\n'

let ca: TestCa
let dns: LoopbackDns
let smtp: FakeSmtp
let https: FakeHttps
let guarded: TestApp
beforeAll(async () => {
  ca = createTestCa()
  smtp = await startFakeSmtp([{ address: MX_LOOPBACK, hostname: 'mx1.inside.test', tls: ca.issue(['mx1.inside.test']) }])
  https = await startFakeHttps({
    address: HTTPS_LOOPBACK,
    port: 443,
    certificates: { 'mta-sts.inside.test': ca.issue(['mta-sts.inside.test']) },
    routes: { 'mta-sts.inside.test/.well-known/mta-sts.txt': { body: POLICY } },
  })
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ZONE] })
  guarded = await startTestApp({
    ...dns.env,
    INFRALENS_ALLOW_PRIVATE_TARGETS: 'false',
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
    INFRALENS_SMTP_PORT: String(smtp.port),
    INFRALENS_EXTRA_CA_FILE: ca.caFile,
  })
}, 60_000)
afterAll(async () => {
  await guarded?.close()
  await Promise.all([dns?.close(), smtp?.close(), https?.close()])
  ca?.close()
})

const byId = (findings: Array<{ id: string; severity: string; message: string }>, id: string) => findings.filter((f) => f.id === id)

describe('private and loopback mail hosts, guarded network on', () => {
  let d: any
  beforeAll(async () => {
    const res = await guarded.json('/api/email/diagnose/inside.test')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    d = res.body.data
  })

  it('STARTTLS is reported blocked for both MX hosts, and no connection reached the SMTP server', () => {
    expect(d.tls.hosts.map((h: { host: string; status: string; address: string | null }) => [h.host, h.status, h.address])).toEqual([
      ['mx1.inside.test', 'blocked', null],
      ['mx2.inside.test', 'blocked', null],
    ])
    expect(d.tls.hosts[0].error).toMatch(/127\.0\.26\.1 is a loopback address/)
    expect(d.tls.hosts[1].error).toMatch(/10\.0\.0\.25/)
    expect(smtp.sessions).toEqual([])
  })

  it('a finding names each blocked host, and MX says why', () => {
    const blocked = byId(d.findings, 'tls.blocked')
    expect(blocked.map((f) => f.severity)).toEqual(['warning', 'warning'])
    expect(blocked[0]!.message).toMatch(/^STARTTLS on mx1\.inside\.test:\d+ was not checked: Refusing to connect to mx1\.inside\.test \(127\.0\.26\.1\)/)
    expect(blocked[1]!.message).toMatch(/^STARTTLS on mx2\.inside\.test:\d+ was not checked/)
    expect(byId(d.findings, 'mx.private_address').map((f) => f.message)).toEqual([
      expect.stringContaining('mx1.inside.test resolves to 127.0.26.1'),
      expect.stringContaining('mx2.inside.test resolves to 10.0.0.25'),
    ])
    expect(byId(d.findings, 'mx.unreachable')).toHaveLength(1)
    expect(d.parts.tls.status).not.toBe('good')
  })

  it('the MTA-STS policy fetch is refused: the policy host never saw a request', () => {
    expect(d.mta_sts.record).toMatchObject({ status: 'found', id: '20260101' })
    expect(d.mta_sts.policy).toMatchObject({ fetched: false, http_status: null, mode: null, error: expect.stringMatching(/Refusing to connect to mta-sts\.inside\.test \(127\.0\.44\.2\)/) })
    expect(byId(d.mta_sts.findings, 'mta_sts.policy_blocked')).toEqual([
      expect.objectContaining({ severity: 'error', fix: expect.stringContaining('public address') }),
    ])
    expect(https.requests).toEqual([])
  })
})

describe('the same domain with loopback allowed (the control)', () => {
  it('connects to the SMTP and HTTPS servers, so the assertions above can fail', async () => {
    const open = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_SMTP_PORT: String(smtp.port), INFRALENS_EXTRA_CA_FILE: ca.caFile })
    try {
      const res = await open.json('/api/email/diagnose/inside.test')
      expect(res.status).toBe(200)
      expect(res.body.data.tls.hosts[0]).toMatchObject({ host: 'mx1.inside.test', status: 'ok', address: MX_LOOPBACK })
      expect(res.body.data.mta_sts.policy).toMatchObject({ fetched: true, mode: 'enforce' })
      expect(smtp.sessions.length).toBeGreaterThan(0)
      expect(https.requests).toContainEqual({ host: 'mta-sts.inside.test', path: '/.well-known/mta-sts.txt' })
    } finally {
      await open.close()
    }
  })
})
