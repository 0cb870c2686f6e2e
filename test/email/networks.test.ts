import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { EMAIL_NETWORK_FINDING_IDS } from '../../registry/email/schemas/networks-data.ts'
import { networkFindings } from '../../plugins/email/networks/findings.ts'
import { networkOf } from '../../plugins/email/networks/spf-networks.ts'
import type { TestApp } from '../support/app.ts'
import { documentedAnswer, maxAge } from '../support/documented-answer.ts'
import { startTestApp } from '../support/app.ts'
import type { TestCa } from '../support/certs.ts'
import { createTestCa } from '../support/certs.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { startFakeRdap } from '../support/fake-rdap.ts'
import type { FakeRipestat } from '../support/fake-ripestat.ts'
import { startFakeRipestat } from '../support/fake-ripestat.ts'
import type { FakeSmtp } from '../support/fake-smtp.ts'
import { startFakeSmtp } from '../support/fake-smtp.ts'
import type { FakeVrp } from '../support/fake-vrp.ts'
import { startFakeVrp, untilVrpsLoaded } from '../support/fake-vrp.ts'
import { randomLoopback } from '../support/fake-web.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

// /api/email/networks (issue 25, item 4) on the loopback internet. Test data
// written for this file, one entry per signal:
//
//   senders.test SPF: ip4:8.8.8.8 (route valid, RDAP holder), ip4:192.0.2.66
//   (documentation space: bogon, and on the test DNSBL), include:_spf.senders.test,
//   a:relay (192.0.2.25), -ip4:198.51.100.0/24 (excludes, so not listed), ~all.
//   _spf.senders.test: ip4:1.0.4.0/23 (RPKI-invalid), ip4:1.0.8.0/24 (no route),
//   ip4:10.0.0.0/8 (bogon and very large).
//   MX: mx1 (fake SMTP with STARTTLS, PTR back to it) and mx2 (fake SMTP without
//   STARTTLS, no PTR, on the test DNSBL).
//
// The routable networks are values only (the test fence keeps every packet on
// loopback); the MX hosts are fake SMTP servers on loopback addresses.

const VRPS = {
  metadata: { buildmachine: 'infralens-tests (test/email/networks.test.ts)', buildtime: '2026-11-01T00:00:00Z', vrps: 2 },
  roas: [
    { asn: 15169, prefix: '8.8.8.0/24', maxLength: 24, ta: 'test', expires: 4102444800 },
    { asn: 38803, prefix: '1.0.4.0/22', maxLength: 22, ta: 'test', expires: 4102444800 },
  ],
}

let ca: TestCa
let smtp: FakeSmtp
let dns: LoopbackDns
let rdap: FakeRdap
let ripestat: FakeRipestat
let vrp: FakeVrp
let app: TestApp
const mx1 = randomLoopback()
let mx2 = randomLoopback()
while (mx2 === mx1) mx2 = randomLoopback()
const reversed = (ip: string) => ip.split('.').reverse().join('.')

beforeAll(async () => {
  ca = createTestCa('infralens email networks tests CA')
  smtp = await startFakeSmtp([
    { address: mx1, hostname: 'mx1.senders.test', tls: ca.issue(['mx1.senders.test']) },
    { address: mx2, hostname: 'mx2.senders.test' },
  ])
  const zones = [
    `
$ORIGIN senders.test.
$TTL 300
@     IN SOA ns1 hostmaster ( 1 3600 900 604800 120 )
@     IN NS  ns1
ns1   IN A   192.0.2.53
@     IN TXT "v=spf1 ip4:8.8.8.8 ip4:192.0.2.66 include:_spf.senders.test a:relay.senders.test -ip4:198.51.100.0/24 ~all"
_spf  IN TXT "v=spf1 ip4:1.0.4.0/23 ip4:1.0.8.0/24 ip4:10.0.0.0/8 -all"
relay IN A   192.0.2.25
@     IN MX  10 mx1
@     IN MX  20 mx2
mx1   IN A   ${mx1}
mx2   IN A   ${mx2}
`,
    `
$ORIGIN 127.in-addr.arpa.
$TTL 300
@ IN SOA ns1.senders.test. hostmaster.senders.test. ( 1 3600 900 604800 120 )
@ IN NS  ns1.senders.test.
${reversed(mx1).replace(/\.127$/, '')} IN PTR mx1.senders.test.
`,
    `
$ORIGIN dnsbl.test.
$TTL 300
@ IN SOA ns1.senders.test. hostmaster.senders.test. ( 1 3600 900 604800 60 )
@ IN NS  ns1.senders.test.
66.2.0.192 IN A   127.0.0.2
66.2.0.192 IN TXT "listed for tests"
${reversed(mx2)} IN A 127.0.0.2
`,
  ]
  dns = await startLoopbackDns({ zones })
  rdap = await startFakeRdap()
  ripestat = await startFakeRipestat()
  vrp = await startFakeVrp({ body: VRPS })
  rdap.serve('/rdap.arin.net/registry/ip/8.8.8.8', {
    objectClassName: 'ip network', handle: 'NET-8-8-8-0-1', startAddress: '8.8.8.0', endAddress: '8.8.8.255', ipVersion: 'v4', name: 'GOGL-TEST', port43: 'whois.arin.net',
    cidr0_cidrs: [{ v4prefix: '8.8.8.0', length: 24 }],
    entities: [{ objectClassName: 'entity', handle: 'GOGL', roles: ['registrant'], vcardArray: ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', 'Google LLC'], ['kind', {}, 'text', 'org']]] }],
  })
  app = await startTestApp({
    ...dns.env, ...rdap.env, ...ripestat.env, ...vrp.env,
    INFRALENS_DNSBL_ZONES: 'dnsbl.test',
    INFRALENS_SMTP_PORT: String(smtp.port),
    INFRALENS_EXTRA_CA_FILE: ca.caFile,
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
    INFRALENS_CACHE_MAX_ENTRIES: '0',
  })
  await untilVrpsLoaded(app)
})
afterAll(async () => {
  await app?.close()
  await Promise.all([vrp?.close(), ripestat?.close(), rdap?.close(), dns?.close(), smtp?.close()])
  ca?.close()
})
afterEach(() => {
  ripestat.setFault(null)
  dns.resolver.setFault(null)
})

const answer = documentedAnswer(() => app, 'email.networks')
type Json = Record<string, any>
const ids = (d: Json) => d.findings.map((f: Json) => f.id)
const net = (d: Json, network: string) => d.networks.find((n: Json) => n.network === network)

describe('/api/email/networks: the SPF networks', () => {
  it('every network the tree authorizes (through its include, a: resolved), nothing it excludes, each with its path', async () => {
    const d = (await answer('/api/email/networks/senders.test')).body.data
    expect(d.spf).toEqual({ status: 'found', record: expect.stringContaining('v=spf1 ip4:8.8.8.8'), verdict: 'valid', lookups: 2 })
    expect(d.networks.map((n: Json) => n.network).sort()).toEqual(['1.0.4.0/23', '1.0.8.0/24', '10.0.0.0/8', '192.0.2.25/32', '192.0.2.66/32', '8.8.8.8/32'])
    expect(net(d, '1.0.4.0/23').sources).toEqual([{ domain: '_spf.senders.test', term: 'ip4:1.0.4.0/23', path: ['senders.test', '_spf.senders.test'] }])
    expect(net(d, '192.0.2.25/32').sources).toEqual([{ domain: 'senders.test', term: 'a:relay.senders.test', path: ['senders.test'] }])
  })

  it('holder, size, route, RPKI and blocklist per network', async () => {
    const d = (await answer('/api/email/networks/senders.test')).body.data
    expect(net(d, '8.8.8.8/32')).toMatchObject({ size: '1', prefix_length: 32, holder: 'Google LLC', allocation: '8.8.8.0/24', bogon: false, route: '8.8.8.0/24', origins: [15169], rpki: 'valid', blocklist: { address: '8.8.8.8', sampled: false, listed: false, lists: [], errors: 0 }, errors: [] })
    expect(net(d, '1.0.4.0/23')).toMatchObject({ size: '512', rpki: 'invalid', route: '1.0.4.0/23', blocklist: { address: '1.0.4.0', sampled: true, listed: false } })
    expect(net(d, '1.0.8.0/24')).toMatchObject({ bogon: false, route: null, rpki: null })
    expect(net(d, '10.0.0.0/8')).toMatchObject({ size: '16777216', bogon: true, holder: null, errors: [] })
    expect(net(d, '192.0.2.66/32')).toMatchObject({ bogon: true, blocklist: { listed: true, lists: ['dnsbl.test'] } })
    // The oracle for the DNSBL column: /api/security/blocklist itself.
    const bl = (await app.json('/api/security/blocklist/192.0.2.66')).body.data
    expect(bl.listed).toBe(true)
  })
})

describe('/api/email/networks: the MX table', () => {
  it('each MX address with PTR/FCrDNS, blocklist and STARTTLS; loopback is a bogon, so no route', async () => {
    const d = (await answer('/api/email/networks/senders.test')).body.data
    expect(d.mx).toEqual([
      expect.objectContaining({ host: 'mx1.senders.test', preference: 10, address: mx1, ptr: ['mx1.senders.test'], fcrdns: true, bogon: true, route: null, blocklist: expect.objectContaining({ listed: false }), starttls: { status: 'ok', protocol: expect.stringMatching(/^TLSv1\.[23]$/), trusted: true, name_matches: true } }),
      expect.objectContaining({ host: 'mx2.senders.test', preference: 20, address: mx2, ptr: [], fcrdns: false, blocklist: expect.objectContaining({ listed: true, lists: ['dnsbl.test'] }), starttls: expect.objectContaining({ status: 'no_starttls' }) }),
    ])
  })
})

describe('/api/email/networks: the findings', () => {
  it('senders.test: one per signal, most severe first', async () => {
    const d = (await answer('/api/email/networks/senders.test')).body.data
    expect(ids(d)).toEqual([
      'email_networks.spf_listed', 'email_networks.mx_listed', 'email_networks.mx_no_starttls',
      'email_networks.spf_rpki_invalid', 'email_networks.spf_bogon', 'email_networks.spf_large_network', 'email_networks.mx_no_fcrdns',
      'email_networks.spf_unannounced',
    ])
    const f = (id: string) => d.findings.find((x: Json) => x.id === id)
    expect(f('email_networks.spf_listed').evidence).toEqual(['192.0.2.66/32 (192.0.2.66) on dnsbl.test; via senders.test ip4:192.0.2.66'])
    expect(f('email_networks.spf_rpki_invalid').evidence).toEqual(['1.0.4.0/23: route 1.0.4.0/23 from AS38803'])
    expect(f('email_networks.spf_large_network').evidence).toEqual(['10.0.0.0/8 (16777216 addresses) via _spf.senders.test ip4:10.0.0.0/8'])
    expect(f('email_networks.mx_no_starttls').evidence).toEqual(['mx2.senders.test: no_starttls'])
    expect(f('email_networks.spf_unannounced').evidence).toEqual(['1.0.8.0/24 via _spf.senders.test ip4:1.0.8.0/24'])
  })

  it('an MX route that is RPKI-invalid (rows as the resolver builds them; no test MX can live in routable space)', () => {
    const row = { host: 'mx.example', preference: 10, address: '1.0.5.1', version: 4 as const, ptr: [], fcrdns: true, bogon: false, route: '1.0.4.0/23', origins: [38803], rpki: 'invalid' as const, blocklist: null, starttls: null, errors: [] }
    expect(networkFindings({ networks: [], mx: [row] }).map((f) => f.id)).toEqual(['email_networks.mx_rpki_invalid'])
    expect(networkOf('2001:db8:1::1', 48)).toMatchObject({ network: '2001:db8:1::/48', size: (1n << 80n).toString(), first: '2001:db8:1::' })
  })
})

describe('/api/email/networks: each part degrades on its own', () => {
  it('RIPEstat failing: routes unknown (no unannounced or invalid claimed), blocklists and holders stand, kept 60 s', async () => {
    ripestat.setFault({ kind: 'status', status: 503 })
    const res = await answer('/api/email/networks/senders.test')
    const d = res.body.data
    expect(net(d, '1.0.4.0/23')).toMatchObject({ route: null, rpki: null, errors: [expect.objectContaining({ part: 'bgp', upstream: 'ripestat' })] })
    expect(net(d, '8.8.8.8/32').holder).toBe('Google LLC')
    expect(ids(d)).not.toContain('email_networks.spf_rpki_invalid')
    expect(ids(d)).not.toContain('email_networks.spf_unannounced')
    expect(ids(d)).toContain('email_networks.spf_listed')
    expect(maxAge(res.headers)).toBe(60)
  })

  it("one MX host's address question failing: only its rows are missing, the SPF networks and the other host stand", async () => {
    dns.resolver.setFault({ kind: 'refused', name: 'mx1.senders.test' })
    const d = (await answer('/api/email/networks/senders.test')).body.data
    expect(d.networks).toHaveLength(6)
    expect(d.mx.map((r: Json) => r.host)).toEqual(['mx2.senders.test'])
  })

  it('a bad domain is a 400 naming the parameter', async () => {
    const res = await app.json('/api/email/networks/bad_domain..test')
    expect(res.status).toBe(400)
    expect(res.body.error.details.param).toBe('domain')
  })
})

describe('documentation', () => {
  it('docs/email.md lists exactly the finding ids the answer can carry', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'email.md'), 'utf8')
    const listed = [...doc.matchAll(/^\| `(email_networks\.[a-z_]+)` \|/gm)].map((m) => m[1]).sort()
    expect(listed).toEqual([...EMAIL_NETWORK_FINDING_IDS].sort())
  })
})
