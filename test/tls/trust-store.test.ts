import { X509Certificate } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rootCertificates } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analyzeChain } from '../../plugins/tls/chain.ts'
import { createTrustStore, loadSystemRoots } from '../../plugins/tls/trust-store.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestPki, TlsTestServer } from '../support/tls-servers.ts'
import { createTestPki, HSTS_HEADER, leafFor, startTlsServer } from '../support/tls-servers.ts'

// "System roots" are the operating system's bundle (SSL_CERT_FILE, else the
// distribution's path), with Node's bundled Mozilla roots only where there is
// none. Here a temporary bundle holding a test root stands in for the system's.

const DAY = 86_400_000
let dir: string
let pki: TestPki
let bundle: string
const mozilla = new X509Certificate(rootCertificates[0]!)

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'infralens-bundle-'))
  pki = createTestPki()
  bundle = join(dir, 'ca-certificates.crt')
  // A bundle as distributions write it: comments between the PEM blocks.
  writeFileSync(bundle, `# Infralens Test Root CA\n${pki.root.pem}\n# junk that is not a certificate\n`)
  writeFileSync(join(dir, 'empty.crt'), '# nothing here\n')
})
afterAll(() => {
  pki?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('loadSystemRoots', () => {
  it('SSL_CERT_FILE names the bundle', () => {
    const roots = loadSystemRoots(bundle)
    expect(roots.origin).toBe(bundle)
    expect(roots.pems).toHaveLength(1)
    expect(new X509Certificate(roots.pems[0]!).fingerprint256).toBe(pki.root.x509.fingerprint256)
  })

  it('unset: the first usual path that holds certificates', () => {
    expect(loadSystemRoots(undefined, [join(dir, 'missing.crt'), join(dir, 'empty.crt'), bundle]).origin).toBe(bundle)
  })

  it('no bundle (missing, or without a certificate): Node’s bundled roots', () => {
    for (const roots of [loadSystemRoots(join(dir, 'missing.crt')), loadSystemRoots(join(dir, 'empty.crt')), loadSystemRoots(undefined, [join(dir, 'missing.crt')])]) {
      expect(roots.origin).toBe('node')
      expect(roots.pems).toEqual(rootCertificates)
    }
  })
})

describe('createTrustStore', () => {
  it('the system bundle replaces Node’s list; only Mozilla roots count as public', () => {
    const store = createTrustStore({ system: loadSystemRoots(bundle) })
    expect(store.sourceOf(pki.root.x509)).toBe('system')
    expect(store.sourceOf(mozilla)).toBeNull()
    expect(store.isPublicRoot(pki.root.x509)).toBe(false)
    expect(store.isPublicRoot(mozilla)).toBe(true)
    expect(store.ca).toEqual([pki.root.pem.trim()])
    expect(store.systemOrigin).toBe(bundle)
  })

  it('without a bundle: Node’s roots (and node:tls defaults), the extra file on top', () => {
    const plain = createTrustStore()
    expect(plain.sourceOf(mozilla)).toBe('system')
    expect(plain.ca).toBeUndefined()
    const extra = createTrustStore({ extraPem: pki.root.pem })
    expect(extra.sourceOf(pki.root.x509)).toBe('extra')
    expect(extra.ca).toHaveLength(rootCertificates.length + 1)
  })

  it('a long-lived leaf under a root the system trusts but Mozilla does not: anchored, not public', () => {
    const leaf = leafFor(pki, 'long.tls.test', { notAfter: new Date(Date.now() + 800 * DAY) })
    const chain = analyzeChain([leaf.der, pki.intermediate.der], createTrustStore({ system: loadSystemRoots(bundle) }))
    expect(chain).toMatchObject({ complete: true, anchored: true, anchor_source: 'system', anchor_public: false })
  })
})

describe('the service with SSL_CERT_FILE', () => {
  let server: TlsTestServer
  const apps: TestApp[] = []
  const app = async (env: Record<string, string>) => {
    const t = await startTestApp({ ...env, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true', INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0' })
    apps.push(t)
    return t
  }
  beforeAll(async () => {
    // An IP SAN, so no DNS is needed; valid 800 days (more than a public CA may issue).
    const leaf = leafFor(pki, '127.0.0.1', { dns: [], ips: ['127.0.0.1'], notAfter: new Date(Date.now() + 800 * DAY) })
    server = await startTlsServer({ address: '127.0.0.1', leaf, chain: [pki.intermediate], hsts: HSTS_HEADER })
  })
  afterAll(async () => {
    await Promise.all(apps.map((t) => t.close()))
    await server?.close()
  })

  it('a root from the system bundle: anchored as "system", verified by OpenSSL, HSTS read over the same trust, no public-CA validity finding', async () => {
    const t = await app({ SSL_CERT_FILE: bundle })
    const res = await t.json(`/api/tls/analyze/127.0.0.1:${server.port}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(d.chain).toMatchObject({ verified: true, verify_error: null, complete: true, anchored: true, anchor_source: 'system' })
    expect(d.trusted).toBe(true)
    expect(d.hsts).toMatchObject({ checked: true, present: true, long_max_age: true })
    expect(d.findings.map((f: { id: string }) => f.id)).not.toContain('validity_too_long')
    expect(d.grade).toBe('A+')
  })

  it('SSL_CERT_FILE pointing nowhere: Node’s roots, which do not know the test root', async () => {
    const t = await app({ SSL_CERT_FILE: join(dir, 'missing.crt') })
    const res = await t.json(`/api/tls/analyze/127.0.0.1:${server.port}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(d.chain).toMatchObject({ verified: false, verify_error: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', anchored: false, anchor_source: null })
    expect(d.grade).toBe('T')
    expect(d.hsts.checked).toBe(false)
  })
})
