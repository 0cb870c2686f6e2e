import { createServer } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'
import type { TlsWorld } from '../support/tls-servers.ts'
import { startTlsWorld } from '../support/tls-servers.ts'

// Every TLS endpoint against the loopback TLS servers (test/support/tls-servers.ts):
// one per way a deployment can be right or wrong, each with the grade and the
// findings it must get. The test root is trusted through INFRALENS_EXTRA_CA_FILE.

let world: TlsWorld
let dns: LoopbackDns
let t: TestApp
beforeAll(async () => {
  world = await startTlsWorld()
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, world.zone] })
  t = await startTestApp({ ...dns.env, ...world.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_REQUEST_TIMEOUT_MS: '6000' })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await dns?.close()
  await world?.close()
})

const enc = encodeURIComponent

async function data(path: string) {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as Record<string, any>
}

const ids = (d: Record<string, any>) => (d.findings as Array<{ id: string }>).map((f) => f.id)
const serious = (d: Record<string, any>) => (d.findings as Array<{ id: string; severity: string }>).filter((f) => f.severity !== 'info' && f.severity !== 'low').map((f) => f.id)

describe('analyze: grade and findings per server', () => {
  const cases: Array<{ server: string; host?: (w: TlsWorld) => string; grade: string; ifTrusted: string; must: string[]; serious?: string[] }> = [
    { server: 'valid', grade: 'A+', ifTrusted: 'A+', must: [], serious: [] },
    { server: 'expired', grade: 'T', ifTrusted: 'A', must: ['certificate_expired'], serious: ['certificate_expired'] },
    { server: 'wrong-name', grade: 'M', ifTrusted: 'A', must: ['hostname_mismatch'], serious: ['hostname_mismatch'] },
    { server: 'self-signed', grade: 'T', ifTrusted: 'A', must: ['self_signed'], serious: ['self_signed'] },
    { server: 'incomplete', grade: 'T', ifTrusted: 'A', must: ['chain_incomplete'], serious: ['chain_incomplete'] },
    { server: 'wildcard', grade: 'A', ifTrusted: 'A', must: ['hsts_missing'], serious: [] },
    { server: 'wildcard', host: (w) => `deep.app.wild.tls.test:${w.servers.wildcard.port}`, grade: 'M', ifTrusted: 'A', must: ['hostname_mismatch'], serious: ['hostname_mismatch'] },
    { server: 'ip-san', grade: 'A', ifTrusted: 'A', must: [], serious: [] },
    { server: 'ip-san', host: (w) => `ip-san.tls.test:${w.servers['ip-san'].port}`, grade: 'M', ifTrusted: 'A', must: ['hostname_mismatch'], serious: ['hostname_mismatch'] },
    { server: 'ipv6', grade: 'A', ifTrusted: 'A', must: [], serious: [] },
    { server: 'rsa1024', grade: 'C', ifTrusted: 'C', must: ['key_too_small'], serious: ['key_too_small'] },
    { server: 'ecdsa', grade: 'A', ifTrusted: 'A', must: ['hsts_missing'], serious: [] },
    { server: 'tls12', grade: 'A-', ifTrusted: 'A-', must: ['tls13_not_supported'], serious: [] },
    { server: 'tls13', grade: 'A', ifTrusted: 'A', must: ['hsts_missing'], serious: [] },
    { server: 'legacy', grade: 'B', ifTrusted: 'B', must: ['tls10_supported', 'tls11_supported', 'tls13_not_supported'], serious: ['tls10_supported', 'tls11_supported'] },
    { server: 'misordered', grade: 'A', ifTrusted: 'A', must: ['chain_order', 'chain_includes_root'], serious: [] },
    { server: 'client-order', grade: 'A-', ifTrusted: 'A-', must: ['no_server_cipher_order', 'suites_without_forward_secrecy', 'cbc_suites', 'tls13_not_supported'], serious: [] },
    { server: 'not-yet-valid', grade: 'T', ifTrusted: 'A', must: ['certificate_not_yet_valid', 'hsts_not_checked'], serious: ['certificate_not_yet_valid'] },
    { server: 'untrusted', grade: 'T', ifTrusted: 'A', must: ['chain_untrusted', 'chain_includes_root', 'hsts_not_checked'], serious: ['chain_untrusted'] },
  ]
  for (const c of cases) {
    it(`${c.server}${c.host ? ' (other name)' : ''}: ${c.grade}`, async () => {
      const target = c.host ? c.host(world) : world.servers[c.server as keyof TlsWorld['servers']].target
      const d = await data(`/api/tls/analyze/${enc(target)}`)
      expect({ grade: d.grade, if_trusted: d.grade_if_trusted }).toEqual({ grade: c.grade, if_trusted: c.ifTrusted })
      expect(ids(d)).toEqual(expect.arrayContaining(c.must))
      if (c.serious) expect(serious(d).sort()).toEqual([...c.serious].sort())
      for (const f of d.findings) {
        const shape = { id: expect.any(String), severity: expect.stringMatching(/^(critical|high|medium|low|info)$/), message: expect.any(String), fix: expect.any(String), grade_cap: expect.toBeOneOf([null, 'T', 'M', 'A-', 'B', 'C', 'D', 'E', 'F']) }
        // The active checks' findings (issue 24) say what the server did.
        expect(f).toEqual('evidence' in f ? { ...shape, evidence: expect.any(String) } : shape)
      }
      expect(d.trusted).toBe(c.grade !== 'T')
      expect(d.hostname.matches).toBe(c.grade !== 'M')
    })
  }

  it('valid: trusted chain from the extra CA, OCSP staple checked, HSTS read, only what the active checks see in any Node server', async () => {
    const d = await data(`/api/tls/analyze/${enc(world.servers.valid.target)}`)
    // Node's TLS servers accept one client renegotiation (three per ten minutes), sign with SHA-1 when
    // asked, and have no post-quantum group.
    expect(d.findings.map((f: { id: string; severity: string }) => `${f.id}:${f.severity}`).sort()).toEqual(['client_renegotiation:low', 'no_post_quantum_group:low', 'sha1_handshake_signatures:low'])
    expect(d.chain).toMatchObject({ verified: true, verify_error: null, complete: true, anchored: true, anchor_source: 'extra', order_ok: true, served_count: 2, root_served: false, unused_positions: [], source: 'served' })
    expect(d.chain.path.map((l: { source: string }) => l.source)).toEqual(['served', 'served', 'trust_store'])
    expect(d.ocsp_stapling).toEqual(expect.objectContaining({ stapled: true, response_status: 'successful', cert_status: 'good', signature_valid: true, matches_certificate: true }))
    expect(d.hsts).toMatchObject({ checked: true, present: true, max_age: 63072000, include_subdomains: true, preload: true, long_max_age: true })
    expect(d.certificate).toMatchObject({ must_staple: true, sct_count: 2, public_key: { type: 'RSA', bits: 2048 } })
    expect(d.protocols.filter((p: { supported: boolean }) => p.supported).map((p: { protocol: string }) => p.protocol)).toEqual(['TLSv1.2', 'TLSv1.3'])
    expect(d.negotiated).toMatchObject({ protocol: 'TLSv1.3', alpn: 'http/1.1' })
    expect(d.score).toEqual({ protocol: 100, key_exchange: 90, cipher_strength: 90, total: 93 })
  })

  it('incomplete: names the missing issuer and where to get it', async () => {
    const d = await data(`/api/tls/analyze/${enc(world.servers.incomplete.target)}`)
    expect(d.chain).toMatchObject({ complete: false, anchored: false, missing_issuer: expect.stringContaining('Infralens Test Issuing CA'), served_count: 1 })
    // OpenSSL's code for a leaf whose issuer is nowhere to be found
    expect(d.chain.verify_error).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE')
    const f = d.findings.find((x: { id: string }) => x.id === 'chain_incomplete')
    expect(f.fix).toContain('http://pki.tls.test/issuing.crt')
  })

  it('expired and self-signed: OpenSSL agrees, HSTS is left unchecked (browsers ignore it on bad certificates)', async () => {
    const expired = await data(`/api/tls/analyze/${enc(world.servers.expired.target)}`)
    expect(expired.chain.verify_error).toBe('CERT_HAS_EXPIRED')
    expect(expired.certificate.expired).toBe(true)
    expect(expired.hsts.checked).toBe(false)
    const self = await data(`/api/tls/analyze/${enc(world.servers['self-signed'].target)}`)
    expect(self.chain).toMatchObject({ verify_error: 'DEPTH_ZERO_SELF_SIGNED_CERT', complete: true, anchored: false })
  })

  it('misordered: served leaf, root, intermediate — path built anyway, order and extras reported', async () => {
    const d = await data(`/api/tls/analyze/${enc(world.servers.misordered.target)}`)
    expect(d.chain).toMatchObject({ complete: true, anchored: true, order_ok: false, root_served: true, served_count: 3 })
    expect(d.chain.path.map((l: { served_position: number | null }) => l.served_position)).toEqual([0, 2, 1])
  })

  it('not yet valid: OpenSSL agrees, and it is the only trust finding', async () => {
    const d = await data(`/api/tls/analyze/${enc(world.servers['not-yet-valid'].target)}`)
    expect(d.chain).toMatchObject({ verified: false, verify_error: 'CERT_NOT_YET_VALID', complete: true, anchored: true, anchor_source: 'extra' })
    expect(d.certificate).toMatchObject({ not_yet_valid: true, expired: false })
    expect(d.findings.filter((f: { grade_cap: string | null }) => f.grade_cap === 'T').map((f: { id: string }) => f.id)).toEqual(['certificate_not_yet_valid'])
    expect(d.hsts).toMatchObject({ checked: false, error: expect.stringMatching(/not yet valid/i) })
  })

  it('untrusted: a complete chain, root served, to a root nobody trusts', async () => {
    const d = await data(`/api/tls/analyze/${enc(world.servers.untrusted.target)}`)
    expect(d.chain).toMatchObject({ verified: false, verify_error: 'SELF_SIGNED_CERT_IN_CHAIN', complete: true, anchored: false, anchor_source: null, order_ok: true, root_served: true, served_count: 3, missing_issuer: null })
    expect(d.chain.path.map((l: { source: string }) => l.source)).toEqual(['served', 'served', 'served'])
    const f = d.findings.find((x: { id: string }) => x.id === 'chain_untrusted')
    expect(f).toMatchObject({ severity: 'critical', grade_cap: 'T', message: expect.stringContaining('Stranger Root CA') })
    expect(ids(d)).not.toContain('chain_incomplete')
    expect(ids(d)).not.toContain('self_signed')
  })

  it('client order: server_preference false, no preference ranks, and the no_server_cipher_order finding', async () => {
    const scan = await data(`/api/tls/ciphers/${enc(world.servers['client-order'].target)}`)
    expect(scan.protocols.find((p: { protocol: string }) => p.protocol === 'TLSv1.2')).toMatchObject({ supported: true, server_preference: false, suite_count: 3 })
    expect(scan.cipher_suites.map((s: { openssl_name: string; preference: number | null }) => [s.openssl_name, s.preference])).toEqual([
      ['ECDHE-RSA-AES256-GCM-SHA384', null],
      ['ECDHE-RSA-AES128-GCM-SHA256', null],
      ['AES128-SHA', null],
    ])
    const d = await data(`/api/tls/analyze/${enc(world.servers['client-order'].target)}`)
    expect(d.findings.find((f: { id: string }) => f.id === 'no_server_cipher_order')).toMatchObject({ severity: 'low', grade_cap: null, message: expect.stringContaining('TLSv1.2') })
    // The server with its own order (same kind of configuration) gets neither.
    const ordered = await data(`/api/tls/ciphers/${enc(world.servers.valid.target)}`)
    expect(ordered.protocols.find((p: { protocol: string }) => p.protocol === 'TLSv1.2').server_preference).toBe(true)
  })

  it('wildcard: one label only', async () => {
    const ok = await data(`/api/tls/analyze/${enc(world.servers.wildcard.target)}`)
    expect(ok.hostname).toEqual({ host: 'app.wild.tls.test', matches: true, matched_by: '*.wild.tls.test', method: 'wildcard', reason: null })
    const deep = await data(`/api/tls/${enc(`deep.app.wild.tls.test:${world.servers.wildcard.port}`)}`)
    expect(deep.hostname.matches).toBe(false)
    expect(deep.hostname.reason).toMatch(/exactly one label/)
    expect(deep.valid).toBe(false)
  })

  it('IP SAN: IPv4 and bracketed IPv6 targets match iPAddress entries only', async () => {
    const v4 = await data(`/api/tls/${enc(world.servers['ip-san'].target)}`)
    expect(v4).toMatchObject({ host: '127.0.0.67', server_name: null, address: '127.0.0.67', valid: true })
    expect(v4.hostname).toMatchObject({ matches: true, method: 'ip', matched_by: '127.0.0.67' })
    const v6 = await data(`/api/tls/${world.servers.ipv6.target}`)
    expect(v6).toMatchObject({ host: '::1', port: world.servers.ipv6.port, address: '::1', valid: true })
    expect(v6.hostname).toMatchObject({ matches: true, method: 'ip', matched_by: '::1' })
  })

  it('ecdsa and rsa1024: key type, size and curve', async () => {
    const ec = await data(`/api/tls/analyze/${enc(world.servers.ecdsa.target)}`)
    expect(ec.certificate.public_key).toEqual({ type: 'EC', bits: 256, curve: 'P-256' })
    const rsa = await data(`/api/tls/analyze/${enc(world.servers.rsa1024.target)}`)
    expect(rsa.certificate.public_key).toEqual({ type: 'RSA', bits: 1024, curve: null })
    expect(rsa.score.key_exchange).toBe(80)
  })
})

describe('GET /api/tls/{host}', () => {
  it('valid: protocol, cipher, group, ALPN, timings, certificate summary, verified chain', async () => {
    const d = await data(`/api/tls/${enc(world.servers.valid.target)}`)
    expect(d).toMatchObject({
      host: 'valid.tls.test',
      port: world.servers.valid.port,
      server_name: 'valid.tls.test',
      address: '127.0.0.61',
      protocol: 'TLSv1.3',
      cipher: { name: 'TLS_AES_256_GCM_SHA384', code: '0x1302', strength: 'recommended', forward_secrecy: true },
      key_exchange: { type: 'ECDHE', group: 'X25519', bits: 253 },
      alpn: 'http/1.1',
      ocsp_stapled: true,
      chain_verified: true,
      verify_error: null,
      valid: true,
      certificate: { common_name: 'valid.tls.test', issuer_common_name: 'Infralens Test Issuing CA', dns_names: ['valid.tls.test', 'www.valid.tls.test'], expired: false },
    })
    expect(d.handshake_ms).toBeGreaterThan(0)
    expect(d.certificate.days_left).toBeGreaterThan(80)
  })

  it('TLS 1.2-only and legacy servers negotiate what they have', async () => {
    expect((await data(`/api/tls/${enc(world.servers.tls12.target)}`)).protocol).toBe('TLSv1.2')
    const legacy = await data(`/api/tls/${enc(world.servers.legacy.target)}`)
    expect(legacy).toMatchObject({ protocol: 'TLSv1.2', cipher: { name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256' } })
  })

  it('the ?host= form and a URL-ish host give the same answer', async () => {
    const viaQuery = await data(`/api/tls?host=${enc(`https://${world.servers.valid.target}/some/path`)}`)
    expect(viaQuery).toMatchObject({ host: 'valid.tls.test', port: world.servers.valid.port, valid: true })
  })
})

describe('GET /api/tls/certificate/{host}', () => {
  it('valid: leaf and chain as served, every field', async () => {
    const d = await data(`/api/tls/certificate/${enc(world.servers.valid.target)}`)
    expect(d).toMatchObject({ chain_source: 'served', chain_verified: true, ocsp_stapled: true, protocol: 'TLSv1.3' })
    const leaf = d.leaf
    expect(leaf).toMatchObject({
      position: 0,
      subject: { common_name: 'valid.tls.test' },
      issuer: { common_name: 'Infralens Test Issuing CA', organization: 'Infralens Tests', country: 'US' },
      version: 3,
      sans: { dns: ['valid.tls.test', 'www.valid.tls.test'], ip: [], email: [], uri: [] },
      public_key: { type: 'RSA', bits: 2048, curve: null },
      signature_algorithm: { name: 'sha256WithRSAEncryption', oid: '1.2.840.113549.1.1.11', hash: 'SHA-256', weak: false },
      key_usage: ['digitalSignature', 'keyEncipherment'],
      extended_key_usage: ['serverAuth', 'clientAuth'],
      basic_constraints: { ca: false, path_length: null, critical: true },
      aia: { ocsp: ['http://ocsp.tls.test'], ca_issuers: ['http://pki.tls.test/issuing.crt'] },
      crl_distribution_points: ['http://crl.tls.test/issuing.crl'],
      sct_count: 2,
      must_staple: true,
      self_signed: false,
      expired: false,
    })
    expect(leaf.serial_number).toMatch(/^[0-9a-f]+$/)
    expect(leaf.fingerprint_sha1).toMatch(/^([0-9A-F]{2}:){19}[0-9A-F]{2}$/)
    expect(leaf.fingerprint_sha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
    expect(leaf.pem).toMatch(/^-----BEGIN CERTIFICATE-----/)
    expect(leaf.authority_key_id).toBe(d.chain[0].subject_key_id)
    expect(d.chain).toHaveLength(1)
    expect(d.chain[0]).toMatchObject({ position: 1, basic_constraints: { ca: true, path_length: 0 }, key_usage: ['keyCertSign', 'cRLSign'] })
  })

  it('TLS 1.3-only: the chain is read from the encrypted flight (served order kept)', async () => {
    const d = await data(`/api/tls/certificate/${enc(world.servers.tls13.target)}`)
    expect(d).toMatchObject({ protocol: 'TLSv1.3', chain_source: 'served' })
    expect(d.chain.map((c: { subject: { common_name: string } }) => c.subject.common_name)).toEqual(['Infralens Test Issuing CA'])
    const mis = await data(`/api/tls/certificate/${enc(world.servers.misordered.target)}`)
    expect(mis.chain.map((c: { subject: { common_name: string } }) => c.subject.common_name)).toEqual(['Infralens Test Root CA', 'Infralens Test Issuing CA'])
  })

  it('IP SAN, ECDSA and expired leaves', async () => {
    expect((await data(`/api/tls/certificate/${enc(world.servers['ip-san'].target)}`)).leaf.sans).toEqual({ dns: [], ip: ['127.0.0.67'], email: [], uri: [] })
    const ec = (await data(`/api/tls/certificate/${enc(world.servers.ecdsa.target)}`)).leaf
    expect(ec.public_key).toEqual({ type: 'EC', bits: 256, curve: 'P-256' })
    const expired = await data(`/api/tls/certificate/${enc(world.servers.expired.target)}`)
    expect(expired.leaf).toMatchObject({ expired: true, days_left: expect.any(Number) })
    expect(expired.leaf.days_left).toBeLessThan(0)
    expect(expired).toMatchObject({ chain_verified: false, verify_error: 'CERT_HAS_EXPIRED' })
  })
})

describe('GET /api/tls/ciphers/{host}', () => {
  it('valid: exactly the configured suites, in the server order, all recommended', async () => {
    const d = await data(`/api/tls/ciphers/${enc(world.servers.valid.target)}`)
    const tls12 = d.cipher_suites.filter((s: { protocol: string }) => s.protocol === 'TLSv1.2').map((s: { openssl_name: string }) => s.openssl_name)
    expect(tls12).toEqual(['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305'])
    expect(d.protocols.find((p: { protocol: string }) => p.protocol === 'TLSv1.2')).toMatchObject({ supported: true, server_preference: true, suite_count: 3 })
    expect(d.summary).toEqual({ total: 6, by_strength: { insecure: 0, weak: 0, secure: 0, recommended: 6 }, forward_secrecy: 'all', weakest: 'recommended', strongest: 'recommended' })
    expect(d.cipher_suites[0]).toMatchObject({ protocol: 'TLSv1.3', preference: 1 })
    expect(d.findings).toEqual([])
  })

  it('legacy: TLS 1.0 and 1.1 found (Node’s OpenSSL at SECLEVEL=0 on the server side), CBC and RSA key exchange rated weak', async () => {
    const d = await data(`/api/tls/ciphers/${enc(world.servers.legacy.target)}`)
    const supported = d.protocols.filter((p: { supported: boolean }) => p.supported).map((p: { protocol: string }) => p.protocol)
    expect(supported).toEqual(['TLSv1.0', 'TLSv1.1', 'TLSv1.2'])
    const tls10 = d.cipher_suites.filter((s: { protocol: string }) => s.protocol === 'TLSv1.0')
    expect(tls10.map((s: { openssl_name: string }) => s.openssl_name).sort()).toEqual(['AES128-SHA', 'AES256-SHA', 'ECDHE-RSA-AES128-SHA'])
    const rsa = tls10.find((s: { openssl_name: string }) => s.openssl_name === 'AES128-SHA')
    expect(rsa).toMatchObject({ strength: 'weak', forward_secrecy: false, aead: false, key_exchange: 'RSA', mac: 'SHA' })
    expect(d.summary.forward_secrecy).toBe('some')
  })

  it('a server that speaks TLS but answers every hello with an alert: 200, nothing supported, no suites, and a finding naming the alert', async () => {
    // handshake_failure (40) to every ClientHello, whatever it offers.
    const alert = Buffer.from([21, 3, 3, 0, 2, 2, 40])
    const refusing = createNetServer((socket) => {
      socket.on('error', () => {})
      socket.once('data', () => socket.end(alert))
    })
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.61', resolve))
    const port = (refusing.address() as AddressInfo).port
    try {
      const d = await data(`/api/tls/ciphers/127.0.0.61:${port}`)
      expect(d.protocols.map((p: { supported: boolean; error: string | null }) => [p.supported, p.error])).toEqual(Array(5).fill([false, null]))
      expect(d.cipher_suites).toEqual([])
      expect(d.findings).toEqual([
        expect.objectContaining({ id: 'no_protocol_accepted', severity: 'critical', message: expect.stringContaining(`127.0.0.61:${port} speaks TLS but refused every hello (handshake_failure)`) }),
      ])
      expect(d.findings[0].fix).toMatch(/SNI/)
    } finally {
      await new Promise((resolve) => refusing.close(resolve))
    }
  })

  it('TLS 1.3-only: nothing below 1.3', async () => {
    const d = await data(`/api/tls/ciphers/${enc(world.servers.tls13.target)}`)
    expect(d.protocols.filter((p: { supported: boolean }) => p.supported).map((p: { protocol: string }) => p.protocol)).toEqual(['TLSv1.3'])
    expect(d.cipher_suites.map((s: { name: string }) => s.name).sort()).toEqual(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'])
  })

  it('csv: one row per suite', async () => {
    const res = await t.request(`/api/tls/ciphers/${enc(world.servers.valid.target)}?format=csv`)
    const lines = (await res.text()).trim().split('\n')
    expect(lines).toHaveLength(7)
    expect(lines[0]).toContain('protocol')
  })
})

describe('targets that cannot be probed', () => {
  it('bad host syntax: 400 naming the parameter', async () => {
    for (const bad of ['exa mple.com', 'example.com:99999', 'example.com:0', '[example.com]:443', '999.1.1.1']) {
      const res = await t.json(`/api/tls/${enc(bad)}`)
      expect(res.status, bad).toBe(400)
      expect(res.body.error.code).toBe('bad_request')
    }
  })

  it('a closed port: 502 from upstream "tls", reason refused', async () => {
    const res = await t.json('/api/tls/127.0.0.61:1')
    expect(res.status).toBe(502)
    expect(res.body.error.details).toMatchObject({ upstream: 'tls', reason: 'refused' })
    const scan = await t.json('/api/tls/ciphers/127.0.0.61:1')
    expect(scan.status).toBe(502)
    expect(scan.body.error.details).toMatchObject({ upstream: 'tls', reason: 'refused' })
  })

  it('a port that speaks something else (plain HTTP): 502 bad_response', async () => {
    const plain = createServer((_req, res) => res.end('not tls'))
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.61', resolve))
    const port = (plain.address() as AddressInfo).port
    try {
      for (const path of [`/api/tls/127.0.0.61:${port}`, `/api/tls/ciphers/127.0.0.61:${port}`]) {
        const res = await t.json(path)
        expect(res.status, path).toBe(502)
        expect(res.body.error.details, path).toMatchObject({ upstream: 'tls', reason: 'bad_response' })
      }
    } finally {
      plain.closeAllConnections()
      await new Promise((resolve) => plain.close(resolve))
    }
  })

  it('a port that hangs up on every hello (reset, or a clean close): 502 reset from the handshake, the scan and the analysis alike', async () => {
    for (const hangUp of ['reset', 'close'] as const) {
      const rude = createNetServer((socket) => {
        socket.on('error', () => {})
        socket.once('data', () => (hangUp === 'reset' ? socket.resetAndDestroy() : socket.end()))
      })
      await new Promise<void>((resolve) => rude.listen(0, '127.0.0.61', resolve))
      const port = (rude.address() as AddressInfo).port
      try {
        for (const path of [`/api/tls/127.0.0.61:${port}`, `/api/tls/ciphers/127.0.0.61:${port}`, `/api/tls/analyze/127.0.0.61:${port}`]) {
          const res = await t.json(path)
          expect(res.status, `${hangUp} ${path}`).toBe(502)
          expect(res.body.error.details, `${hangUp} ${path}`).toMatchObject({ upstream: 'tls', reason: 'reset', host: `127.0.0.61:${port}` })
        }
        const scan = await t.json(`/api/tls/ciphers/127.0.0.61:${port}`)
        expect(scan.body.error.message).toMatch(/connections was closed or reset before any TLS answer/)
      } finally {
        await new Promise((resolve) => rude.close(resolve))
      }
    }
  })

  it('a silent port: 502 timeout within the handshake deadline (a third of the request deadline)', async () => {
    // Reads (so it notices the hang-up) but never answers.
    const silent = createNetServer((socket) => socket.resume())
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.61', resolve))
    const port = (silent.address() as AddressInfo).port
    try {
      const started = Date.now()
      const res = await t.json(`/api/tls/127.0.0.61:${port}`)
      expect(res.status).toBe(502)
      expect(res.body.error.details).toMatchObject({ upstream: 'tls', reason: 'timeout' })
      expect(Date.now() - started).toBeLessThan(5500)
    } finally {
      await new Promise((resolve) => silent.close(resolve))
    }
  })

  it('a name without addresses: 404; a refused target: 400', async () => {
    const missing = await t.json('/api/tls/nothing-here.tls.test')
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('not_found')
    const blocked = await t.json('/api/tls/10.0.0.1')
    expect(blocked.status).toBe(400)
    expect(blocked.body.error.details).toMatchObject({ param: 'target', reason: 'blocked' })
  })
})
