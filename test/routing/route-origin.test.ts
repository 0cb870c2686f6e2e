import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { ROUTE_ORIGIN_FINDING_IDS } from '../../registry/network/schemas/route-origin-findings.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { startFakeRdap } from '../support/fake-rdap.ts'
import type { FakeRipestat } from '../support/fake-ripestat.ts'
import { readRipestatFixture, startFakeRipestat } from '../support/fake-ripestat.ts'
import type { FakeVrp } from '../support/fake-vrp.ts'
import { startFakeVrp, untilVrpsLoaded } from '../support/fake-vrp.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// /api/network/route-origin and /api/network/intelligence?origin_check=true
// (issue 25, item 3) on the loopback internet: the fake RIPEstat (its TEST_ROUTES
// plus routes served below), the fake RDAP (networks and autnums served below),
// a VRP set of this file. Every route, registration and VRP here is test data
// written for this file, one per signal:
//
//   8.8.8.0/24      origin AS15169, ROA valid, allocation registers AS15169, same holder: consistent
//   1.0.4.0/23      origin AS38803, ROA only to /22: rpki_invalid
//   12.0.0.0/16     origin AS7018 (registered origin), a more specific 12.0.0.0/24 from AS64496: foreign_more_specific
//   12.0.0.0/24     origin AS64496, the allocation registers only AS7018: unregistered_origin
//   1.1.1.0/24      origin AS13335, allocation held by another organization, no ROA, no origin list: foreign_holder
//   203.0.113.0/24  two origins (documentation space and ASNs): multi_origin, registration 404 (no allocation)
//   198.51.100.0/24 no route: unannounced
//
// Routable prefixes are values only (the test fence keeps every packet on loopback):
// documentation space is a bogon, so the registries hold none of it.

const VRPS = {
  metadata: { buildmachine: 'infralens-tests (test/routing/route-origin.test.ts)', buildtime: '2026-11-01T00:00:00Z', vrps: 2 },
  roas: [
    { asn: 15169, prefix: '8.8.8.0/24', maxLength: 24, ta: 'test', expires: 4102444800 },
    { asn: 38803, prefix: '1.0.4.0/22', maxLength: 22, ta: 'test', expires: 4102444800 },
  ],
}

const vcard = (name: string) => ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', name], ['kind', {}, 'text', 'org']]]
const registrant = (handle: string, name: string) => ({ objectClassName: 'entity', handle, roles: ['registrant'], vcardArray: vcard(name) })
/** An RDAP ip network object as a registry sends it (RFC 9083 §5.4), written for these tests. */
function network(o: { handle: string; start: string; end: string; cidr: [string, number]; holder: [string, string]; origins?: number[]; port43: string }) {
  return {
    objectClassName: 'ip network', rdapConformance: ['rdap_level_0', 'cidr0'], handle: o.handle, startAddress: o.start, endAddress: o.end, ipVersion: 'v4', name: `${o.handle}-TEST`, type: 'ALLOCATION',
    entities: [registrant(...o.holder)], cidr0_cidrs: [{ v4prefix: o.cidr[0], length: o.cidr[1] }], port43: o.port43,
    ...(o.origins ? { arin_originas0_originautnums: o.origins } : {}),
  }
}
function autnum(asn: number, holder: [string, string], port43: string) {
  return { objectClassName: 'autnum', rdapConformance: ['rdap_level_0'], handle: `AS${asn}`, startAutnum: asn, endAutnum: asn, name: `AS${asn}-TEST`, entities: [registrant(...holder)], port43 }
}
const ARIN = 'rdap.arin.net/registry/'
const APNIC = 'rdap.apnic.net/'

let dns: LoopbackDns
let rdap: FakeRdap
let ripestat: FakeRipestat
let vrp: FakeVrp
let app: TestApp

/** A route the fake RIPEstat does not know: prefix-overview and routing-status for it. */
function route(prefix: string, origins: Array<[number, string]>, moreSpecifics: Array<[string, number]> = []) {
  const overview = readRipestatFixture('prefix-overview').data
  ripestat.serve('prefix-overview', prefix, { ...overview, resource: prefix, announced: true, is_less_specific: false, asns: origins.map(([asn, holder]) => ({ asn, holder })), block: { resource: '12.0.0.0/8', desc: 'test block', name: 'IANA test registry' } })
  const status = readRipestatFixture('routing-status.prefix.derived').data
  ripestat.serve('routing-status', prefix, {
    ...status, resource: prefix, origins: origins.map(([origin]) => ({ origin, route_objects: [] })), less_specifics: [],
    more_specifics: moreSpecifics.map(([p, origin]) => ({ prefix: p, origin })),
    first_seen: { prefix, origin: String(origins[0]![0]), time: '2020-01-01T00:00:00' }, last_seen: { prefix, origin: String(origins[0]![0]), time: '2026-11-01T00:00:00' },
  })
}

beforeAll(async () => {
  dns = await startLoopbackDns({ zones: DEFAULT_ZONES })
  rdap = await startFakeRdap()
  ripestat = await startFakeRipestat()
  vrp = await startFakeVrp({ body: VRPS })
  app = await startTestApp({ ...dns.env, ...rdap.env, ...ripestat.env, ...vrp.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0' })
  await untilVrpsLoaded(app)

  rdap.serve(`/${ARIN}ip/8.8.8.0`, network({ handle: 'NET-8-8-8-0-1', start: '8.8.8.0', end: '8.8.8.255', cidr: ['8.8.8.0', 24], holder: ['GOGL', 'Google LLC'], origins: [15169], port43: 'whois.arin.net' }))
  rdap.serve(`/${ARIN}ip/8.8.8.1`, network({ handle: 'NET-8-8-8-0-1', start: '8.8.8.0', end: '8.8.8.255', cidr: ['8.8.8.0', 24], holder: ['GOGL', 'Google LLC'], origins: [15169], port43: 'whois.arin.net' }))
  rdap.serve(`/${ARIN}autnum/15169`, autnum(15169, ['GOGL', 'Google LLC'], 'whois.arin.net'))
  rdap.serve(`/${APNIC}ip/1.0.4.0`, network({ handle: '1.0.4.0 - 1.0.7.255', start: '1.0.4.0', end: '1.0.7.255', cidr: ['1.0.4.0', 22], holder: ['ORG-GT1-AP', 'Gtelecom Pty Ltd'], port43: 'whois.apnic.net' }))
  rdap.serve(`/${APNIC}autnum/38803`, autnum(38803, ['ORG-GT1-AP', 'GTelecom Pty. Ltd.'], 'whois.apnic.net'))
  rdap.serve(`/${ARIN}ip/12.0.0.0`, network({ handle: 'NET-12-0-0-0-1', start: '12.0.0.0', end: '12.255.255.255', cidr: ['12.0.0.0', 8], holder: ['ATTW', 'AT&T Corp.'], origins: [7018], port43: 'whois.arin.net' }))
  rdap.serve(`/${ARIN}autnum/7018`, autnum(7018, ['ATTW', 'AT&T Corp.'], 'whois.arin.net'))
  rdap.serve(`/${APNIC}ip/1.1.1.0`, network({ handle: '1.1.1.0 - 1.1.1.255', start: '1.1.1.0', end: '1.1.1.255', cidr: ['1.1.1.0', 24], holder: ['ORG-RES1-AP', 'Research Network Test Holder'], port43: 'whois.apnic.net' }))
  rdap.serve(`/${ARIN}autnum/13335`, autnum(13335, ['CLOUD14', 'Cloudflare, Inc.'], 'whois.arin.net'))
  route('12.0.0.0/16', [[7018, 'ATT-INTERNET4 - AT&T Enterprises, LLC']], [['12.0.0.0/24', 64496]])
  route('12.0.0.0/24', [[64496, 'AS64496 test holder']])
})
afterAll(async () => {
  await app?.close()
  await vrp?.close()
  await ripestat?.close()
  await rdap?.close()
  await dns?.close()
})
afterEach(() => {
  ripestat.setFault(null)
  rdap.setFault(null)
})

const schemaOf = (name: string) => app.endpoints.find((e) => e.name === name)!.data
async function answer(path: string, name = 'network.route-origin') {
  const res = await app.json(path)
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200)
  // parse() drops undocumented members: equal means the answer is exactly the documented shape.
  expect(schemaOf(name).parse(res.body.data)).toEqual(res.body.data)
  return res
}
const maxAge = (headers: Headers) => Number(/max-age=(\d+)/.exec(headers.get('cache-control') ?? '')?.[1] ?? -1)
type Json = Record<string, any>
const ids = (d: Json) => d.findings.map((f: Json) => f.id)

describe('/api/network/route-origin: one fixture per signal', () => {
  it('8.8.8.0/24: valid ROA, registered origin, same holder: consistent, no findings', async () => {
    const res = await answer('/api/network/route-origin/8.8.8.0/24')
    const d = res.body.data
    expect(d).toMatchObject({ prefix: '8.8.8.0/24', route: '8.8.8.0/24', announced: true, verdict: 'consistent', findings: [], errors: [] })
    expect(d.allocation).toEqual({ registry: 'ARIN', handle: 'NET-8-8-8-0-1', name: 'NET-8-8-8-0-1-TEST', cidrs: ['8.8.8.0/24'], holder: { handle: 'GOGL', name: 'Google LLC' }, origin_asns: [15169] })
    expect(d.origins).toEqual([
      { asn: 15169, as_name: 'GOOGLE - Google LLC', as_holder: { handle: 'GOGL', name: 'Google LLC' }, same_holder: true, registered_origin: true, rpki: 'valid', rpki_reason: null, vrps: ['8.8.8.0/24 maxLength 24 AS15169'], verdict: 'consistent' },
    ])
    expect(maxAge(res.headers)).toBe(600)
  })

  it('1.0.4.0/23: the ROA stops at /22: rpki_invalid with the VRP as evidence; the holders agree by name', async () => {
    const d = (await answer('/api/network/route-origin/1.0.4.0/23')).body.data
    expect(d.verdict).toBe('mismatch')
    expect(d.origins[0]).toMatchObject({ asn: 38803, rpki: 'invalid', rpki_reason: 'length', same_holder: true, registered_origin: null, verdict: 'mismatch' })
    expect(ids(d)).toEqual(['route_origin.rpki_invalid'])
    expect(d.findings[0]).toMatchObject({ severity: 'high', evidence: ['BGP: 1.0.4.0/23 originated by AS38803 (GTELECOM-AUSTRALIA Gtelecom-AUSTRALIA)', 'VRP: 1.0.4.0/22 maxLength 22 AS38803'] })
    // The oracle: /api/rpki says the same about (route, origin).
    const r = (await app.json('/api/rpki/1.0.4.0/23?asn=38803')).body.data
    expect(r.origins[0]).toMatchObject({ state: 'invalid', reason: 'length' })
  })

  it('12.0.0.0/24: an origin the allocation does not register (ARIN originAS): unregistered_origin', async () => {
    const d = (await answer('/api/network/route-origin/12.0.0.0/24')).body.data
    expect(d.origins).toEqual([expect.objectContaining({ asn: 64496, as_holder: null, registered_origin: false, rpki: 'not-found', verdict: 'mismatch' })])
    expect(ids(d)).toEqual(['route_origin.unregistered_origin'])
    expect(d.findings[0].evidence).toEqual(['BGP: 12.0.0.0/24 originated by AS64496 (AS64496 test holder)', 'RDAP (ARIN): 12.0.0.0/8 held by AT&T Corp. (ATTW); registered origin ASNs AS7018'])
  })

  it('12.0.0.0/16: its registered origin is consistent, but a more specific from an unknown AS is a sub-prefix hijack signal', async () => {
    const d = (await answer('/api/network/route-origin/12.0.0.0/16')).body.data
    expect(d.origins).toEqual([expect.objectContaining({ asn: 7018, registered_origin: true, same_holder: true, verdict: 'consistent' })])
    expect(d.more_specifics).toEqual([{ prefix: '12.0.0.0/24', origin: 64496, known_origin: false }])
    expect(d.verdict).toBe('mismatch')
    expect(ids(d)).toEqual(['route_origin.foreign_more_specific'])
    expect(d.findings[0].evidence).toEqual(['BGP: 12.0.0.0/24 originated by AS64496'])
  })

  it('1.1.1.0/24: origin AS held by another organization, nothing vouching: foreign_holder (medium)', async () => {
    const d = (await answer('/api/network/route-origin/1.1.1.0/24')).body.data
    expect(d.origins[0]).toMatchObject({ asn: 13335, as_holder: { handle: 'CLOUD14', name: 'Cloudflare, Inc.' }, same_holder: false, registered_origin: null, rpki: 'not-found', verdict: 'mismatch' })
    expect(ids(d)).toEqual(['route_origin.foreign_holder'])
    expect(d.findings[0]).toMatchObject({ severity: 'medium', evidence: expect.arrayContaining(['RDAP: AS13335 held by Cloudflare, Inc. (CLOUD14)']) })
  })

  it('203.0.113.0/24: two origins (multi_origin); documentation space has no allocation, which is no error', async () => {
    const d = (await answer('/api/network/route-origin/203.0.113.0/24')).body.data
    expect(d.allocation).toBeNull()
    expect(d.origins.map((o: Json) => [o.asn, o.verdict])).toEqual([[64500, 'unknown'], [64501, 'unknown']])
    expect(d.verdict).toBe('unknown')
    expect(ids(d)).toEqual(['route_origin.multi_origin'])
    expect(d.errors).toEqual([])
  })

  it('198.51.100.0/24: no route: unannounced, nothing to check', async () => {
    const d = (await answer('/api/network/route-origin/198.51.100.0/24')).body.data
    expect(d).toMatchObject({ route: null, announced: false, origins: [], verdict: 'unannounced' })
    expect(ids(d)).toEqual(['route_origin.unannounced'])
  })
})

describe('/api/network/route-origin: each part degrades on its own', () => {
  it('RDAP failing: the allocation and holders are unknown, BGP and RPKI stand, kept 60 s', async () => {
    rdap.setFault({ kind: 'status', status: 503 })
    const res = await answer('/api/network/route-origin/1.0.4.0/23')
    const d = res.body.data
    expect(d.allocation).toBeNull()
    expect(d.origins[0]).toMatchObject({ as_holder: null, same_holder: null, rpki: 'invalid', verdict: 'mismatch' })
    expect(d.errors.map((e: Json) => `${e.part} ${e.upstream}`).sort()).toEqual(['as_holder AS38803 rdap', 'registration rdap'])
    expect(ids(d)).toEqual(['route_origin.rpki_invalid'])
    expect(maxAge(res.headers)).toBe(60)
  })

  it('RIPEstat failing: no route is known (verdict unknown, not unannounced); the allocation stands', async () => {
    ripestat.setFault({ kind: 'status', status: 500 })
    const d = (await answer('/api/network/route-origin/8.8.8.0/24')).body.data
    expect(d).toMatchObject({ route: null, announced: null, origins: [], verdict: 'unknown', findings: [] })
    expect(d.allocation.holder).toEqual({ handle: 'GOGL', name: 'Google LLC' })
    expect(d.errors).toEqual([expect.objectContaining({ part: 'bgp', upstream: 'ripestat' })])
  })

  it('a bad prefix is a 400 naming the parameter', async () => {
    const res = await app.json('/api/network/route-origin/300.1.2.0/24')
    expect(res.status).toBe(400)
    expect(res.body.error.details.param).toBe('prefix')
  })
})

describe('/api/network/intelligence?origin_check=true', () => {
  it('the covering route checked: 1.0.5.1 is in a mismatching route; without the flag nothing is asked', async () => {
    const d = (await answer('/api/network/intelligence/1.0.5.1?origin_check=true', 'network.intelligence')).body.data
    expect(d.origin_check).toEqual({ route: '1.0.4.0/23', verdict: 'mismatch', origins: [{ asn: 38803, verdict: 'mismatch' }], findings: [expect.objectContaining({ id: 'route_origin.rpki_invalid' })] })
    const before = rdap.log.length
    const plain = (await answer('/api/network/intelligence/1.0.5.1', 'network.intelligence')).body.data
    expect(plain.origin_check).toBeNull()
    expect(rdap.log.length).toBe(before)
  })

  it('8.8.8.1: consistent; a bogon is skipped with its reason', async () => {
    expect((await answer('/api/network/intelligence/8.8.8.1?origin_check=1', 'network.intelligence')).body.data.origin_check).toMatchObject({ route: '8.8.8.0/24', verdict: 'consistent', findings: [] })
    const bogon = (await answer('/api/network/intelligence/192.0.2.1?origin_check=true', 'network.intelligence')).body.data
    expect(bogon.origin_check).toBeNull()
    expect(bogon.skipped).toContainEqual({ part: 'origin_check', reason: expect.stringContaining('bogon') })
  })
})

describe('documentation', () => {
  it('docs/routing.md lists exactly the finding ids the answer can carry', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'routing.md'), 'utf8')
    const listed = [...doc.matchAll(/^\| `(route_origin\.[a-z_]+)` \|/gm)].map((m) => m[1]).sort()
    expect(listed).toEqual([...ROUTE_ORIGIN_FINDING_IDS].sort())
  })
})
