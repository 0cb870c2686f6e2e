import { execFile } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeStarttls, FakeProtocol } from '../support/fake-starttls.ts'
import { STARTTLS_FAKE_PROTOCOLS, USUAL_PORTS, startFakeStarttls, startStarttlsFakes } from '../support/fake-starttls.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'
import type { FakeTlsProfiles } from '../support/fake-tls-profiles.ts'
import { startFakeTlsProfiles } from '../support/fake-tls-profiles.ts'
import type { TestPki, TlsTestServer } from '../support/tls-servers.ts'
import { MOZILLA_INTERMEDIATE, createTestPki, leafFor, startTlsServer } from '../support/tls-servers.ts'

// STARTTLS on every /api/tls/* endpoint (issue 24): each protocol's fake
// (test/support/fake-starttls.ts) on its usual port speaks the plaintext part
// and hands the connection to one real node:tls server. The oracles: that
// server's own certificate and its implicit-TLS scan by the same service, and
// `openssl s_client -starttls <protocol>`, an independent client, reading the
// same certificate off each fake.

const ZONE = 'starttls.test'
let pki: TestPki
let backend: TlsTestServer
let fakes: Record<FakeProtocol, FakeStarttls>
let refusing: Record<FakeProtocol, FakeStarttls>
let garbage: Record<FakeProtocol, FakeStarttls>
let submission: FakeStarttls
let dns: LoopbackDns
let t: TestApp
let leafFingerprint: string

let profiles: FakeTlsProfiles
beforeAll(async () => {
  profiles = await startFakeTlsProfiles()
  pki = createTestPki()
  const leaf = leafFor(pki, `mail.${ZONE}`, { dns: [`mail.${ZONE}`, ...STARTTLS_FAKE_PROTOCOLS.map((p) => `${p}.${ZONE}`)] })
  leafFingerprint = new X509Certificate(leaf.pem).fingerprint256.replaceAll(':', '').toLowerCase()
  backend = await startTlsServer({ address: '127.0.0.1', leaf, chain: [pki.intermediate], ciphers: MOZILLA_INTERMEDIATE })
  const to = { host: backend.address, port: backend.port }
  fakes = await startStarttlsFakes(to)
  refusing = await startStarttlsFakes(to, 'refuse')
  garbage = await startStarttlsFakes(to, 'garbage')
  submission = await startFakeStarttls({ protocol: 'smtp', backend: to, address: fakes.smtp.address, port: 587 })
  const records = STARTTLS_FAKE_PROTOCOLS.flatMap((p) => [`${p} IN A ${fakes[p].address}`, `refuse-${p} IN A ${refusing[p].address}`, `garbage-${p} IN A ${garbage[p].address}`]).join('\n')
  const zone = `
$ORIGIN ${ZONE}.
$TTL 300
@ IN SOA ns1 hostmaster ( 1 3600 900 604800 60 )
@ IN NS ns1
ns1 IN A 127.0.0.53
direct IN A 127.0.0.1
${records}
`
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, zone] })
  t = await startTestApp({ ...dns.env, ...pki.env, ...profiles.env, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true', INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_REQUEST_TIMEOUT_MS: '8000' })
}, 60_000)

afterAll(async () => {
  await t?.close()
  await dns?.close()
  for (const set of [fakes, refusing, garbage]) if (set) await Promise.all(Object.values(set).map((f) => f.close()))
  await submission?.close()
  await backend?.close()
  pki?.close()
  await profiles?.close()
})

async function data(path: string) {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as Record<string, any>
}

/**
 * The leaf `openssl s_client -starttls` reads off the fake (SHA-256, hex), or why not.
 * Asynchronous: the fakes live in this process and must keep answering meanwhile.
 */
function sClientFingerprint(protocol: FakeProtocol, address: string, port: number): Promise<string> {
  const args = ['s_client', '-starttls', protocol, '-connect', `${address}:${port}`, '-servername', `${protocol}.${ZONE}`, ...(protocol === 'xmpp' ? ['-xmpphost', ZONE] : [])]
  return new Promise((resolve) => {
    const child = execFile('openssl', args, { encoding: 'utf8', timeout: 15_000 }, (_error, stdout, stderr) => {
      const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(stdout)?.[0]
      resolve(pem ? new X509Certificate(pem).fingerprint256.replaceAll(':', '').toLowerCase() : `no certificate: ${stderr.slice(0, 300)}`)
    })
    child.stdin?.end()
  })
}

describe('STARTTLS per protocol, on its usual port', () => {
  for (const protocol of STARTTLS_FAKE_PROTOCOLS) {
    it(`${protocol}: /api/tls/{host}?starttls=${protocol} reaches port ${USUAL_PORTS[protocol]} and the certificate s_client sees`, async () => {
      const before = fakes[protocol].handedOver
      const d = await data(`/api/tls/${protocol}.${ZONE}?starttls=${protocol}`)
      expect({ port: d.port, starttls: d.starttls, address: d.address }).toEqual({ port: USUAL_PORTS[protocol], starttls: protocol, address: fakes[protocol].address })
      expect(d.certificate.fingerprint_sha256.replaceAll(':', '').toLowerCase()).toBe(leafFingerprint)
      expect(d.hostname.matches).toBe(true)
      expect(fakes[protocol].handedOver).toBeGreaterThan(before)
      expect(await sClientFingerprint(protocol, fakes[protocol].address, fakes[protocol].port)).toBe(leafFingerprint)
    })
  }

  it('the protocol name is read case-insensitively, and the answer without STARTTLS says null', async () => {
    const d = await data(`/api/tls/pop3.${ZONE}?starttls=POP3`)
    expect(d.starttls).toBe('pop3')
    const direct = await data(`/api/tls/direct.${ZONE}:${backend.port}`)
    expect(direct.starttls).toBeNull()
  })

  it('a port written in the host wins over the usual one (smtp submission on 587)', async () => {
    const before = submission.handedOver
    const d = await data(`/api/tls/smtp.${ZONE}:587?starttls=smtp`)
    expect({ port: d.port, starttls: d.starttls }).toEqual({ port: 587, starttls: 'smtp' })
    expect(submission.handedOver).toBe(before + 1)
  })
})

describe('every endpoint over STARTTLS', () => {
  it('ciphers over SMTP STARTTLS equal the implicit-TLS scan of the server behind it', async () => {
    const [viaSmtp, direct] = await Promise.all([data(`/api/tls/ciphers/smtp.${ZONE}?starttls=smtp`), data(`/api/tls/ciphers/direct.${ZONE}:${backend.port}`)])
    const suites = (d: Record<string, any>) => (d.cipher_suites as Array<{ protocol: string; name: string }>).map((c) => `${c.protocol} ${c.name}`).sort()
    expect(suites(viaSmtp)).toEqual(suites(direct))
    expect(new Set(suites(viaSmtp).map((s) => s.split(' ')[0]))).toEqual(new Set(['TLSv1.2', 'TLSv1.3']))
    // An RSA leaf: the three ECDHE-RSA suites of the intermediate list, and the three TLS 1.3 ones.
    expect(suites(viaSmtp).length).toBe(6)
    expect(viaSmtp.starttls).toBe('smtp')
  })

  it('certificate over IMAP: the chain as served', async () => {
    const d = await data(`/api/tls/certificate/imap.${ZONE}?starttls=imap`)
    expect(d.starttls).toBe('imap')
    expect(d.leaf.fingerprint_sha256.replaceAll(':', '').toLowerCase()).toBe(leafFingerprint)
    expect(d.chain.map((c: { subject: { common_name: string } }) => c.subject.common_name)).toEqual(['Infralens Test Issuing CA'])
  })

  it('analyze over LDAP and PostgreSQL: graded, HSTS not asked (no HTTP there) and no finding about it', async () => {
    for (const protocol of ['ldap', 'postgres'] as const) {
      const d = await data(`/api/tls/analyze/${protocol}.${ZONE}?starttls=${protocol}`)
      expect(d.starttls).toBe(protocol)
      expect(d.port).toBe(USUAL_PORTS[protocol])
      expect(d.trusted).toBe(true)
      expect(d.hsts).toMatchObject({ checked: false, present: false })
      expect(d.hsts.error).toContain('STARTTLS')
      const ids = (d.findings as Array<{ id: string }>).map((f) => f.id)
      expect(ids).not.toContain('hsts_not_checked')
      expect(ids).not.toContain('hsts_missing')
      expect(d.grade).toBe('A')
      // Profile compliance: hsts_min_age is not judged without HTTP, and says why.
      expect(d.compliance.status).toBe('checked')
      for (const p of d.compliance.profiles as Array<{ deviations: Array<{ field: string }>; not_checked: Array<{ field: string; reason: string }> }>) {
        expect(p.deviations.map((x) => x.field)).not.toContain('hsts_min_age')
        expect(p.not_checked).toContainEqual({ field: 'hsts_min_age', reason: d.hsts.error })
      }
    }
  })
})

describe('when STARTTLS does not happen', () => {
  for (const protocol of STARTTLS_FAKE_PROTOCOLS) {
    it(`${protocol}: a server that refuses STARTTLS is a 502 saying so`, async () => {
      const res = await t.json(`/api/tls/refuse-${protocol}.${ZONE}?starttls=${protocol}`)
      expect(res.status, JSON.stringify(res.body)).toBe(502)
      expect(res.body.error.message).toContain(`STARTTLS (${protocol})`)
      expect(res.body.error.details).toMatchObject({ upstream: 'tls', reason: 'bad_response', starttls: protocol, starttls_refused: true })
      expect(refusing[protocol].handedOver).toBe(0)
    })
    it(`${protocol}: a server that does not speak ${protocol} is a 502`, async () => {
      const res = await t.json(`/api/tls/ciphers/garbage-${protocol}.${ZONE}?starttls=${protocol}`)
      expect(res.status, JSON.stringify(res.body)).toBe(502)
      expect(res.body.error.details.starttls_refused).toBeUndefined()
      expect(garbage[protocol].handedOver).toBe(0)
    })
  }
})

describe('the parameter', () => {
  it('an unknown protocol is a 400 listing the ones there are', async () => {
    const res = await t.json(`/api/tls/smtp.${ZONE}?starttls=gopher`)
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body.error)).toContain('smtp, imap, pop3, ftp, xmpp, ldap, postgres, mysql')
  })

  it('guarded like every target: a private address is refused before any connection', async () => {
    const res = await t.json('/api/tls/analyze/192.168.1.10?starttls=smtp')
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/private|not allowed|refused/i)
  })
})
