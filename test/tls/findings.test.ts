import { afterAll, describe, expect, it, vi } from 'vitest'
import { parseCertificate } from '../../plugins/tls/certificate-details.ts'
import { analyzeChain } from '../../plugins/tls/chain.ts'
import type { CipherSuite } from '../../plugins/tls/cipher-suites.ts'
import { suiteByName } from '../../plugins/tls/cipher-suites.ts'
import type { Facts } from '../../plugins/tls/findings.ts'
import { collectFindings } from '../../plugins/tls/findings.ts'
import type { Hsts } from '../../plugins/tls/hsts.ts'
import { matchHostname } from '../../plugins/tls/hostname.ts'
import { parseOcspStaple } from '../../plugins/tls/ocsp.ts'
import { createTrustStore } from '../../plugins/tls/trust-store.ts'
import type { Issued } from '../support/tls-certs.ts'
import { issue, keyPair, ocspResponse } from '../support/tls-certs.ts'

// collectFindings, one finding at a time: a clean deployment has none, and each
// case changes one fact and gets exactly the finding (id, severity, grade cap)
// that fact calls for. The end-to-end servers (servers.test.ts) cover the
// findings a loopback server can show; these are the ones it cannot, or not cheaply.

const DAY = 86_400_000
// Certificates are issued and judged at one fixed instant (Date is faked in this
// file, test/support/tls-certs.ts dates them from it), so no expected value
// depends on the day the suite runs.
vi.useFakeTimers({ now: new Date('2031-05-20T12:00:00Z'), toFake: ['Date'] })
afterAll(() => void vi.useRealTimers())
const NOW = new Date()
const root = issue({ subject: { cn: 'Findings Root', o: 'Unit' }, ca: true, key: keyPair({ type: 'rsa', bits: 2048 }, true) })
const inter = issue({ subject: { cn: 'Findings Issuing' }, issuer: root, ca: true, pathLength: 0 })
const HOST = 'f.unit.test'
const leafWith = (extra: Partial<Parameters<typeof issue>[0]> = {}) => issue({ subject: { cn: HOST }, issuer: inter, dns: [HOST], ...extra })
const leaf = leafWith()
const store = createTrustStore({ extraPem: root.pem })

const suites = (...names: string[]): CipherSuite[] =>
  names.map((name) => {
    const suite = suiteByName(name)
    if (!suite) throw new Error(`no suite ${name}`)
    return suite
  })
const MODERN = suites('TLS_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256')
const HSTS_LONG: Hsts = { checked: true, error: null, status: 200, header: 'max-age=31536000', present: true, max_age: 31536000, include_subdomains: false, preload: false, long_max_age: true }

function facts(cert: Issued = leaf, served: Issued[] = [cert, inter]): Facts {
  const parsed = parseCertificate(cert.der, NOW)
  const chain = analyzeChain(
    served.map((c) => c.der),
    store,
  )
  return {
    host: HOST,
    leaf: parsed,
    path: chain.path.filter((l) => l.served_position !== null).map((l) => parseCertificate(served[l.served_position!]!.der, NOW)),
    chain,
    verified: true,
    verify_error: null,
    hostname: matchHostname({ host: HOST, port: 443, kind: 'name', label: `${HOST}:443` }, parsed),
    protocols: ['TLSv1.2', 'TLSv1.3'],
    suites: MODERN,
    client_ordered: [],
    dh_bits: null,
    ocsp: null,
    hsts: HSTS_LONG,
    now: NOW,
  }
}

const found = (f: Facts) => collectFindings(f).map((x) => `${x.id}:${x.severity}:${x.grade_cap}`)
const finding = (f: Facts, id: string) => collectFindings(f).find((x) => x.id === id)

describe('collectFindings', () => {
  it('a clean deployment: no findings at all', () => {
    expect(collectFindings(facts())).toEqual([])
  })

  it('chain_invalid: anchored and complete, yet OpenSSL rejects it (and nothing else explains why)', () => {
    const f = facts()
    f.verified = false
    f.verify_error = 'CERT_SIGNATURE_FAILURE'
    expect(found(f)).toEqual(['chain_invalid:critical:T'])
    expect(finding(f, 'chain_invalid')!.message).toContain('CERT_SIGNATURE_FAILURE')
  })

  it('certificate_revoked: a revoked staple, and not also ocsp_staple_invalid', () => {
    const f = facts()
    f.ocsp = parseOcspStaple(ocspResponse(leaf, inter, 'revoked'), leaf.serial, inter.x509, NOW)
    expect(found(f)).toEqual(['certificate_revoked:critical:T'])
    expect(finding(f, 'certificate_revoked')!.message).toMatch(/revoked on \d{4}-/)
  })

  it.each([
    ['about another certificate', () => ocspResponse(leafWith({ serial: 'abcdef01' }), inter), inter, 'it is about another certificate'],
    ['signed by someone else', () => ocspResponse(leaf, inter), root, 'its signature does not verify'],
    ['outside its validity window', () => ocspResponse(leaf, inter, 'good', -1), inter, 'it is outside its validity window'],
  ])('ocsp_staple_invalid: %s', (_title, response, issuer, why) => {
    const f = facts()
    f.ocsp = parseOcspStaple(response(), leaf.serial, issuer.x509, NOW)
    expect(found(f)).toEqual(['ocsp_staple_invalid:medium:null'])
    expect(finding(f, 'ocsp_staple_invalid')!.message).toContain(why)
  })

  it('hsts_short: a header under 180 days', () => {
    const f = facts()
    f.hsts = { ...HSTS_LONG, header: 'max-age=86400', max_age: 86400, long_max_age: false }
    expect(found(f)).toEqual(['hsts_short:low:null'])
    expect(finding(f, 'hsts_short')!.message).toContain('86400')
  })

  it('hsts_not_checked: the GET failed, with the reason', () => {
    const f = facts()
    f.hsts = { checked: false, error: 'certificate has expired', status: null, header: null, present: false, max_age: null, include_subdomains: false, preload: false, long_max_age: false }
    expect(found(f)).toEqual(['hsts_not_checked:info:null'])
    expect(finding(f, 'hsts_not_checked')!.message).toContain('certificate has expired')
  })

  it('sslv3_supported caps at C', () => {
    const f = facts()
    f.protocols = ['SSLv3', 'TLSv1.2', 'TLSv1.3']
    expect(found(f)).toEqual(['sslv3_supported:critical:C'])
  })

  it('no_modern_tls: neither 1.2 nor 1.3 (and no separate "no TLS 1.3" finding)', () => {
    const f = facts()
    f.protocols = ['TLSv1.0']
    expect(found(f)).toEqual(['tls10_supported:medium:B', 'no_modern_tls:high:C'])
  })

  it('insecure_suites: NULL, export and anonymous suites, named, cap F', () => {
    const f = facts()
    f.suites = [...MODERN, ...suites('TLS_RSA_WITH_NULL_SHA', 'TLS_RSA_EXPORT_WITH_RC4_40_MD5', 'TLS_DH_anon_WITH_AES_128_CBC_SHA')]
    const ids = found(f)
    expect(ids).toContain('insecure_suites:critical:F')
    // Those three are not also counted as merely "broken".
    expect(ids.some((x) => x.startsWith('broken_suites'))).toBe(false)
    expect(finding(f, 'insecure_suites')!.message).toContain('TLS_RSA_WITH_NULL_SHA, TLS_RSA_EXPORT_WITH_RC4_40_MD5, TLS_DH_anon_WITH_AES_128_CBC_SHA')
  })

  it('broken_suites: RC4 caps at C', () => {
    const f = facts()
    f.suites = [...MODERN, ...suites('TLS_ECDHE_RSA_WITH_RC4_128_SHA')]
    expect(found(f)).toEqual(['broken_suites:high:C', 'cbc_suites:info:null'])
    expect(finding(f, 'broken_suites')!.message).toContain('TLS_ECDHE_RSA_WITH_RC4_128_SHA')
  })

  it('sweet32_suites: 3DES caps at C', () => {
    const f = facts()
    f.suites = [...MODERN, ...suites('TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA')]
    const ids = found(f)
    expect(ids).toContain('sweet32_suites:medium:C')
    expect(finding(f, 'sweet32_suites')!.message).toContain('TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA')
  })

  it('no_forward_secrecy: only static RSA key exchange, cap B', () => {
    const f = facts()
    f.protocols = ['TLSv1.2']
    f.suites = suites('TLS_RSA_WITH_AES_128_GCM_SHA256', 'TLS_RSA_WITH_AES_256_GCM_SHA384')
    expect(found(f)).toEqual(['tls13_not_supported:low:A-', 'no_forward_secrecy:high:B'])
  })

  it('no_aead: only CBC suites, cap B', () => {
    const f = facts()
    f.protocols = ['TLSv1.2']
    f.suites = suites('TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA')
    expect(found(f)).toEqual(['tls13_not_supported:low:A-', 'no_aead:medium:B'])
  })

  it('certificate_expiring: high within a week, medium within 30 days, nothing beyond', () => {
    const expiring = (days: number) => found(facts(leafWith({ notAfter: new Date(NOW.getTime() + days * DAY + 3_600_000) })))
    expect(expiring(5)).toEqual(['certificate_expiring:high:null'])
    expect(expiring(20)).toEqual(['certificate_expiring:medium:null'])
    expect(expiring(45)).toEqual([])
  })

  it('validity_too_long: over 398 days under a public (Mozilla) root only', () => {
    const long = leafWith({ notBefore: new Date(NOW.getTime() - DAY), notAfter: new Date(NOW.getTime() + 500 * DAY) })
    const f = facts(long)
    expect(f.chain.anchor_public).toBe(false)
    expect(found(f)).toEqual([])
    f.chain = { ...f.chain, anchor_source: 'system', anchor_public: true }
    expect(found(f)).toEqual(['validity_too_long:medium:null'])
    expect(finding(f, 'validity_too_long')!.message).toContain('501 days')
  })

  it('chain_extra_certificates: a served certificate that is not on the path, by position', () => {
    const stray = issue({ subject: { cn: 'stray.unit.test' }, issuer: inter, dns: ['stray.unit.test'] })
    const f = facts(leaf, [leaf, inter, stray])
    expect(found(f)).toEqual(['chain_extra_certificates:low:null'])
    expect(finding(f, 'chain_extra_certificates')!.message).toContain('positions 2')
  })
})
