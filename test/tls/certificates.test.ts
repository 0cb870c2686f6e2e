import { afterAll, describe, expect, it, vi } from 'vitest'
import { parseCertificate } from '../../plugins/tls/certificate-details.ts'
import { analyzeChain } from '../../plugins/tls/chain.ts'
import type { Facts } from '../../plugins/tls/findings.ts'
import { collectFindings } from '../../plugins/tls/findings.ts'
import { grade, rsaEquivalent } from '../../plugins/tls/grade.ts'
import type { TlsTarget } from '../../registry/tls/schemas/host-param.ts'
import { matchHostname } from '../../plugins/tls/hostname.ts'
import { parseHsts } from '../../plugins/tls/hsts.ts'
import { parseOcspStaple } from '../../plugins/tls/ocsp.ts'
import { createTrustStore } from '../../plugins/tls/trust-store.ts'
import { issue, keyPair, ocspResponse } from '../support/tls-certs.ts'
import type { Issued } from '../support/tls-certs.ts'

// Certificate parsing, host name rules, chain building, OCSP staples, findings
// and grades, on certificates made here (test/support/tls-certs.ts).

const DAY = 86_400_000
// Certificates are issued and judged at one fixed instant (Date is faked in this
// file, test/support/tls-certs.ts dates them from it), so no expected value
// depends on the day the suite runs.
vi.useFakeTimers({ now: new Date('2031-05-20T12:00:00Z'), toFake: ['Date'] })
afterAll(() => void vi.useRealTimers())
const NOW = new Date()
const root = issue({ subject: { cn: 'Unit Root', o: 'Unit' }, ca: true, key: keyPair({ type: 'rsa', bits: 2048 }, true) })
const inter = issue({ subject: { cn: 'Unit Issuing' }, issuer: root, ca: true, pathLength: 0, key: keyPair({ type: 'ec', curve: 'P-384' }) })
const leaf = issue({ subject: { cn: 'a.unit.test' }, issuer: inter, dns: ['a.unit.test', '*.w.unit.test'], ips: ['192.0.2.7', '2001:db8::7'] })
const store = createTrustStore({ extraPem: root.pem })

const target = (host: string, kind: TlsTarget['kind'] = 'name'): TlsTarget => ({ host, port: 443, kind, label: `${host}:443` })

describe('parseCertificate', () => {
  it('reads names, SANs (DNS and IP, IPv6 in RFC 5952 form), key and signature', () => {
    const d = parseCertificate(leaf.der, NOW)
    expect(d.sans).toEqual({ dns: ['a.unit.test', '*.w.unit.test'], ip: ['192.0.2.7', '2001:db8::7'], email: [], uri: [] })
    expect(d.signature_algorithm).toEqual({ name: 'ecdsa-with-SHA256', oid: '1.2.840.10045.4.3.2', hash: 'SHA-256', weak: false })
    expect(d.issuer.common_name).toBe('Unit Issuing')
    expect(d.version).toBe(3)
    expect(parseCertificate(inter.der, NOW).public_key).toEqual({ type: 'EC', bits: 384, curve: 'P-384' })
    expect(parseCertificate(root.der, NOW)).toMatchObject({ self_signed: true, basic_constraints: { ca: true, path_length: null, critical: true } })
  })

  it('SHA-1 signatures are flagged weak; validity and days left count from now', () => {
    const old = issue({ subject: { cn: 'old.unit.test' }, issuer: root, hash: 'sha1', notBefore: new Date(NOW.getTime() - 400 * DAY), notAfter: new Date(NOW.getTime() - 5 * DAY) })
    const d = parseCertificate(old.der, NOW)
    expect(d.signature_algorithm).toMatchObject({ name: 'sha1WithRSAEncryption', hash: 'SHA-1', weak: true })
    expect(d).toMatchObject({ expired: true, not_yet_valid: false, validity_days: 395 })
    expect(d.days_left).toBeLessThanOrEqual(-5)
    const future = parseCertificate(issue({ subject: { cn: 'f' }, issuer: root, notBefore: new Date(NOW.getTime() + 2 * DAY) }).der, NOW)
    expect(future.not_yet_valid).toBe(true)
  })
})

describe('matchHostname', () => {
  const cert = parseCertificate(leaf.der, NOW)
  it.each([
    ['a.unit.test', true, 'dns'],
    ['A.unit.test'.toLowerCase(), true, 'dns'],
    ['x.w.unit.test', true, 'wildcard'],
    ['w.unit.test', false, null],
    ['y.x.w.unit.test', false, null],
    ['b.unit.test', false, null],
  ])('%s -> %s', (host, matches, method) => {
    expect(matchHostname(target(host), cert)).toMatchObject({ matches, method })
  })

  it('IP targets match iPAddress entries only', () => {
    expect(matchHostname(target('192.0.2.7', 'ipv4'), cert)).toMatchObject({ matches: true, method: 'ip' })
    expect(matchHostname(target('2001:db8::7', 'ipv6'), cert)).toMatchObject({ matches: true, method: 'ip' })
    expect(matchHostname(target('192.0.2.8', 'ipv4'), cert).matches).toBe(false)
    const named = parseCertificate(issue({ subject: { cn: '192.0.2.9' }, issuer: root, dns: ['192.0.2.9'] }).der, NOW)
    expect(matchHostname(target('192.0.2.9', 'ipv4'), named).matches).toBe(false)
  })

  it('no public-suffix-wide or partial wildcards, and the CN is never used', () => {
    const wide = parseCertificate(issue({ subject: { cn: 'x' }, issuer: root, dns: ['*.test', 'f*.unit.test'] }).der, NOW)
    expect(matchHostname(target('unit.test'), wide).matches).toBe(false)
    expect(matchHostname(target('foo.unit.test'), wide).matches).toBe(false)
    const cnOnly = parseCertificate(issue({ subject: { cn: 'cn.unit.test' }, issuer: root }).der, NOW)
    expect(matchHostname(target('cn.unit.test'), cnOnly)).toMatchObject({ matches: false, reason: expect.stringMatching(/CN "cn.unit.test" is ignored/) })
  })
})

describe('analyzeChain', () => {
  const chain = (...certs: Issued[]) => analyzeChain(certs.map((c) => c.der), store)

  it('leaf + intermediate: complete, anchored in the extra roots, in order', () => {
    expect(chain(leaf, inter)).toMatchObject({ complete: true, anchored: true, anchor_source: 'extra', order_ok: true, unused_positions: [], root_served: false, missing_issuer: null })
    expect(chain(leaf, inter).path.map((l) => l.source)).toEqual(['served', 'served', 'trust_store'])
  })

  it('out of order, with the root and an unrelated certificate', () => {
    const stray = issue({ subject: { cn: 'stray' }, issuer: root })
    const a = chain(leaf, root, stray, inter)
    expect(a).toMatchObject({ complete: true, anchored: true, order_ok: false, unused_positions: [2], root_served: true })
    expect(a.path.map((l) => l.served_position)).toEqual([0, 3, 1])
  })

  it('missing intermediate: incomplete, naming the issuer', () => {
    expect(chain(leaf)).toMatchObject({ complete: false, anchored: false, missing_issuer: 'CN=Unit Issuing' })
  })

  it('self-signed leaf without keyCertSign: complete (it ends in itself) but not anchored', () => {
    const self = issue({ subject: { cn: 'self.unit.test' }, dns: ['self.unit.test'] })
    expect(chain(self)).toMatchObject({ complete: true, anchored: false })
    expect(chain(self).path[0]!.self_signed).toBe(true)
  })

  it('a chain to a root nobody trusts: complete, not anchored', () => {
    const otherRoot = issue({ subject: { cn: 'Other Root' }, ca: true, key: keyPair({ type: 'rsa', bits: 2048 }, true) })
    const otherLeaf = issue({ subject: { cn: 'o.unit.test' }, issuer: otherRoot })
    expect(chain(otherLeaf, otherRoot)).toMatchObject({ complete: true, anchored: false, root_served: true })
  })
})

describe('parseOcspStaple', () => {
  const issuerX509 = inter.x509
  it('good, about the leaf, signed by the issuer, current', () => {
    expect(parseOcspStaple(ocspResponse(leaf, inter), leaf.serial, issuerX509, NOW)).toMatchObject({
      response_status: 'successful',
      cert_status: 'good',
      matches_certificate: true,
      signature_valid: true,
      current: true,
    })
  })

  it('revoked, about another certificate, signed by someone else, or stale', () => {
    expect(parseOcspStaple(ocspResponse(leaf, inter, 'revoked'), leaf.serial, issuerX509, NOW)).toMatchObject({ cert_status: 'revoked', revoked_at: expect.any(String) })
    const other = issue({ subject: { cn: 'other.unit.test' }, issuer: inter })
    expect(parseOcspStaple(ocspResponse(other, inter), leaf.serial, issuerX509, NOW).matches_certificate).toBe(false)
    expect(parseOcspStaple(ocspResponse(leaf, inter), leaf.serial, root.x509, NOW).signature_valid).toBe(false)
    expect(parseOcspStaple(ocspResponse(leaf, inter, 'good', -1), leaf.serial, issuerX509, NOW).current).toBe(false)
  })
})

describe('parseHsts', () => {
  it('reads max-age, includeSubDomains and preload in any case and order', () => {
    expect(parseHsts('max-age=31536000; includeSubDomains; preload')).toEqual({ max_age: 31536000, include_subdomains: true, preload: true })
    expect(parseHsts('Preload;MAX-AGE="600"')).toEqual({ max_age: 600, include_subdomains: false, preload: true })
    expect(parseHsts('includeSubDomains')).toEqual({ max_age: null, include_subdomains: true, preload: false })
  })
})

describe('findings and grades', () => {
  const base = (): Facts => {
    const chainAnalysis = analyzeChain([leaf.der, inter.der], store)
    const parsedLeaf = parseCertificate(leaf.der, NOW)
    return {
      host: 'a.unit.test',
      leaf: parsedLeaf,
      path: [parsedLeaf, parseCertificate(inter.der, NOW)],
      chain: chainAnalysis,
      verified: true,
      verify_error: null,
      hostname: matchHostname(target('a.unit.test'), parsedLeaf),
      protocols: ['TLSv1.2', 'TLSv1.3'],
      suites: [],
      client_ordered: [],
      dh_bits: null,
      ocsp: null,
      hsts: { checked: true, error: null, status: 200, header: null, present: false, max_age: null, include_subdomains: false, preload: false, long_max_age: false },
      now: NOW,
    }
  }
  const ids = (f: Facts) => collectFindings(f).map((x) => `${x.id}:${x.severity}:${x.grade_cap}`)

  it('a SHA-1 signed intermediate is a trust failure; a SHA-1 root self-signature is not', () => {
    const sha1Inter = issue({ subject: { cn: 'SHA1 Issuing' }, issuer: root, ca: true, hash: 'sha1' })
    const f = base()
    f.path = [f.leaf, parseCertificate(sha1Inter.der, NOW)]
    expect(ids(f)).toContain('weak_signature:critical:T')
    const sha1Root = issue({ subject: { cn: 'SHA1 Root' }, ca: true, hash: 'sha1' })
    f.path = [f.leaf, parseCertificate(sha1Root.der, NOW)]
    expect(ids(f).some((x) => x.startsWith('weak_signature'))).toBe(false)
  })

  it('must-staple without a staple; DHE with a 1024-bit group; legacy protocols', () => {
    const f = base()
    f.leaf = parseCertificate(issue({ subject: { cn: 'a.unit.test' }, issuer: inter, dns: ['a.unit.test'], mustStaple: true }).der, NOW)
    f.dh_bits = 1024
    f.protocols = ['TLSv1.0', 'TLSv1.2']
    expect(ids(f)).toEqual(expect.arrayContaining(['must_staple_not_stapled:high:null', 'weak_dh_group:medium:B', 'tls10_supported:medium:B', 'tls13_not_supported:low:A-']))
  })

  it('grade: score to letter, caps, A+ and A-, T before M', () => {
    const score = { protocol: 100, key_exchange: 90, cipher_strength: 90, total: 93 }
    const g = (over: Partial<Parameters<typeof grade>[0]>) => grade({ score, caps: [], warnings: false, hstsLong: false, tls13: true, trusted: true, nameMatches: true, ...over })
    expect(g({})).toEqual({ grade: 'A', grade_if_trusted: 'A' })
    expect(g({ hstsLong: true })).toEqual({ grade: 'A+', grade_if_trusted: 'A+' })
    expect(g({ hstsLong: true, warnings: true })).toEqual({ grade: 'A', grade_if_trusted: 'A' })
    expect(g({ tls13: false, hstsLong: true })).toEqual({ grade: 'A-', grade_if_trusted: 'A-' })
    expect(g({ caps: ['B', 'C'] })).toEqual({ grade: 'C', grade_if_trusted: 'C' })
    expect(g({ trusted: false, nameMatches: false })).toEqual({ grade: 'T', grade_if_trusted: 'A' })
    expect(g({ nameMatches: false })).toEqual({ grade: 'M', grade_if_trusted: 'A' })
    expect(g({ score: { ...score, total: 40 } }).grade).toBe('D')
    expect(rsaEquivalent('EC', 256)).toBe(3072)
    expect(rsaEquivalent('RSA', 1024)).toBe(1024)
  })
})
