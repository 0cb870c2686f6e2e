import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createGuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import {
  readAnnouncedPrefixes,
  readAsOverview,
  readAsnNeighbours,
  readNetworkInfo,
  readPrefixOverview,
  readRoutingStatus,
} from '../../plugins/routing/ripestat/data-calls.ts'
import { createRipestatClient } from '../../plugins/routing/ripestat/ripestat-client.ts'
import type { RipestatClient } from '../../plugins/routing/ripestat/ripestat-client.ts'
import type { RoutingWorld } from './support.ts'
import { startRoutingWorld } from './support.ts'
import type { FakeRipestat } from '../support/fake-ripestat.ts'
import { readRipestatFixture, startFakeRipestat } from '../support/fake-ripestat.ts'

// RIPEstat: every recorded answer read into its shape, the re-validation of what
// it says, and every way a call can fail (through the client and through an
// endpoint, where each is a 502 naming RIPEstat and the reason).

const cidr = (text: string) => {
  const p = parseCidr(text)
  if (!p.ok) throw new Error(text)
  return p.value
}

describe('the recorded answers, read', () => {
  it('prefix-overview (193.0.0.0/21, aligned from a more specific query)', () => {
    const o = readPrefixOverview(readRipestatFixture('prefix-overview').data)
    expect(o.resource?.prefix).toBe('193.0.0.0/21')
    expect(o).toMatchObject({
      announced: true,
      isLessSpecific: true,
      asns: [{ asn: 3333, holder: 'RIPE-NCC-AS - Reseaux IP Europeens Network Coordination Centre (RIPE NCC)' }],
      block: { resource: '193.0.0.0/8', description: 'RIPE NCC (Status: ALLOCATED)', name: 'IANA IPv4 Address Space Registry' },
      queryTime: '2025-06-11T08:00:00',
    })
    expect(o.dropped.total).toBe(0)
  })

  it('announced-prefixes (AS3333): seven prefixes in address order, timelines kept', () => {
    const a = readAnnouncedPrefixes(readRipestatFixture('announced-prefixes').data)
    expect(a.prefixes.map((p) => p.prefix)).toEqual(['193.0.0.0/21', '193.0.10.0/23', '193.0.12.0/23', '193.0.18.0/23', '193.0.20.0/23', '193.0.22.0/23', '2001:67c:2e8::/48'])
    expect(a.prefixes[0]?.timelines).toEqual([{ start: '2020-12-12T16:00:00', end: '2025-06-11T08:00:00' }])
    expect(a).toMatchObject({ queryStart: '2020-12-12T12:00:00', queryEnd: '2025-06-11T08:00:00' })
    expect(a.dropped.total).toBe(0)
  })

  it('routing-status, ASN form (AS3333)', () => {
    const r = readRoutingStatus(readRipestatFixture('routing-status').data)
    expect(r).toMatchObject({
      firstSeen: { prefix: '193.0.0.0/22', origin: 3333, time: '2000-08-18T08:00:00' },
      lastSeen: { prefix: '193.0.20.0/23', origin: 3333, time: '2025-06-11T08:00:00' },
      visibility: { v4: { seeing: 343, total: 344 }, v6: { seeing: 340, total: 341 } },
      announcedSpace: { v4Prefixes: 6, v4Addresses: 4608, v6Prefixes: 1, v6Slash48s: 1 },
      observedNeighbours: 872,
      origins: [],
      lessSpecifics: [],
      moreSpecifics: [],
    })
  })

  it('routing-status, prefix form (derived fixture, 193.0.0.0/21)', () => {
    const r = readRoutingStatus(readRipestatFixture('routing-status.prefix.derived').data, cidr('193.0.0.0/21'))
    expect(r).toMatchObject({ origins: [{ asn: 3333, routeObjects: ['RIPE'] }], visibility: { v4: { seeing: 343, total: 344 } }, announcedSpace: null })
  })

  it('asn-neighbours (AS12386): sides mapped to upstream/downstream, by power', () => {
    const n = readAsnNeighbours(readRipestatFixture('asn-neighbours').data)
    expect(n.neighbours.map((x) => [x.asn, x.type, x.power])).toEqual([
      [12479, 'upstream', 941],
      [25259, 'downstream', 511],
      [13041, 'downstream', 121],
      [8220, 'upstream', 14],
      [8220, 'downstream', 5],
      [25259, 'upstream', 5],
    ])
    expect(n.counts).toEqual({ upstream: 3, downstream: 3, unknown: 0, unique: 4 })
  })

  it('as-overview (AS3333)', () => {
    expect(readAsOverview(readRipestatFixture('as-overview').data)).toEqual({
      holder: 'RIPE-NCC-AS - Reseaux IP Europeens Network Coordination Centre (RIPE NCC)',
      announced: true,
      block: { resource: '3154-3353', description: 'Assigned by RIPE NCC', name: 'IANA 16-bit Autonomous System (AS) Numbers Registry' },
    })
  })

  it('network-info (140.78.90.50): the covering prefix and its origin; a prefix not covering the address is dropped', () => {
    const d = readRipestatFixture('network-info').data
    expect(readNetworkInfo(d, cidr('140.78.90.50/32'))).toMatchObject({ prefix: { prefix: '140.78.0.0/16' }, asns: [1205] })
    const wrong = readNetworkInfo(d, cidr('192.0.2.1/32'))
    expect(wrong).toMatchObject({ prefix: null, asns: [] })
    expect(wrong.dropped.counts).toEqual({ 'prefixes not covering the address': 1 })
  })
})

describe('re-validation of what RIPEstat says', () => {
  it('prefixes are parsed again and masked; what does not parse, or contradicts the query, is dropped and counted', () => {
    const a = readAnnouncedPrefixes({
      prefixes: [
        { prefix: '193.0.0.7/21', timelines: [{ starttime: 'a', endtime: 'b' }] },
        { prefix: '193.0.0.0/21', timelines: [{ starttime: 'c', endtime: 'd' }] },
        { prefix: '2001:67C:2E8:0::/48' },
        { prefix: '999.0.0.0/8' },
        { prefix: '10.0.0.0' },
        { prefix: '<script>' },
        { prefix: 42 },
        'junk',
      ],
    })
    expect(a.prefixes.map((p) => p.prefix)).toEqual(['193.0.0.0/21', '2001:67c:2e8::/48'])
    expect(a.prefixes[0]?.timelines).toHaveLength(2)
    expect(a.dropped.counts).toEqual({ 'unparseable prefixes': 4 })
    expect(a.dropped.describe('announced-prefixes')).toBe("infralens dropped from RIPEstat's announced-prefixes answer: 4 unparseable prefixes")

    const r = readRoutingStatus(
      {
        origins: [{ origin: 'AS3333', route_objects: ['RIPE', 7] }, { origin: 'x' }],
        less_specifics: [{ prefix: '193.0.0.0/16', origin: '3333' }, { prefix: '10.0.0.0/8', origin: 1 }, { prefix: '193.0.0.0/21', origin: 1 }],
        more_specifics: [{ prefix: '193.0.1.0/24', origin: 3333 }, { prefix: '193.0.0.0/16', origin: 3333 }],
      },
      cidr('193.0.0.0/21'),
    )
    expect(r.origins).toEqual([{ asn: 3333, routeObjects: ['RIPE'] }])
    expect(r.lessSpecifics).toEqual([{ prefix: '193.0.0.0/16', origin: 3333 }])
    expect(r.moreSpecifics).toEqual([{ prefix: '193.0.1.0/24', origin: 3333 }])
    expect(r.dropped.counts).toEqual({ 'bad ASNs': 1, 'less specifics that are not less specific': 2, 'more specifics that are not more specific': 1 })
  })
})

// ------------------------------------------------------------ the client

describe('the client', () => {
  let fake: FakeRipestat
  let client: RipestatClient
  beforeAll(async () => {
    fake = await startFakeRipestat()
    client = createRipestatClient({ network: createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => [] }), baseUrl: fake.origin, timeoutMs: 500 })
  })
  afterAll(() => fake.close())
  beforeEach(() => fake.setFault(null))

  const failure = async (call: () => Promise<unknown>) => {
    try {
      await call()
    } catch (error) {
      return error as { status: number; code: string; message: string; details: Record<string, unknown> }
    }
    throw new Error('expected a failure')
  }

  it('asks /data/<call>/data.json with the resource and sourceapp=infralens, and passes messages on', async () => {
    const before = fake.log.length
    const answer = await client.call('prefix-overview', '193.0.0.0/24')
    expect(fake.log.slice(before)).toEqual([{ call: 'prefix-overview', resource: '193.0.0.0/24', sourceapp: 'infralens', fault: null }])
    expect(answer.url).toBe(`${fake.origin}/data/prefix-overview/data.json?resource=193.0.0.0%2F24&sourceapp=infralens`)
    expect(answer.messages).toEqual([{ call: 'prefix-overview', level: 'warning', text: 'Given resource is not announced but result has been aligned to first-level less-specific (193.0.0.0/21).' }])
    expect(answer.time).toBe('2025-06-11T16:04:30.815618')
  })

  it.each([
    ['5xx', { kind: 'status', status: 500 }, 'http_error', { status: 500 }, /RIPEstat failed \(HTTP 500\)/],
    ['429 with Retry-After', { kind: 'status', status: 429, retryAfter: '30' }, 'http_error', { status: 429, retry_after: '30' }, /rate limiting us \(HTTP 429\)/],
    ['an HTML error page (503)', { kind: 'html' }, 'http_error', { status: 503 }, /HTTP 503/],
    ['an HTML page with 200', { kind: 'html', status: 200 }, 'bad_response', { content_type: 'text/html; charset=utf-8' }, /did not answer .* with JSON \(it sent text\/html\)/],
    ['broken JSON', { kind: 'garbage' }, 'bad_response', {}, /with JSON/],
    ['RIPEstat\'s own error status', { kind: 'error-status' }, 'bad_response', { ripestat_messages: ['An internal error occurred; please try again later.'] }, /status "error": An internal error/],
    ['a timeout', { kind: 'timeout' }, 'timeout', {}, /.+/],
    ['a reset', { kind: 'reset' }, 'reset', {}, /.+/],
    ['a slow drip past the deadline', { kind: 'drip', bytes: 4, intervalMs: 100 }, 'timeout', {}, /.+/],
  ] as const)('%s is a 502 upstream_error (ripestat, %s)', async (_, fault, reason, details, message) => {
    fake.setFault(fault)
    const error = await failure(() => client.call('prefix-overview', '193.0.0.0/21'))
    expect(error.status).toBe(502)
    expect(error.code).toBe('upstream_error')
    expect(error.details).toMatchObject({ upstream: 'ripestat', reason, ...details })
    expect(error.message).toMatch(message)
  })

  it('a 400 for a resource RIPEstat cannot read carries its messages', async () => {
    const error = await failure(() => client.call('network-info', 'not-an-ip'))
    expect(error.details).toMatchObject({ upstream: 'ripestat', reason: 'http_error', status: 400, ripestat_messages: [expect.stringMatching(/Invalid resource/)] })
  })

  it('an answer without a data object is a bad_response', async () => {
    fake.serve('as-overview', 'AS1', { messages: [], status: 'ok', data: null }, { envelope: true })
    const error = await failure(() => client.call('as-overview', 'AS1'))
    expect(error.details).toMatchObject({ reason: 'bad_response' })
    expect(error.message).toMatch(/no data object/)
  })

  it('an unreachable RIPEstat is refused/network, never a hang', async () => {
    const dead = createRipestatClient({ network: createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => [] }), baseUrl: 'http://127.0.0.1:1', timeoutMs: 500 })
    const error = await failure(() => dead.call('as-overview', 'AS1'))
    expect(error.details).toMatchObject({ upstream: 'ripestat', reason: 'refused' })
  })

  it('a RIPEstat base the guard refuses (not loopback when only loopback is open) is blocked', async () => {
    const guarded = createRipestatClient({ network: createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => [] }), baseUrl: 'http://169.254.169.254', timeoutMs: 500 })
    const error = await failure(() => guarded.call('as-overview', 'AS1'))
    expect(error.details).toMatchObject({ upstream: 'ripestat', reason: 'blocked' })
  })
})

// ------------------------------------------------------- through an endpoint

describe('faults through the endpoints', () => {
  let w: RoutingWorld
  beforeAll(async () => {
    // RIPEstat calls get 60% of the 4 s deadline: a hung RIPEstat is a 502 timeout well before the 504.
    w = await startRoutingWorld({ INFRALENS_BREAKER_THRESHOLD: '1000', INFRALENS_REQUEST_TIMEOUT_MS: '4000' })
  })
  afterAll(() => w.close())
  beforeEach(() => w.ripestat.setFault(null))

  it.each([
    [{ kind: 'status', status: 503 }, 'http_error'],
    [{ kind: 'status', status: 429, retryAfter: '5' }, 'http_error'],
    [{ kind: 'html' }, 'http_error'],
    [{ kind: 'garbage' }, 'bad_response'],
    [{ kind: 'timeout' }, 'timeout'],
    [{ kind: 'reset' }, 'reset'],
  ] as const)('%o: /api/bgp/prefix and /api/bgp/asn answer 502 %s', async (fault, reason) => {
    w.ripestat.setFault(fault)
    const paths = ['/api/bgp/prefix/193.0.0.0/21', '/api/bgp/asn/AS3333', '/api/rpki/193.0.0.0/21']
    // One path is enough to wait out for a timeout.
    for (const path of fault.kind === 'timeout' ? paths.slice(0, 1) : paths) {
      const res = await w.app.json(path)
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(502)
      expect(res.body.error).toMatchObject({ code: 'upstream_error', details: { upstream: 'ripestat', reason } })
    }
  })

  it('/api/rpki with ?asn= does not ask RIPEstat, so it answers while RIPEstat is down', async () => {
    w.ripestat.setFault({ kind: 'status', status: 500 })
    const res = await w.app.json('/api/rpki/193.0.0.0/21?asn=AS3333')
    expect(res.status).toBe(200)
    expect(res.body.data.origins[0]).toMatchObject({ asn: 3333, state: 'valid', source: 'query' })
  })

  it('the circuit breaker opens after repeated failures (its own app: threshold 2)', async () => {
    const t = await startRoutingWorld({ INFRALENS_BREAKER_THRESHOLD: '2', INFRALENS_BREAKER_OPEN_MS: '60000' })
    try {
      t.ripestat.setFault({ kind: 'status', status: 500 })
      for (let i = 0; i < 2; i++) expect((await t.app.json('/api/bgp/prefix/193.0.0.0/21')).status).toBe(502)
      t.ripestat.setFault(null)
      const before = t.ripestat.log.length
      const res = await t.app.json('/api/bgp/asn/AS3333')
      expect(res.status).toBe(502)
      expect(res.body.error.details).toMatchObject({ upstream: 'ripestat', reason: 'unavailable', circuit: 'open' })
      expect(t.ripestat.log.length).toBe(before) // not called at all
    } finally {
      await t.close()
    }
  })
})
