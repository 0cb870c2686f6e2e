import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { readRipestatFixture } from '../support/fake-ripestat.ts'
import { EXPIRED_TEST_VRP, untilVrpsLoaded } from '../support/fake-vrp.ts'
import type { RoutingWorld } from './support.ts'
import { startRoutingWorld } from './support.ts'

// The five routing endpoints end to end: the real app, loopback DNS, the fake
// RDAP and RIPEstat servers replaying recorded answers, the fake VRP source.
// Every 200 answer is checked against its descriptor's schema, exactly (no member
// the schema does not document).

let w: RoutingWorld
beforeAll(async () => {
  w = await startRoutingWorld()
})
afterAll(() => w.close())
beforeEach(() => {
  w.ripestat.setFault(null)
  w.rdap.setFault(null)
})

const byPath = (app: TestApp, path: string): AnyEndpoint => {
  const name = path.startsWith('/api/asn') ? 'network.asn' : path.startsWith('/api/bgp/prefix') ? 'network.bgp-prefix' : path.startsWith('/api/bgp/asn') ? 'network.bgp-asn' : path.startsWith('/api/rpki') ? 'network.rpki' : 'network.intelligence'
  return app.endpoints.find((e) => e.name === name)!
}

async function answer(path: string, app: TestApp = w.app) {
  const res = await app.json(path)
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200)
  const schema = byPath(app, path).data
  // parse() drops undocumented members: equal means the answer is exactly the documented shape.
  expect(schema.parse(res.body.data)).toEqual(res.body.data)
  return res
}
const data = async (path: string, app: TestApp = w.app) => (await answer(path, app)).body.data
const error = async (path: string, status: number, app: TestApp = w.app) => {
  const res = await app.json(path)
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(status)
  return res.body.error
}
const maxAge = (headers: Headers) => Number(/max-age=(\d+)/.exec(headers.get('cache-control') ?? '')?.[1] ?? -1)

describe('/api/asn (registration + routing)', () => {
  it('AS13335: the RDAP record with RIPEstat routing beside it', async () => {
    const res = await answer('/api/asn/AS13335')
    const d = res.body.data
    expect(d).toMatchObject({ asn: 13335, registry: 'ARIN', name: 'CLOUDFLARENET', organization: { name: 'Cloudflare, Inc.' } })
    expect(d.routing).toEqual({
      holder: 'CLOUDFLARENET - Cloudflare, Inc.',
      announced: true,
      prefixes: { ipv4: 1, ipv6: 0, total: 1, window: { start: '2020-12-12T12:00:00', end: '2025-06-11T08:00:00' } },
      neighbours: { upstream: 3, downstream: 3, unknown: 0, unique: 4 },
      messages: [{ call: 'announced-prefixes', level: 'info', text: 'Results exclude routes with very low visibility (less than 10 RIS full-feed peers seeing).' }],
    })
    expect(d.errors).toEqual([])
    expect(maxAge(res.headers)).toBe(3600)
    const asked = w.ripestat.log.slice(-3).map((e) => `${e.call} ${e.resource} ${e.sourceapp}`).sort()
    expect(asked).toEqual(['announced-prefixes AS13335 infralens', 'as-overview AS13335 infralens', 'asn-neighbours AS13335 infralens'])
  })

  it('RIPEstat down: the registration stands, routing fields are null with one error each, kept 60 s', async () => {
    w.ripestat.setFault({ kind: 'status', status: 503 })
    const res = await answer('/api/asn/13335')
    expect(res.body.data.name).toBe('CLOUDFLARENET')
    expect(res.body.data.routing).toEqual({ holder: null, announced: null, prefixes: null, neighbours: null, messages: [] })
    expect(res.body.data.errors.map((e: { part: string }) => e.part).sort()).toEqual(['routing.holder', 'routing.neighbours', 'routing.prefixes'])
    expect(res.body.data.errors[0]).toMatchObject({ code: 'upstream_error', upstream: 'ripestat', reason: 'http_error' })
    expect(maxAge(res.headers)).toBe(60)
  })

  it('one RIPEstat call failing leaves only its own field null', async () => {
    w.ripestat.setFault({ fault: { kind: 'html' }, call: 'asn-neighbours' })
    const d = await data('/api/asn/AS13335')
    expect(d.routing.neighbours).toBeNull()
    expect(d.routing.prefixes).toMatchObject({ total: 1 })
    expect(d.routing.holder).toBe('CLOUDFLARENET - Cloudflare, Inc.')
    expect(d.errors).toEqual([expect.objectContaining({ part: 'routing.neighbours', upstream: 'ripestat', reason: 'http_error' })])
  })

  it('the registration decides: RDAP 404 is 404, RDAP failing is 502 rdap, special ASNs never reach RIPEstat', async () => {
    expect((await error('/api/asn/AS3333', 404)).details.upstream).toBe('rdap')
    w.rdap.setFault({ kind: 'status', status: 500 })
    expect((await error('/api/asn/AS13335', 502)).details).toMatchObject({ upstream: 'rdap', reason: 'http_error' })
    w.rdap.setFault(null)
    const before = w.ripestat.log.length
    expect((await error('/api/asn/AS64512', 404)).message).toMatch(/private use/)
    expect(w.ripestat.log.length).toBe(before)
  })
})

describe('/api/bgp/prefix', () => {
  it('an announced prefix: origins with IRR route objects, visibility of its family, first and last seen', async () => {
    const d = await data('/api/bgp/prefix/193.0.0.0/21')
    expect(d).toEqual({
      prefix: '193.0.0.0/21',
      version: 4,
      announced: true,
      origins: [{ asn: 3333, holder: 'RIPE-NCC-AS - Reseaux IP Europeens Network Coordination Centre (RIPE NCC)', route_objects: ['RIPE'] }],
      multi_origin: false,
      covering_route: null,
      less_specifics: [],
      more_specifics: [],
      visibility: { ris_peers_seeing: 343, total_ris_peers: 344, percent: 99.7 },
      first_seen: { prefix: '193.0.0.0/21', origin: 3333, time: '2000-08-18T08:00:00' },
      last_seen: { prefix: '193.0.0.0/21', origin: 3333, time: '2025-06-11T08:00:00' },
      block: { resource: '193.0.0.0/8', description: 'RIPE NCC (Status: ALLOCATED)', name: 'IANA IPv4 Address Space Registry' },
      data_time: '2025-06-11T08:00:00',
      messages: [{ call: 'routing-status', level: 'info', text: 'Results exclude routes with very low visibility (less than 10 RIS full-feed peers seeing).' }],
    })
  })

  it('a prefix nobody announces: the recorded alignment to its covering route, with RIPEstat\'s warning passed on', async () => {
    const d = await data('/api/bgp/prefix/193.0.0.0%2F24')
    expect(d).toMatchObject({
      prefix: '193.0.0.0/24',
      announced: false,
      origins: [],
      multi_origin: false,
      covering_route: { prefix: '193.0.0.0/21', origins: [{ asn: 3333 }] },
      less_specifics: [{ prefix: '193.0.0.0/21', origin: 3333 }],
      visibility: { ris_peers_seeing: 0, total_ris_peers: 344, percent: 0 },
      first_seen: null,
    })
    expect(d.messages).toContainEqual({ call: 'prefix-overview', level: 'warning', text: 'Given resource is not announced but result has been aligned to first-level less-specific (193.0.0.0/21).' })
  })

  it('multi-origin (MOAS) is flagged; more specifics are listed; IPv6 uses its own visibility', async () => {
    expect(await data('/api/bgp/prefix/203.0.113.0/24')).toMatchObject({ multi_origin: true, origins: [{ asn: 64500 }, { asn: 64501 }] })
    expect((await data('/api/bgp/prefix/1.0.4.0/22')).more_specifics).toEqual([{ prefix: '1.0.4.0/23', origin: 38803 }])
    expect(await data('/api/bgp/prefix/2001:67c:2e8::/48')).toMatchObject({ version: 6, announced: true, origins: [{ asn: 3333 }], visibility: { ris_peers_seeing: 339, total_ris_peers: 341 } })
  })

  it('host bits are cleared before asking; the query form works; a bad prefix is 400', async () => {
    const before = w.ripestat.log.length
    expect((await data('/api/bgp/prefix?prefix=193.0.0.77/21')).prefix).toBe('193.0.0.0/21')
    expect(w.ripestat.log.slice(before).map((e) => e.resource)).toEqual(['193.0.0.0/21', '193.0.0.0/21'])
    expect((await error('/api/bgp/prefix/193.0.0.0/33', 400)).details.param).toBe('prefix')
    expect((await error('/api/bgp/prefix/not-a-prefix', 400)).message).toMatch(/prefix/)
  })

  it('prefixes RIPEstat gets wrong are dropped, never passed on, and the answer says so', async () => {
    w.ripestat.serve('routing-status', '198.51.100.0/24', {
      resource: '198.51.100.0/24',
      origins: [{ origin: 64496, route_objects: [] }],
      visibility: { v4: { ris_peers_seeing: 1, total_ris_peers: 2 } },
      less_specifics: [{ prefix: '198.51.0.0/16', origin: 64496 }, { prefix: '203.0.113.0/24', origin: 1 }, { prefix: 'garbage', origin: 1 }],
      more_specifics: [{ prefix: '198.51.100.128/25', origin: '64497' }, { prefix: '198.51.100.7/25', origin: 'AS64497' }],
    })
    const d = await data('/api/bgp/prefix/198.51.100.0/24')
    expect(d.less_specifics).toEqual([{ prefix: '198.51.0.0/16', origin: 64496 }])
    expect(d.more_specifics).toEqual([{ prefix: '198.51.100.0/25', origin: 64497 }, { prefix: '198.51.100.128/25', origin: 64497 }])
    expect(d.messages).toContainEqual({ call: 'infralens', level: 'warning', text: expect.stringMatching(/dropped from RIPEstat's routing-status answer: 1 less specifics that are not less specific, 1 unparseable prefixes/) })
  })
})

describe('/api/bgp/asn', () => {
  it('neighbours by side with power; prefixes in address order with counts per family', async () => {
    const d = await data('/api/bgp/asn/AS3333')
    expect(d.neighbours.counts).toEqual({ upstream: 3, downstream: 3, unknown: 0, unique: 4 })
    expect(d.neighbours.upstream).toEqual([
      { asn: 12479, power: 941, v4_peers: 8032, v6_peers: 0 },
      { asn: 8220, power: 14, v4_peers: 217, v6_peers: 0 },
      { asn: 25259, power: 5, v4_peers: 5, v6_peers: 0 },
    ])
    expect(d.neighbours.downstream.map((n: { asn: number }) => n.asn)).toEqual([25259, 13041, 8220])
    expect(d.prefix_counts).toEqual({ ipv4: 6, ipv6: 1, total: 7 })
    expect(d.prefixes[0]).toEqual({ prefix: '193.0.0.0/21', version: 4, first_seen: '2020-12-12T16:00:00', last_seen: '2025-06-11T08:00:00' })
    expect(d.prefixes.map((p: { prefix: string }) => p.prefix).at(-1)).toBe('2001:67c:2e8::/48')
    expect(d.window).toEqual({ start: '2020-12-12T12:00:00', end: '2025-06-11T08:00:00' })
  })

  it('sort=prefix, limit and offset page the prefixes (and only them)', async () => {
    const res = await answer('/api/bgp/asn/AS3333?sort=prefix&order=desc&limit=2&offset=1')
    // address order: IPv6 after IPv4, so 2001:67c:2e8::/48 leads when descending
    expect(res.body.data.prefixes.map((p: { prefix: string }) => p.prefix)).toEqual(['193.0.22.0/23', '193.0.20.0/23'])
    expect(res.body.meta.pagination).toEqual({ total: 7, limit: 2, offset: 1 })
    expect(res.body.data.neighbours.upstream).toHaveLength(3)
    const asc = await data('/api/bgp/asn/3333?sort=prefix&limit=3')
    expect(asc.prefixes.map((p: { prefix: string }) => p.prefix)).toEqual(['193.0.0.0/21', '193.0.10.0/23', '193.0.12.0/23'])
  })

  it('sort=prefix is address order (family, address, length), not text order', async () => {
    const prefixes = ['2a00::/12', '10.0.0.0/8', '2001:db8:10::/48', '9.0.0.0/8', '10.0.0.0/16', '2001:db8::/32', '9.255.0.0/16', '2001:db8:a::/48']
    const timelines = [{ starttime: '2025-06-01T00:00:00', endtime: '2025-06-11T08:00:00' }]
    w.ripestat.serve('announced-prefixes', 'AS64511', { prefixes: prefixes.map((prefix) => ({ prefix, timelines })), query_starttime: '2025-06-01T00:00:00', query_endtime: '2025-06-11T08:00:00' })
    const byAddress = ['9.0.0.0/8', '9.255.0.0/16', '10.0.0.0/8', '10.0.0.0/16', '2001:db8::/32', '2001:db8:a::/48', '2001:db8:10::/48', '2a00::/12']
    const list = async (query: string) => (await data(`/api/bgp/asn/AS64511${query}`)).prefixes.map((p: { prefix: string }) => p.prefix)
    expect(await list('?sort=prefix')).toEqual(byAddress)
    expect(await list('?sort=prefix&order=desc')).toEqual([...byAddress].reverse())
    // paging across the family boundary
    expect(await list('?sort=prefix&limit=3&offset=3')).toEqual(['10.0.0.0/16', '2001:db8::/32', '2001:db8:a::/48'])
  })

  it('an AS that announces nothing: empty list, zero counts', async () => {
    expect(await data('/api/bgp/asn/AS64496')).toMatchObject({ prefixes: [], prefix_counts: { ipv4: 0, ipv6: 0, total: 0 } })
  })
})

describe('/api/rpki', () => {
  it('without ?asn=: every origin BGP shows, judged against the local VRPs, and the set\'s age', async () => {
    const d = await data('/api/rpki/193.0.0.0/21')
    expect(d.origins).toEqual([
      {
        asn: 3333,
        state: 'valid',
        reason: null,
        description: 'AS3333 may originate 193.0.0.0/21: VRP 193.0.0.0/21 AS3333 maxLength 21 matches.',
        source: 'bgp',
        matched: [{ prefix: '193.0.0.0/21', max_length: 21, asn: 3333, ta: 'ripe' }],
        unmatched_as: [],
        unmatched_length: [],
      },
    ])
    expect(d.bgp).toEqual({ announced: true, origins: [3333], covering_route: null, messages: [] })
    // 384 live VRPs; the fake's EXPIRED_TEST_VRP was dropped at load
    expect(d.vrp_set).toMatchObject({ source: w.vrp.url, generated_at: '2023-10-01T00:05:43.000Z', stale: true, vrps: 384, ipv4: 12, ipv6: 372, rejected: 0, expired_dropped: 1, last_refresh_error: null })
    expect(d.vrp_set.age_seconds).toBeGreaterThan(365 * 86400)
    // the recording's expiries are moved to the present: the next one is days ahead, not in 2023
    expect(Date.parse(d.vrp_set.next_expiry) - Date.now()).toBeGreaterThan(3600_000)
  })

  it('an expired VRP is not used: its prefix is not-found, not valid', async () => {
    const d = await data(`/api/rpki/${EXPIRED_TEST_VRP.prefix}?asn=${EXPIRED_TEST_VRP.asn}`)
    expect(d.origins).toEqual([expect.objectContaining({ asn: EXPIRED_TEST_VRP.asn, state: 'not-found', matched: [], unmatched_as: [], unmatched_length: [] })])
    expect(d.covering_vrps).toEqual([])
  })

  it('multi-origin: one origin valid, the other invalid (as)', async () => {
    const d = await data('/api/rpki/203.0.113.0/24')
    expect(d.origins.map((o: { asn: number; state: string; reason: string | null }) => [o.asn, o.state, o.reason])).toEqual([
      [64500, 'valid', null],
      [64501, 'invalid', 'as'],
    ])
  })

  it('?asn=: that origin only, RIPEstat not asked; invalid by length names the short VRP', async () => {
    const before = w.ripestat.log.length
    const d = await data('/api/rpki/1.0.4.0/23?asn=AS38803')
    expect(w.ripestat.log.length).toBe(before)
    expect(d.bgp).toBeNull()
    expect(d.origins).toEqual([
      expect.objectContaining({ asn: 38803, state: 'invalid', reason: 'length', source: 'query', unmatched_length: [{ prefix: '1.0.4.0/22', max_length: 22, asn: 38803, ta: 'apnic' }] }),
    ])
    expect(d.origins[0].description).toMatch(/only up to \/22/)
  })

  it('AS0 VRPs make every origin invalid, AS0 included', async () => {
    for (const asn of ['0', '64500']) {
      const [o] = (await data(`/api/rpki/198.51.100.0/25?asn=${asn}`)).origins
      expect(o).toMatchObject({ state: 'invalid', reason: 'as', unmatched_as: [{ prefix: '198.51.100.0/24', max_length: 32, asn: 0, ta: 'test' }] })
      expect(o.description).toMatch(/AS0: the holder says it must not be routed/)
    }
  })

  it('IPv6, from BGP; a prefix nobody announces has no origins but its covering VRPs', async () => {
    expect((await data('/api/rpki/2001:67c:2e8::/48')).origins).toEqual([expect.objectContaining({ asn: 3333, state: 'valid' })])
    const d = await data('/api/rpki/193.0.0.0/24')
    expect(d.origins).toEqual([])
    expect(d.bgp).toMatchObject({ announced: false, origins: [], covering_route: '193.0.0.0/21' })
    expect(d.covering_vrps).toEqual([{ prefix: '193.0.0.0/21', max_length: 21, asn: 3333, ta: 'ripe' }])
    expect((await data('/api/rpki/192.0.2.0/24?asn=1')).origins[0].state).toBe('not-found')
  })

  it('bad input is 400 naming the parameter', async () => {
    expect((await error('/api/rpki/193.0.0.0/21?asn=ASX', 400)).details.param).toBe('asn')
    expect((await error('/api/rpki/193.0.0.0', 400)).details.param).toBe('prefix')
  })
})

describe('/api/network/intelligence', () => {
  it('8.8.8.8: every part answers', async () => {
    const d = await data('/api/network/intelligence/8.8.8.8')
    expect(d).toMatchObject({
      ip: '8.8.8.8',
      version: 4,
      classification: { class: 'public' },
      bogon: { bogon: false },
      asn: { number: 15169, source: expect.stringMatching(/^@ip-location-db\/asn/) },
      country: { code: 'US' },
      reverse_dns: { status: 'answer', names: [{ name: 'dns.google', forward_confirmed: true }], fcrdns: true },
      bgp: { prefix: '8.8.8.0/24', origins: [15169], multi_origin: false },
      rpki: { route: '8.8.8.0/24', origins: [{ asn: 15169, state: 'valid', reason: null }] },
      anycast: { anycast: true, prefix: '8.8.8.0/24', service: 'Google Public DNS 8.8.8.8' },
      routed: true,
      errors: [],
      skipped: [],
    })
  })

  it('the ASN/country part reads the network plugin\'s data: one load in the process, the same answer as /api/ip', async () => {
    const d = await data('/api/network/intelligence/1.1.1.1')
    const ip = await w.app.json('/api/ip/1.1.1.1')
    expect(ip.status).toBe(200)
    expect(d.asn.number).toBe(ip.body.data.asn.number)
    expect(d.country.code).toBe(ip.body.data.country.code)
    // /api/ready (the readiness polls) started the network plugin's load; the intelligence calls reused it
    expect(w.app.logs.filter((l) => l.msg === 'IP data loaded')).toHaveLength(1)
  })

  it('the recorded network-info (140.78.90.50): route and origin; RPKI not-found; a PTR the DNS cannot answer is an error of its own', async () => {
    const d = await data('/api/network/intelligence/140.78.90.50')
    expect(d.bgp).toEqual({ prefix: '140.78.0.0/16', origins: [1205], multi_origin: false, messages: [] })
    expect(d.rpki).toMatchObject({ route: '140.78.0.0/16', origins: [{ asn: 1205, state: 'not-found', reason: null }] })
    expect(d.anycast.anycast).toBe(false)
    if (d.reverse_dns === null) expect(d.errors).toEqual([expect.objectContaining({ part: 'reverse_dns', upstream: 'dns' })])
  })

  it('IPv6 and an invalid-length route', async () => {
    expect((await data('/api/network/intelligence/2001:67c:2e8::1')).rpki).toMatchObject({ route: '2001:67c:2e8::/48', origins: [{ asn: 3333, state: 'valid' }] })
    expect((await data('/api/network/intelligence/1.0.5.1')).rpki).toMatchObject({ route: '1.0.4.0/23', origins: [{ asn: 38803, state: 'invalid', reason: 'length' }] })
  })

  it('a bogon: no BGP, PTR or RPKI questions asked, each skip explained', async () => {
    const before = w.ripestat.log.length
    const d = await data('/api/network/intelligence/192.168.1.1')
    expect(w.ripestat.log.length).toBe(before)
    expect(d).toMatchObject({ bogon: { bogon: true, prefix: '192.168.0.0/16' }, classification: { class: 'private' }, bgp: null, rpki: null, reverse_dns: null, routed: false, errors: [] })
    expect(d.skipped.map((s: { part: string }) => s.part)).toEqual(['reverse_dns', 'bgp', 'rpki'])
  })

  it('RIPEstat failing: bgp null with its error, rpki skipped, the rest stands, kept 60 s', async () => {
    w.ripestat.setFault({ kind: 'status', status: 500 })
    const res = await answer('/api/network/intelligence/8.8.8.8')
    const d = res.body.data
    expect(d).toMatchObject({ bgp: null, rpki: null, routed: null, asn: { number: 15169 }, reverse_dns: { fcrdns: true }, anycast: { anycast: true } })
    expect(d.errors).toEqual([{ part: 'bgp', code: 'upstream_error', message: expect.any(String), upstream: 'ripestat', reason: 'http_error' }])
    expect(d.skipped).toEqual([{ part: 'rpki', reason: expect.stringMatching(/BGP part failed/) }])
    expect(maxAge(res.headers)).toBe(60)
  })
})

describe('parts with their own deadlines, and missing data', () => {
  it('a RIPEstat that hangs costs only its part, within the part deadline', async () => {
    const t = await startRoutingWorld({ INFRALENS_REQUEST_TIMEOUT_MS: '3000' })
    try {
      await data('/api/network/intelligence/8.8.8.8', t.app) // warm: the offline ASN data is loaded
      t.ripestat.setFault({ kind: 'timeout' })
      const started = performance.now()
      const d = await data('/api/network/intelligence/8.8.8.8', t.app)
      expect(performance.now() - started).toBeLessThan(2900)
      expect(d.errors).toEqual([expect.objectContaining({ part: 'bgp', upstream: 'ripestat', reason: 'timeout' })])
      expect(d.reverse_dns?.fcrdns).toBe(true)
    } finally {
      await t.close()
    }
  })

  it('no DNS and no VRPs: reverse_dns and rpki are errors, BGP still answers', async () => {
    // Default DNS of the test app (a closed port) and a VRP source that does not exist.
    const t = await startTestApp({ ...w.ripestat.env, INFRALENS_VRP_URL: '/nonexistent/vrps.json' })
    try {
      const d = await data('/api/network/intelligence/8.8.8.8', t)
      expect(d.bgp).toMatchObject({ prefix: '8.8.8.0/24' })
      expect(d.reverse_dns).toBeNull()
      expect(d.rpki).toBeNull()
      expect(d.errors.map((e: { part: string }) => e.part).sort()).toEqual(['reverse_dns', 'rpki'])
      expect(d.errors.find((e: { part: string }) => e.part === 'rpki')).toMatchObject({ code: 'service_unavailable', message: expect.stringMatching(/no VRP set could be loaded from \/nonexistent\/vrps\.json/) })
    } finally {
      await t.close()
    }
  })
})

describe('every recorded RIPEstat answer, served as recorded, gives the documented answer', () => {
  it.each([
    ['prefix-overview + routing-status (prefix form)', '/api/bgp/prefix/193.0.0.0/21'],
    ['prefix-overview (aligned)', '/api/rpki/193.0.1.0/24'],
    ['announced-prefixes + asn-neighbours', '/api/bgp/asn/AS3333'],
    ['as-overview + announced-prefixes + asn-neighbours', '/api/asn/AS13335'],
    ['network-info', '/api/network/intelligence/140.78.90.50'],
  ])('%s: %s', async (_, path) => {
    await answer(path)
  })

  it('the recorded envelopes are what the fake serves for their own resources', async () => {
    for (const [call, resource] of [['announced-prefixes', '3333'], ['as-overview', '3333'], ['network-info', '140.78.90.50']] as const) {
      const res = await fetch(`${w.ripestat.origin}/data/${call}/data.json?resource=${resource}`)
      expect(await res.json()).toEqual(readRipestatFixture(call))
    }
  })
})

describe('ready before RPKI', () => {
  it('the VRP set loads in the background; /api/ready waits for it', async () => {
    const t = await startTestApp({ ...w.vrp.env })
    try {
      await untilVrpsLoaded(t)
      expect((await data('/api/rpki/193.0.0.0/21?asn=3333', t)).origins[0].state).toBe('valid')
    } finally {
      await t.close()
    }
  })
})
