import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { ISSUANCE_FINDING_IDS } from '../../registry/domain/schemas/issuance-data.ts'
import { authorize, caaSet, climb, issuerDomain } from '../../plugins/domain/issuance/caa-set.ts'
import { caOf } from '../../plugins/domain/issuance/ca-identifiers.ts'
import type { TestApp } from '../support/app.ts'
import { documentedAnswer, maxAge } from '../support/documented-answer.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeCrtsh } from '../support/fake-crtsh.ts'
import { startFakeCrtsh } from '../support/fake-crtsh.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'
import type { Issued } from '../support/tls-certs.ts'
import { issue, keyPair } from '../support/tls-certs.ts'
import type { TlsTestServer } from '../support/tls-servers.ts'
import { startTlsServer } from '../support/tls-servers.ts'
import { hostTime } from '../support/world-time.ts'

// /api/domain/issuance (issue 25, item 2) on the loopback internet: zones with CAA
// at different heights of the tree, TLS servers on 127.0.0.x whose leaves come
// from test CAs named like public CAs (test certificates: the names are values,
// the keys are made here), and crt.sh answers served by the fake. All test data
// written for this file:
//
//   test.                 the TLD: no CAA
//   issuance.test         CAA issue "letsencrypt.org", issuewild "pki.goog"
//   good.issuance.test    no CAA of its own (the climb finds issuance.test); serves a
//                         "Let's Encrypt" leaf: allowed; CT: an LE certificate whose
//                         www name no longer resolves
//   wild.issuance.test    serves an LE wildcard *.issuance.test: issuewild allows only
//                         pki.goog, so not allowed
//   bad.issuance.test     own CAA issue "pki.goog"; serves an LE leaf: not allowed; CT:
//                         Google (allowed), DigiCert (not allowed), the test CA (unknown)
//   multi.nocaa.test      no CAA up to the TLD; CT shows two CAs; nothing listens on its port

const TEST_TLD = `
$ORIGIN test.
$TTL 300
@    IN SOA ns1.infralens.test. hostmaster.infralens.test. ( 1 3600 900 604800 120 )
@    IN NS  ns1.infralens.test.
`
const ISSUANCE_ZONE = `
$ORIGIN issuance.test.
$TTL 300
@    IN SOA ns1 hostmaster ( 1 3600 900 604800 120 )
@    IN NS  ns1
ns1  IN A   192.0.2.53
@    IN CAA 0 issue "letsencrypt.org; validationmethods=dns-01"
@    IN CAA 0 issuewild "pki.goog"
@    IN CAA 0 iodef "mailto:security@issuance.test"
good IN A   127.0.0.61
wild IN A   127.0.0.62
bad  IN A   127.0.0.63
bad  IN CAA 0 issue "pki.goog"
`
const NOCAA_ZONE = `
$ORIGIN nocaa.test.
$TTL 300
@     IN SOA ns1 hostmaster ( 1 3600 900 604800 120 )
@     IN NS  ns1
ns1   IN A   192.0.2.53
multi IN A   127.0.0.64
old   IN A   192.0.2.9
`

const time = hostTime()
const DAY = 86_400_000
let dns: LoopbackDns
let crtsh: FakeCrtsh
let app: TestApp
const servers: TlsTestServer[] = []
let port = 0

const crtshDate = (ms: number) => new Date(ms).toISOString().slice(0, 19)
let nextId = 9_000_000_001
/** A crt.sh JSON row (its current shape) for an unexpired certificate, written for these tests. */
function row(names: string[], issuer: string, serial: string, caId: number) {
  return {
    issuer_ca_id: caId, issuer_name: issuer, common_name: names[0], name_value: names.join('\n'), id: nextId++,
    entry_timestamp: crtshDate(time.now - 10 * DAY), not_before: crtshDate(time.now - 10 * DAY), not_after: crtshDate(time.now + 80 * DAY), serial_number: serial,
  }
}

function testCa(cn: string, o: string, root?: Issued): Issued {
  return issue({ subject: { cn, o, c: 'US' }, ca: true, key: keyPair({ type: 'ec', curve: 'P-256' }), ...time.ca, ...(root ? { issuer: root, pathLength: 0 } : {}) })
}

beforeAll(async () => {
  dns = await startLoopbackDns({ zones: [TEST_TLD, ISSUANCE_ZONE, NOCAA_ZONE] })
  crtsh = await startFakeCrtsh()
  const root = testCa('Infralens Issuance Test Root', 'Infralens Tests')
  const le = testCa('R3 (infralens test CA)', "Let's Encrypt", root)
  const leaf = (dnsNames: string[]) => issue({ subject: { cn: dnsNames[0]! }, issuer: le, dns: dnsNames, key: keyPair({ type: 'ec', curve: 'P-256' }), ...time.leaf })
  // One port for every server (each on its own address), so one ?port= reaches them all.
  const first = await startTlsServer({ address: '127.0.0.61', leaf: leaf(['good.issuance.test']), chain: [le] })
  port = first.port
  servers.push(first)
  servers.push(await startTlsServer({ address: '127.0.0.62', port, leaf: leaf(['*.issuance.test']), chain: [le] }))
  servers.push(await startTlsServer({ address: '127.0.0.63', port, leaf: leaf(['bad.issuance.test']), chain: [le] }))

  crtsh.serve('good.issuance.test', [row(['good.issuance.test', 'www.good.issuance.test'], "C=US, O=Let's Encrypt, CN=R3", 'aa01', 1)])
  crtsh.serve('bad.issuance.test', [
    row(['bad.issuance.test'], 'C=US, O=Google Trust Services, CN=WR1', 'bb01', 2),
    row(['bad.issuance.test'], 'C=US, O=DigiCert Inc, CN=DigiCert Global G2 TLS RSA SHA256 2020 CA1', 'bb02', 3),
    row(['bad.issuance.test'], 'C=US, O=DigiCert Inc, CN=DigiCert Global G2 TLS RSA SHA256 2020 CA1', 'bb03', 3),
    row(['bad.issuance.test'], 'C=US, O=Infralens Tests, CN=Infralens Test Issuing CA', 'bb04', 4),
  ])
  crtsh.serve('multi.nocaa.test', [
    row(['multi.nocaa.test', 'old.nocaa.test'], "C=US, O=Let's Encrypt, CN=R3", 'cc01', 1),
    row(['multi.nocaa.test'], 'C=GB, O=Sectigo Limited, CN=Sectigo RSA Domain Validation Secure Server CA', 'cc02', 5),
  ])
  app = await startTestApp({ ...dns.env, ...crtsh.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_REQUEST_TIMEOUT_MS: '8000' })
})
afterAll(async () => {
  await app?.close()
  for (const s of servers) await s.close()
  await crtsh?.close()
  await dns?.close()
})
afterEach(() => {
  crtsh.setFault(null)
  dns.resolver.setFault(null)
})

const answer = documentedAnswer(() => app, 'domain.issuance')
type Json = Record<string, any>
const ids = (d: Json) => d.findings.map((f: Json) => f.id)

describe('the CAA set and the CA table (units)', () => {
  it('climbs label by label to the TLD; reads issuer domains; issuewild governs wildcards only', () => {
    expect(climb('a.b.example.com')).toEqual(['a.b.example.com', 'b.example.com', 'example.com', 'com'])
    expect(issuerDomain('LetsEncrypt.org ; accounturi=https://x')).toBe('letsencrypt.org')
    expect(issuerDomain(';')).toBeNull()
    const set = caaSet([{ flags: 0, tag: 'issue', value: 'letsencrypt.org' }, { flags: 0, tag: 'issuewild', value: ';' }])
    expect(authorize(set, ['letsencrypt.org'], false)).toBe('allowed')
    expect(authorize(set, ['letsencrypt.org'], true)).toBe('not_allowed')
    expect(authorize(caaSet([{ flags: 0, tag: 'iodef', value: 'mailto:x@y' }]), ['pki.goog'], false)).toBe('unrestricted')
    expect(authorize(set, null, false)).toBe('unknown_issuer')
    expect(authorize(null, ['pki.goog'], false)).toBe('no_caa')
    expect(authorize(undefined, ['pki.goog'], false)).toBe('unknown')
    expect(caOf("let's encrypt")?.caa).toEqual(['letsencrypt.org'])
    expect(caOf('Some Unknown CA Ltd')).toBeNull()
  })
})

describe('/api/domain/issuance: one fixture per signal', () => {
  it('good.issuance.test: the climb finds issuance.test; the served LE leaf is allowed; a CT name that no longer resolves', async () => {
    const res = await answer(`/api/domain/issuance/good.issuance.test?port=${port}`)
    const d = res.body.data
    expect(d.caa).toEqual({
      relevant_name: 'issuance.test',
      records: expect.arrayContaining(['0 issue "letsencrypt.org; validationmethods=dns-01"', '0 issuewild "pki.goog"']),
      issue: ['letsencrypt.org'], issuewild: ['pki.goog'], complete: true,
      lookups: [{ name: 'good.issuance.test', status: 'nodata', count: 0 }, { name: 'issuance.test', status: 'answer', count: 3 }],
    })
    expect(d.served).toMatchObject({ host: 'good.issuance.test', port, names: ['good.issuance.test'], wildcard: false, authorization: 'allowed', issuer: { organization: "Let's Encrypt", ca: "Let's Encrypt (ISRG)", caa_identifiers: ['letsencrypt.org'] } })
    expect(d.logged.issuers).toEqual([expect.objectContaining({ organization: "Let's Encrypt", certificates: 1, authorization: 'allowed', example_serials: ['aa01'] })])
    expect(d.names).toEqual([{ name: 'good.issuance.test', resolves: true, status: 'answer/nodata' }, { name: 'www.good.issuance.test', resolves: false, status: 'nxdomain' }])
    expect(ids(d)).toEqual(['issuance.unresolved_names'])
    expect(d.findings[0].evidence).toEqual(['www.good.issuance.test: nxdomain'])
    expect(d.errors).toEqual([])
    expect(maxAge(res.headers)).toBe(900)
  })

  it('wild.issuance.test: an LE wildcard where issuewild names only pki.goog: served_not_authorized', async () => {
    const d = (await answer(`/api/domain/issuance/wild.issuance.test?port=${port}`)).body.data
    expect(d.served).toMatchObject({ names: ['*.issuance.test'], wildcard: true, authorization: 'not_allowed' })
    expect(ids(d)).toEqual(['issuance.served_not_authorized'])
    expect(d.findings[0]).toMatchObject({ severity: 'high', message: expect.stringContaining('for wildcard names'), evidence: expect.arrayContaining(['CAA at issuance.test: 0 issuewild "pki.goog"']) })
  })

  it('bad.issuance.test: its own CAA (pki.goog) stops the climb; served LE not allowed; CT: Google allowed, DigiCert not, the test CA unknown (never a mismatch)', async () => {
    const d = (await answer(`/api/domain/issuance/bad.issuance.test?port=${port}`)).body.data
    expect(d.caa).toMatchObject({ relevant_name: 'bad.issuance.test', issue: ['pki.goog'], issuewild: null, lookups: [{ name: 'bad.issuance.test', status: 'answer', count: 1 }] })
    expect(d.served.authorization).toBe('not_allowed')
    expect(d.logged.issuers.map((i: Json) => [i.organization, i.ca, i.certificates, i.authorization])).toEqual([
      ['DigiCert Inc', 'DigiCert', 2, 'not_allowed'],
      ['Google Trust Services', 'Google Trust Services', 1, 'allowed'],
      ['Infralens Tests', null, 1, 'unknown_issuer'],
    ])
    expect(ids(d)).toEqual(['issuance.served_not_authorized', 'issuance.logged_not_authorized', 'issuance.issuer_unknown'])
    expect(d.findings[1].evidence[0]).toBe('CT: 2 certificate(s) from DigiCert Inc, CN=DigiCert Global G2 TLS RSA SHA256 2020 CA1, e.g. bb03, bb02')
  })

  it('multi.nocaa.test: no CAA anywhere up to the TLD while CT shows two CAs; the TLS part fails on its own', async () => {
    const res = await answer(`/api/domain/issuance/multi.nocaa.test?port=${port}`)
    const d = res.body.data
    expect(d.caa).toMatchObject({ relevant_name: null, complete: true, lookups: [{ name: 'multi.nocaa.test' }, { name: 'nocaa.test' }, { name: 'test' }] })
    expect(d.served).toBeNull()
    expect(d.errors).toEqual([expect.objectContaining({ part: 'served', code: 'upstream_error' })])
    expect(d.logged.issuers.map((i: Json) => i.authorization)).toEqual(['no_caa', 'no_caa'])
    expect(ids(d)).toEqual(['issuance.no_caa_several_cas'])
    expect(d.names.find((n: Json) => n.name === 'old.nocaa.test')).toEqual({ name: 'old.nocaa.test', resolves: true, status: 'answer/nodata' })
    expect(maxAge(res.headers)).toBe(60)
  })
})

describe('/api/domain/issuance: each part degrades on its own', () => {
  it('crt.sh failing: logged is null with its error; CAA and the served certificate stand', async () => {
    crtsh.setFault({ kind: 'status', status: 503 })
    const d = (await answer(`/api/domain/issuance/bad.issuance.test?port=${port}`)).body.data
    expect(d.logged).toBeNull()
    expect(d.names).toEqual([])
    expect(d.errors).toEqual([expect.objectContaining({ part: 'ct', upstream: 'crtsh' })])
    expect(ids(d)).toEqual(['issuance.served_not_authorized'])
  })

  it('the climb failing (the resolver REFUSES nocaa.test and below): the CAA set is unknown, nothing is judged against it', async () => {
    dns.resolver.setFault({ kind: 'refused', name: 'nocaa.test' })
    const d = (await answer(`/api/domain/issuance/multi.nocaa.test?port=${port}`)).body.data
    expect(d.caa).toMatchObject({ relevant_name: null, complete: false })
    expect(d.caa.lookups).toEqual([{ name: 'multi.nocaa.test', status: 'failed', count: 0 }])
    expect(d.errors).toContainEqual(expect.objectContaining({ part: 'caa multi.nocaa.test', upstream: 'dns' }))
    expect(d.names.every((n: Json) => n.resolves === null && n.status === 'failed')).toBe(true)
    expect(d.logged.issuers.map((i: Json) => i.authorization)).toEqual(['unknown', 'unknown'])
    expect(ids(d)).not.toContain('issuance.no_caa_several_cas')
  })

  it('a bad domain or port is a 400 naming the parameter', async () => {
    expect((await app.json('/api/domain/issuance/bad_domain..test')).body.error.details.param).toBe('domain')
    expect((await app.json('/api/domain/issuance/good.issuance.test?port=70000')).body.error.details.param).toBe('port')
  })
})

describe('documentation', () => {
  it('docs/tls.md lists exactly the finding ids the answer can carry', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'tls.md'), 'utf8')
    const listed = [...doc.matchAll(/^\| `(issuance\.[a-z_]+)` \|/gm)].map((m) => m[1]).sort()
    expect(listed).toEqual([...ISSUANCE_FINDING_IDS].sort())
  })
})
