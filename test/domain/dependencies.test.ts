import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { DEPENDENCY_FINDING_IDS } from '../../registry/domain/schemas/dependencies-data.ts'
import type { TestApp } from '../support/app.ts'
import { documentedAnswer, maxAge } from '../support/documented-answer.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeRipestat } from '../support/fake-ripestat.ts'
import { startFakeRipestat } from '../support/fake-ripestat.ts'
import type { FakeVrp } from '../support/fake-vrp.ts'
import { startFakeVrp, untilVrpsLoaded } from '../support/fake-vrp.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

// /api/domain/dependencies (issue 25, item 1) on the loopback internet.
//
// Every zone, VRP and ASN row below is test data written for this file. The
// documentation ranges (192.0.2.0/24, 198.51.100.0/24, 2001:db8::/32) are bogons,
// so the service rightly asks BGP nothing about them: the routing verdicts
// (announced, RPKI valid / invalid / not-found, anycast) can only be exercised on
// globally routable addresses. Those are the ones the routing fixtures already
// route (fake RIPEstat's TEST_ROUTES and its recorded network-info of 140.78.0.0/16):
// values only, never connected to (the test fence keeps every packet on loopback).
//
//   deps.test           NS on two networks, MX in an RPKI-invalid route, apex
//                       unannounced, www in documentation (bogon) space
//   concentrated.test   both name servers in one /24 and one /48, one AS (offline data)
//   split.test          name servers in two ASes and two /24s: no concentration finding

const ZONES = [
  `
$ORIGIN deps.test.
$TTL 300
@    IN SOA ns1 hostmaster ( 1 3600 900 604800 120 )
@    IN NS  ns1
@    IN NS  ns2.deps.test.
ns1  IN A   8.8.8.8
ns2  IN A   140.78.90.50
@    IN MX  10 mx
mx   IN A   1.0.5.1
@    IN A   1.0.8.1
www  IN A   192.0.2.80
`,
  `
$ORIGIN concentrated.test.
$TTL 300
@    IN SOA ns1 hostmaster ( 1 3600 900 604800 120 )
@    IN NS  ns1
@    IN NS  ns2
ns1  IN A    192.0.2.53
ns1  IN AAAA 2001:db8:53::1
ns2  IN A    192.0.2.54
ns2  IN AAAA 2001:db8:53::2
@    IN MX  0 .
@    IN A   198.51.100.10
www  IN CNAME @
`,
  `
$ORIGIN split.test.
$TTL 300
@    IN SOA ns1 hostmaster ( 1 3600 900 604800 120 )
@    IN NS  ns1
@    IN NS  ns2
ns1  IN A   192.0.2.53
ns2  IN A   198.51.100.53
`,
  // 34 web addresses: more than the 32 the endpoint asks about.
  `
$ORIGIN many.test.
$TTL 300
@    IN SOA ns1 hostmaster ( 1 3600 900 604800 120 )
${Array.from({ length: 34 }, (_, i) => `@    IN A   198.51.100.${i + 1}`).join('\n')}
`,
]

// The VRP set of this world (test data): 8.8.8.0/24 valid for AS15169; 1.0.4.0/22
// up to /22 only, so the announced 1.0.4.0/23 is invalid by length (RFC 6811);
// nothing for 140.78.0.0/16 (not-found).
const VRPS = {
  metadata: { buildmachine: 'infralens-tests (test/domain/dependencies.test.ts)', buildtime: '2026-11-01T00:00:00Z', vrps: 2 },
  roas: [
    { asn: 15169, prefix: '8.8.8.0/24', maxLength: 24, ta: 'test', expires: 4102444800 },
    { asn: 38803, prefix: '1.0.4.0/22', maxLength: 22, ta: 'test', expires: 4102444800 },
  ],
}

const v4 = (text: string) => text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0)
// The operator's offline IP -> ASN data (ip-location-db "-num" layout), test data.
// 140.78.0.0/16 is deliberately given another AS than its BGP origin (1205).
const ASN_V4 = [
  [v4('1.0.4.0'), v4('1.0.7.255'), 38803, 'GTELECOM-AUSTRALIA (test row)'],
  [v4('8.8.8.0'), v4('8.8.8.255'), 15169, 'GOOGLE (test row)'],
  [v4('140.78.0.0'), v4('140.78.255.255'), 64499, 'Not The Origin (test row)'],
  [v4('192.0.2.0'), v4('192.0.2.255'), 64500, 'Example NS Host (test row)'],
  [v4('198.51.100.0'), v4('198.51.100.255'), 64501, 'Example Web Host (test row)'],
]
const DB8 = 0x20010db8n << 96n

let dir: string
let dns: LoopbackDns
let ripestat: FakeRipestat
let vrp: FakeVrp
let app: TestApp

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'infralens-deps-'))
  writeFileSync(join(dir, 'asn-v4.csv'), ASN_V4.map((r) => `${r[0]},${r[1]},${r[2]},"${r[3]}"`).join('\n') + '\n')
  writeFileSync(join(dir, 'asn-v6.csv'), `${DB8},${DB8 + (1n << 96n) - 1n},64500,"Example NS Host (test row)"\n`)
  dns = await startLoopbackDns({ zones: ZONES })
  ripestat = await startFakeRipestat()
  vrp = await startFakeVrp({ body: VRPS })
  app = await startTestApp({
    ...dns.env,
    ...ripestat.env,
    ...vrp.env,
    INFRALENS_ASN_IPV4_CSV: join(dir, 'asn-v4.csv'),
    INFRALENS_ASN_IPV6_CSV: join(dir, 'asn-v6.csv'),
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
    INFRALENS_CACHE_MAX_ENTRIES: '0',
  })
  await untilVrpsLoaded(app)
})
afterAll(async () => {
  await app?.close()
  await vrp?.close()
  await ripestat?.close()
  await dns?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})
afterEach(() => {
  ripestat.setFault(null)
  dns.resolver.setFault(null)
})

const answer = documentedAnswer(() => app, 'domain.dependencies')
type Row = Record<string, any>
const rowOf = (rows: Row[], address: string) => rows.find((r) => r.address === address)!
const ids = (d: Row) => d.findings.map((f: Row) => f.id)

describe('/api/domain/dependencies: the rows', () => {
  it('deps.test: every NS, MX and web address with AS, organization, route, RPKI, anycast and bogon verdicts', async () => {
    const res = await answer('/api/domain/dependencies/deps.test')
    const d = res.body.data
    expect(d.domain).toBe('deps.test')
    expect(d.dependencies.map((r: Row) => `${r.role} ${r.host} ${r.address}`)).toEqual([
      'ns ns1.deps.test 8.8.8.8',
      'ns ns2.deps.test 140.78.90.50',
      'mx mx.deps.test 1.0.5.1',
      'web deps.test 1.0.8.1',
      'web www.deps.test 192.0.2.80',
    ])
    expect(rowOf(d.dependencies, '8.8.8.8')).toMatchObject({
      version: 4, bogon: false, asn: 15169, asn_source: 'bgp', organization: 'GOOGLE (test row)', prefix: '8.8.8.0/24', origins: [15169],
      announced: true, rpki: 'valid', anycast: true, anycast_service: 'Google Public DNS 8.8.8.8', errors: [],
    })
    // BGP says AS1205, the offline data another AS: the route's origin wins, and no name is lent to it.
    expect(rowOf(d.dependencies, '140.78.90.50')).toMatchObject({ asn: 1205, asn_source: 'bgp', organization: null, prefix: '140.78.0.0/16', announced: true, rpki: 'not-found', anycast: false })
    expect(rowOf(d.dependencies, '1.0.5.1')).toMatchObject({ asn: 38803, organization: 'GTELECOM-AUSTRALIA (test row)', prefix: '1.0.4.0/23', origins: [38803], rpki: 'invalid', announced: true })
    // No route, and outside the offline data's rows: no AS at all, and RPKI has nothing to judge.
    expect(rowOf(d.dependencies, '1.0.8.1')).toMatchObject({ asn: null, asn_source: null, organization: null, prefix: null, origins: [], announced: false, rpki: null, bogon: false })
    expect(rowOf(d.dependencies, '192.0.2.80')).toMatchObject({
      bogon: true, bogon_reason: expect.stringMatching(/Documentation \(TEST-NET-1\)/), asn: 64500, asn_source: 'offline', announced: false, prefix: null, rpki: null, anycast: false,
    })
    expect(d.errors).toEqual([])
    expect(d.lookups).toEqual(
      expect.arrayContaining([
        { role: 'ns', name: 'deps.test', type: 'NS', status: 'answer', count: 2 },
        { role: 'mx', name: 'deps.test', type: 'MX', status: 'answer', count: 1 },
        { role: 'mx', name: 'mx.deps.test', type: 'AAAA', status: 'nodata', count: 0 },
        { role: 'web', name: 'www.deps.test', type: 'A', status: 'answer', count: 1 },
      ]),
    )
    expect(maxAge(res.headers)).toBe(300)
  })

  it('each row is what /api/network/intelligence says about its address', async () => {
    const d = (await answer('/api/domain/dependencies/deps.test')).body.data
    for (const row of d.dependencies as Row[]) {
      const i = (await app.json(`/api/network/intelligence/${row.address}`)).body.data
      expect(row.bogon).toBe(i.bogon.bogon)
      expect(row.prefix).toBe(i.bgp?.prefix ?? null)
      expect(row.origins).toEqual(i.bgp?.origins ?? [])
      expect(row.announced).toBe(i.routed)
      expect(row.anycast).toBe(i.anycast.anycast)
      expect(row.rpki).toBe(i.rpki ? i.rpki.origins[0].state : null)
    }
  })
})

describe('/api/domain/dependencies: the findings', () => {
  it('deps.test: the bogon, the unannounced and the RPKI-invalid dependency, each with its evidence; no concentration', async () => {
    const d = (await answer('/api/domain/dependencies/deps.test')).body.data
    expect(ids(d)).toEqual(['dependencies.bogon', 'dependencies.unannounced', 'dependencies.rpki_invalid'])
    const f = (id: string) => d.findings.find((x: Row) => x.id === id)
    expect(f('dependencies.bogon')).toMatchObject({ severity: 'high', evidence: ['192.0.2.80'], message: expect.stringContaining('www.deps.test (web)') })
    expect(f('dependencies.unannounced')).toMatchObject({ severity: 'high', evidence: ['1.0.8.1'], message: expect.stringContaining('deps.test (web)') })
    expect(f('dependencies.rpki_invalid')).toMatchObject({ severity: 'high', evidence: ['1.0.5.1'], message: expect.stringContaining('1.0.4.0/23 from AS38803') })
  })

  it('concentrated.test: both name servers in one AS and one /24 + /48; a null MX names no host; www follows its CNAME', async () => {
    const d = (await answer('/api/domain/dependencies/concentrated.test')).body.data
    expect(ids(d)).toEqual(['dependencies.bogon', 'dependencies.ns_single_prefix', 'dependencies.ns_single_as'])
    const ns = ['192.0.2.53', '192.0.2.54', '2001:db8:53::1', '2001:db8:53::2']
    expect(d.findings[1]).toMatchObject({ severity: 'medium', evidence: ns, message: expect.stringContaining('192.0.2.0/24 and 2001:db8:53::/48') })
    expect(d.findings[2]).toMatchObject({ severity: 'low', evidence: ns, message: expect.stringContaining('AS64500') })
    expect(d.dependencies.filter((r: Row) => r.role === 'mx')).toEqual([])
    expect(d.lookups).toContainEqual({ role: 'mx', name: 'concentrated.test', type: 'MX', status: 'answer', count: 1 })
    expect(d.dependencies.filter((r: Row) => r.role === 'web').map((r: Row) => `${r.host} ${r.address}`)).toEqual(['concentrated.test 198.51.100.10', 'www.concentrated.test 198.51.100.10'])
  })

  it('split.test: two ASes, two /24s: neither concentration finding', async () => {
    const d = (await answer('/api/domain/dependencies/split.test')).body.data
    expect(d.dependencies.map((r: Row) => [r.address, r.asn])).toEqual([['192.0.2.53', 64500], ['198.51.100.53', 64501]])
    expect(ids(d)).toEqual(['dependencies.bogon'])
  })

  it('a name that does not exist: no hosts, no findings, every question recorded', async () => {
    const d = (await answer('/api/domain/dependencies/nothing.deps.test')).body.data
    expect(d.dependencies).toEqual([])
    expect(d.findings).toEqual([])
    expect(d.lookups.map((l: Row) => `${l.type} ${l.name} ${l.status}`).sort()).toEqual([
      'A nothing.deps.test nxdomain', 'A www.nothing.deps.test nxdomain', 'AAAA nothing.deps.test nxdomain', 'AAAA www.nothing.deps.test nxdomain', 'MX nothing.deps.test nxdomain', 'NS nothing.deps.test nxdomain',
    ])
  })
})

describe('/api/domain/dependencies: each part degrades on its own', () => {
  it('RIPEstat failing for one address: that row carries the error, the others stand, kept 60 s', async () => {
    ripestat.setFault({ fault: { kind: 'status', status: 503 }, resource: '1.0.5.1' })
    const res = await answer('/api/domain/dependencies/deps.test')
    const d = res.body.data
    expect(rowOf(d.dependencies, '1.0.5.1')).toMatchObject({ prefix: null, announced: null, rpki: null, asn: 38803, asn_source: 'offline', errors: [expect.objectContaining({ part: 'bgp', upstream: 'ripestat' })] })
    expect(rowOf(d.dependencies, '8.8.8.8')).toMatchObject({ rpki: 'valid', errors: [] })
    // Unknown is not invalid: the finding goes with the data it needs.
    expect(ids(d)).toEqual(['dependencies.bogon', 'dependencies.unannounced'])
    expect(maxAge(res.headers)).toBe(60)
  })

  it('a DNS question failing: its host is missing, the error names the question, the rest stands', async () => {
    dns.resolver.setFault({ kind: 'refused', name: 'mx.deps.test' })
    const res = await answer('/api/domain/dependencies/deps.test')
    const d = res.body.data
    expect(d.dependencies.map((r: Row) => r.address)).toEqual(['8.8.8.8', '140.78.90.50', '1.0.8.1', '192.0.2.80'])
    expect(d.errors.map((e: Row) => `${e.part} ${e.code} ${e.upstream}`).sort()).toEqual(['A mx.deps.test upstream_error dns', 'AAAA mx.deps.test upstream_error dns'])
    expect(d.lookups).toContainEqual({ role: 'mx', name: 'mx.deps.test', type: 'A', status: 'failed', count: 0 })
    expect(ids(d)).toEqual(['dependencies.bogon', 'dependencies.unannounced'])
    expect(maxAge(res.headers)).toBe(60)
  })

  it('a bad domain is a 400 naming the parameter', async () => {
    const res = await app.json('/api/domain/dependencies/bad_domain..test')
    expect(res.status).toBe(400)
    expect(res.body.error.details.param).toBe('domain')
  })
})

describe('/api/domain/dependencies: bounds and documentation', () => {
  it('more than 32 addresses: the first 32 are asked about, the rest named in skipped', async () => {
    const before = ripestat.log.length
    const d = (await answer('/api/domain/dependencies/many.test')).body.data
    expect(d.dependencies).toHaveLength(32)
    expect(d.skipped).toEqual([{ part: 'intelligence', reason: expect.stringContaining('198.51.100.33, 198.51.100.34 were not') }])
    // Documentation space is bogon space: RIPEstat is never asked about it.
    expect(ripestat.log.length).toBe(before)
  })

  it('docs/routing.md lists exactly the finding ids the answer can carry', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'routing.md'), 'utf8')
    const listed = [...doc.matchAll(/^\| `(dependencies\.[a-z_]+)` \|/gm)].map((m) => m[1]).sort()
    expect(listed).toEqual([...DEPENDENCY_FINDING_IDS].sort())
  })
})
