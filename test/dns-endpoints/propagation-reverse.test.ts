import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
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
afterEach(() => {
  for (const s of dns.propagation) {
    s.setFault(null)
    s.setValidating(false)
  }
})

type Row = { resolver: string; rcode: string | null; error: string | null; latency_ms: number | null; authenticated: boolean | null }
const row = (d: { results: Row[] }, name: string): Row => d.results.find((r) => r.resolver === name)!

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

  it('per resolver: AD (asked for with AD, not DO) and its own latency', async () => {
    dns.propagation[0]!.setValidating(true)
    dns.propagation[1]!.setFault({ kind: 'delay', ms: 150 })
    const before = dns.propagation.map((s) => s.log.length)
    const res = await t.json('/api/dns/propagation/host.infralens.test?type=AAAA')
    expect(res.status).toBe(200)
    const d = res.body.data
    expect(d.results.map((r: Row) => [r.resolver, r.authenticated])).toEqual([
      ['pub1', true],
      ['pub2', false],
      ['pub3', false],
      ['pub4', false],
    ])
    expect(row(d, 'pub2').latency_ms).toBeGreaterThanOrEqual(150)
    for (const name of ['pub1', 'pub3', 'pub4']) expect(row(d, name).latency_ms, name).toBeLessThan(150)
    expect(d.groups).toEqual([{ rcode: 'NOERROR', answers: ['2001:db8::1'], resolvers: ['pub1', 'pub2', 'pub3', 'pub4'], count: 4 }])
    dns.propagation.forEach((s, i) => {
      const asked = s.log.slice(before[i])
      expect(asked).toHaveLength(1)
      expect(asked[0]).toMatchObject({ name: 'host.infralens.test', type: 'AAAA', ad: true, dnssecOk: false })
    })
  })

  it('REFUSED and NOTIMP are that resolver failing, reported in its row and left out of the groups', async () => {
    dns.propagation[0]!.setFault('refused')
    dns.propagation[1]!.setFault('notimp')
    const res = await t.json('/api/dns/propagation/ns1.infralens.test')
    expect(res.status).toBe(200)
    const d = res.body.data
    expect(d).toMatchObject({ resolvers_total: 4, resolvers_answered: 2, consistent: true })
    expect(row(d, 'pub1')).toMatchObject({ rcode: 'REFUSED', answers: [], authenticated: null, error: expect.stringMatching(/pub1 answered REFUSED/) })
    expect(row(d, 'pub2')).toMatchObject({ rcode: 'NOTIMP', answers: [], error: expect.stringMatching(/pub2 answered NOTIMP/) })
    expect(typeof row(d, 'pub1').latency_ms).toBe('number')
    expect(d.groups).toEqual([{ rcode: 'NOERROR', answers: ['192.0.2.53'], resolvers: ['pub3', 'pub4'], count: 2 }])
  })

  it('SERVFAIL is an answer about the name (a group of its own), not a resolver failure', async () => {
    dns.propagation[2]!.setFault('servfail')
    const d = (await t.json('/api/dns/propagation/ns2.infralens.test')).body.data
    expect(d).toMatchObject({ resolvers_answered: 4, consistent: false })
    expect(row(d, 'pub3')).toMatchObject({ rcode: 'SERVFAIL', error: null })
    expect(d.groups).toEqual([
      { rcode: 'NOERROR', answers: ['192.0.2.54'], resolvers: ['pub1', 'pub2', 'pub4'], count: 3 },
      { rcode: 'SERVFAIL', answers: [], resolvers: ['pub3'], count: 1 },
    ])
  })

  it('all resolvers refusing is 502 with reason refused, each one\'s error in details', async () => {
    for (const s of dns.propagation) s.setFault('refused')
    const res = await t.json('/api/dns/propagation/mx1.infralens.test')
    expect(res.status).toBe(502)
    expect(res.body.error.details).toMatchObject({ upstream: 'dns', reason: 'refused', name: 'mx1.infralens.test' })
    expect(res.body.error.details.errors).toEqual(
      ['pub1', 'pub2', 'pub3', 'pub4'].map((resolver) => ({ resolver, reason: 'refused', rcode: 'REFUSED', error: expect.stringMatching(/answered REFUSED/) })),
    )
  })

  it('mixed failures: the 502 reason is the one most resolvers failed with', async () => {
    dns.propagation[0]!.setFault('drop')
    for (const s of dns.propagation.slice(1)) s.setFault('refused')
    const res = await t.json('/api/dns/propagation/mx2.infralens.test?type=AAAA')
    expect(res.status).toBe(502)
    expect(res.body.error.details.reason).toBe('refused')
    expect(res.body.error.details.errors.map((e: { reason: string }) => e.reason)).toEqual(['timeout', 'refused', 'refused', 'refused'])
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
