import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, SERVICE_ZONE, startLoopbackDns } from '../support/loopback-dns.ts'

// The third public resolver has a stale copy of the zone (another A record).
const STALE = SERVICE_ZONE.replace('@        IN A    192.0.2.10', '@        IN A    192.0.2.77')

let dns: LoopbackDns
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns({ propagation: [DEFAULT_ZONES, DEFAULT_ZONES, [STALE, ...DEFAULT_ZONES.slice(1)], DEFAULT_ZONES] })
  t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(async () => {
  await t.close()
  await dns.close()
})

describe('propagation', () => {
  it('asks every resolver, groups answers, flags the inconsistency', async () => {
    const res = await t.json('/api/dns/propagation/infralens.test')
    expect(res.status).toBe(200)
    const d = res.body.data
    expect(d).toMatchObject({ domain: 'infralens.test', type: 'A', consistent: false, resolvers_total: 4, resolvers_answered: 4 })
    expect(d.results.map((r: { resolver: string }) => r.resolver)).toEqual(['pub1', 'pub2', 'pub3', 'pub4'])
    for (const r of d.results) {
      expect(r.rcode).toBe('NOERROR')
      expect(r.error).toBeNull()
      expect(r.ttl).toBeGreaterThan(0)
      expect(typeof r.latency_ms).toBe('number')
    }
    expect(d.groups).toEqual([
      { rcode: 'NOERROR', answers: ['192.0.2.10', '192.0.2.11'], resolvers: ['pub1', 'pub2', 'pub4'], count: 3 },
      { rcode: 'NOERROR', answers: ['192.0.2.11', '192.0.2.77'], resolvers: ['pub3'], count: 1 },
    ])
    for (const s of dns.propagation) expect(s.log.some((q) => q.name === 'infralens.test' && q.type === 'A')).toBe(true)
  })

  it('consistent when all agree; other types via type=', async () => {
    const d = (await t.json('/api/dns/propagation/infralens.test?type=mx')).body.data
    expect(d.type).toBe('MX')
    expect(d.consistent).toBe(true)
    expect(d.groups).toEqual([{ rcode: 'NOERROR', answers: ['10 mx1.infralens.test', '20 mx2.infralens.test'], resolvers: ['pub1', 'pub2', 'pub3', 'pub4'], count: 4 }])
  })

  it('a dead resolver is reported, not fatal, and costs only the timeout', async () => {
    dns.propagation[1]!.setFault({ kind: 'drop' })
    try {
      const started = Date.now()
      const d = (await t.json('/api/dns/propagation/host.infralens.test')).body.data
      const elapsed = Date.now() - started
      expect(d.resolvers_answered).toBe(3)
      const dead = d.results.find((r: { resolver: string }) => r.resolver === 'pub2')
      expect(dead).toMatchObject({ rcode: null, answers: [], error: expect.stringMatching(/.+/) })
      expect(d.consistent).toBe(true)
      // timeout is 400 ms, one attempt, all resolvers in parallel
      expect(elapsed).toBeLessThan(1500)
    } finally {
      dns.propagation[1]!.setFault(null)
    }
  })

  it('all resolvers failing is 502 upstream_error', async () => {
    for (const s of dns.propagation) s.setFault({ kind: 'drop' })
    try {
      const res = await t.json('/api/dns/propagation/mx2.infralens.test')
      expect(res.status).toBe(502)
      expect(res.body.error.details).toMatchObject({ upstream: 'dns', reason: 'timeout' })
      expect(res.body.error.details.errors).toHaveLength(4)
    } finally {
      for (const s of dns.propagation) s.setFault(null)
    }
  })

  it('rejects unknown types', async () => {
    const res = await t.json('/api/dns/propagation/infralens.test?type=BOGUS')
    expect(res.status).toBe(400)
    expect(res.body.error.details.param).toBe('type')
  })
})

describe('reverse DNS', () => {
  it('PTR with forward confirmation', async () => {
    const d = (await t.json('/api/reverse-dns/192.0.2.1')).body.data
    expect(d).toMatchObject({ ip: '192.0.2.1', reverse_name: '1.2.0.192.in-addr.arpa', rcode: 'NOERROR', status: 'answer', fcrdns: true })
    expect(d.ptr).toEqual([{ name: 'host.infralens.test', ttl: 600, forward_confirmed: true, forward_addresses: ['192.0.2.1'] }])
  })

  it('several PTR names, each checked; one lies', async () => {
    const d = (await t.json('/api/reverse-dns/192.0.2.2')).body.data
    const byName = Object.fromEntries(d.ptr.map((p: { name: string }) => [p.name, p]))
    expect(byName['liar.infralens.test']).toMatchObject({ forward_confirmed: false, forward_addresses: ['192.0.2.99'] })
    expect(byName['host.infralens.test']).toMatchObject({ forward_confirmed: false, forward_addresses: ['192.0.2.1'] })
    expect(d.fcrdns).toBe(false)
  })

  it('a PTR name that does not resolve', async () => {
    const d = (await t.json('/api/reverse-dns/192.0.2.3')).body.data
    expect(d.ptr).toEqual([{ name: 'nowhere.infralens.test', ttl: 600, forward_confirmed: false, forward_addresses: [] }])
  })

  it('IPv6, compressed or not, and no PTR at all', async () => {
    const d = (await t.json('/api/reverse-dns/2001:0db8:0:0:0:0:0:0001')).body.data
    expect(d.ip).toBe('2001:db8::1')
    expect(d.reverse_name).toBe('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa')
    expect(d.fcrdns).toBe(true)
    const none = (await t.json('/api/reverse-dns/192.0.2.200')).body.data
    expect(none).toMatchObject({ rcode: 'NXDOMAIN', status: 'nxdomain', ptr: [], fcrdns: false })
  })

  it('strict IP syntax: 400 with the reason', async () => {
    for (const bad of ['256.1.1.1', '1.2.3', '01.2.3.4', '127.1', 'example.com']) {
      const res = await t.json(`/api/reverse-dns/${bad}`)
      expect(res.status, bad).toBe(400)
      expect(res.body.error.details.param).toBe('ip')
    }
    expect((await t.json('/api/reverse-dns?ip=192.0.2.1')).status).toBe(200)
  })
})
