import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'

// TTLs on either side of the 5-minute cache cap; the SOA minimum is above the cap, so
// the other types' negative answers in a lookup do not lower the cache TTL.
const TTL_ZONE = `
$ORIGIN ttl.test.
$TTL 300
@      IN SOA ns hostmaster ( 1 3600 900 604800 600 )
@      IN NS  ns
ns     IN A   192.0.2.53
short  60    IN A 192.0.2.60
long   86400 IN A 192.0.2.86
`

let dns: LoopbackDns
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, TTL_ZONE] })
  t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(async () => {
  await t.close()
  await dns.close()
})
beforeEach(() => {
  dns.resolver.setFault(null)
  dns.resolver.setValidating(false)
})

const data = async (path: string) => {
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

describe('record endpoints against the loopback resolver', () => {
  it('A: records with TTLs, rcode, resolver, min TTL', async () => {
    const d = await data('/api/dns/a/infralens.test')
    expect(d.rcode).toBe('NOERROR')
    expect(d.status).toBe('answer')
    expect(d.records.map((r: { address: string }) => r.address).sort()).toEqual(['192.0.2.10', '192.0.2.11'])
    for (const r of d.records) expect(r).toMatchObject({ name: 'infralens.test', type: 'A' })
    // RRset TTL: the server answers every record of the set with the set's TTL or their own
    expect(d.ttl).toBe(Math.min(...d.records.map((r: { ttl: number }) => r.ttl)))
    expect(d.resolver).toEqual({ name: `127.0.0.2:${dns.resolver.port}`, address: '127.0.0.2', port: dns.resolver.port, transport: 'udp' })
    expect(d.chain).toEqual([])
    expect(d.canonical_name).toBe('infralens.test')
    expect(typeof d.latency_ms).toBe('number')
  })

  it('AAAA, MX, TXT, NS', async () => {
    expect((await data('/api/dns/aaaa/infralens.test')).records).toEqual([{ name: 'infralens.test', type: 'AAAA', ttl: 300, address: '2001:db8::10' }])
    const mx = await data('/api/dns/mx/infralens.test')
    expect(mx.records.map((r: { preference: number; exchange: string }) => [r.preference, r.exchange]).sort()).toEqual([
      [10, 'mx1.infralens.test'],
      [20, 'mx2.infralens.test'],
    ])
    const txt = await data('/api/dns/txt/infralens.test')
    const spf = txt.records.find((r: { text: string }) => r.text.startsWith('v=spf1'))
    // character-strings unquoted and joined with no separator (RFC 7208 §3.3)
    expect(spf.text).toBe('v=spf1 ip4:192.0.2.0/24 include:_spf.infralens.test -all')
    expect(spf.strings).toEqual(['v=spf1 ip4:192.0.2.0/24 ', 'include:_spf.infralens.test -all'])
    const ns = await data('/api/dns/ns/infralens.test')
    expect(ns.records.map((r: { target: string }) => r.target).sort()).toEqual(['ns1.infralens.test', 'ns2.infralens.test'])
  })

  it('follows and shows CNAME chains', async () => {
    const d = await data('/api/dns/a/www.infralens.test')
    expect(d.chain.map((r: { name: string; target: string }) => [r.name, r.target])).toEqual([
      ['www.infralens.test', 'web.infralens.test'],
      ['web.infralens.test', 'infralens.test'],
    ])
    expect(d.canonical_name).toBe('infralens.test')
    expect(d.records.length).toBe(2)
    const c = await data('/api/dns/cname/www.infralens.test')
    expect(c.records).toEqual([{ name: 'www.infralens.test', type: 'CNAME', ttl: 300, target: 'web.infralens.test' }])
  })

  it('NXDOMAIN and NODATA are 200 answers, told apart, with the negative TTL', async () => {
    const nx = await data('/api/dns/a/nope.infralens.test')
    expect(nx).toMatchObject({ rcode: 'NXDOMAIN', status: 'nxdomain', records: [], ttl: 120 })
    const nodata = await data('/api/dns/a/only-v6.infralens.test')
    expect(nodata).toMatchObject({ rcode: 'NOERROR', status: 'nodata', records: [], ttl: 120 })
  })

  it('normalizes the domain (case, trailing dot, URL) and caches on the normalized name', async () => {
    const first = await t.json('/api/dns/mx/https%3A%2F%2FInfraLens.TEST.%2Fpath')
    expect(first.body.data.domain).toBe('infralens.test')
    const second = await t.json('/api/dns/mx?domain=infralens.test')
    expect(second.body.meta.cache).toBe('hit')
    expect(second.headers.get('cache-control')).toMatch(/max-age=(\d+)/)
  })

  it('?domain= works on every record endpoint', async () => {
    for (const type of ['a', 'aaaa', 'mx', 'txt', 'ns', 'cname', 'lookup', 'propagation']) {
      const res = await t.json(`/api/dns/${type}?domain=infralens.test`)
      expect(res.status, type).toBe(200)
      expect(res.body.data.domain).toBe('infralens.test')
    }
  })

  it('cache TTL is the answer TTL, capped at 5 minutes', async () => {
    const res = await t.json('/api/dns/a/host.infralens.test')
    expect(res.headers.get('cache-control')).toBe('private, max-age=300')
    const nx = await t.json('/api/dns/aaaa/nope2.infralens.test')
    expect(nx.headers.get('cache-control')).toBe('private, max-age=120')
  })

  it('cache TTL follows a short positive TTL, and a long one is capped', async () => {
    const short = await t.json('/api/dns/a/short.ttl.test')
    expect(short.body.data).toMatchObject({ status: 'answer', ttl: 60, records: [{ address: '192.0.2.60', ttl: 60 }] })
    expect(short.headers.get('cache-control')).toBe('private, max-age=60')
    const long = await t.json('/api/dns/a/long.ttl.test')
    expect(long.body.data).toMatchObject({ status: 'answer', ttl: 86400, records: [{ address: '192.0.2.86', ttl: 86400 }] })
    expect(long.headers.get('cache-control')).toBe('private, max-age=300')
    // lookup: the smallest TTL over all its types
    expect((await t.json('/api/dns/lookup/short.ttl.test')).headers.get('cache-control')).toBe('private, max-age=60')
    expect((await t.json('/api/dns/lookup/long.ttl.test')).headers.get('cache-control')).toBe('private, max-age=300')
  })

  it('bad domains are 400 with a reason', async () => {
    for (const [input, reason] of [['a..b', /empty label/], ['1.2.3.4', /IP address/], ['-x.com', /hyphen/]] as const) {
      const res = await t.json(`/api/dns/a/${encodeURIComponent(input)}`)
      expect(res.status).toBe(400)
      expect(res.body.error.details.param).toBe('domain')
      expect(res.body.error.message).toMatch(reason)
    }
    const missing = await t.json('/api/dns/a')
    expect(missing.status).toBe(400)
    expect(missing.body.error.message).toBe('Missing required parameter "domain".')
  })

  it('sort, limit and csv work on records', async () => {
    const res = await t.json('/api/dns/txt/infralens.test?sort=text&fields=records.text')
    expect(res.body.data.records.map((r: { text: string }) => r.text)).toEqual(['google-site-verification=abc123', 'v=spf1 ip4:192.0.2.0/24 include:_spf.infralens.test -all'])
    const csv = await (await t.request('/api/dns/mx/infralens.test?format=csv&sort=preference&fields=records')).text()
    expect(csv.split('\r\n')[0]).toBe('records.name,records.type,records.ttl,records.preference,records.exchange')
    expect(csv).toContain('infralens.test,MX,300,10,mx1.infralens.test')
    // Without fields=, the answer's other values are on each record's row.
    const whole = (await (await t.request('/api/dns/mx/infralens.test?format=csv&sort=preference')).text()).split('\r\n')
    expect(whole[0]).toMatch(/^domain,type,rcode,status,records\.name,records\.type,records\.ttl,records\.preference,records\.exchange,/)
    expect(whole[1]).toMatch(/^infralens\.test,MX,NOERROR,answer,infralens\.test,MX,300,10,mx1\.infralens\.test,/)
  })
})

describe('authenticated: the resolver\'s AD flag', () => {
  it('queries carry AD, so a validating resolver\'s AD shows in record and lookup answers', async () => {
    dns.resolver.setValidating(true)
    const before = dns.resolver.log.length
    expect((await data('/api/dns/a/mx2.infralens.test')).authenticated).toBe(true)
    expect((await data('/api/dns/lookup/mx2.infralens.test')).authenticated).toBe(true)
    const asked = dns.resolver.log.slice(before)
    expect(asked).toHaveLength(1 + 8)
    // AD, not DO: answers stay free of signatures
    for (const q of asked) expect(q, q.type).toMatchObject({ ad: true, dnssecOk: false })
  })

  it('stays false when the resolver does not set AD', async () => {
    expect((await data('/api/dns/a/ns1.infralens.test')).authenticated).toBe(false)
    expect((await data('/api/dns/lookup/ns1.infralens.test')).authenticated).toBe(false)
  })
})

describe('lookup', () => {
  it('queries every type in parallel: eight delayed answers cost about one delay', async () => {
    const DELAY = 150
    dns.resolver.setFault({ kind: 'delay', ms: DELAY, name: 'ns2.infralens.test' })
    const before = dns.resolver.log.length
    const started = performance.now()
    const d = await data('/api/dns/lookup/ns2.infralens.test')
    const elapsed = performance.now() - started
    const asked = dns.resolver.log.slice(before)
    expect(asked.map((q) => q.fault)).toEqual(Array(8).fill('delay'))
    for (const status of Object.values(d.types).map((v) => (v as { status: string }).status)) expect(status).not.toBe('error')
    expect(elapsed).toBeGreaterThanOrEqual(DELAY)
    // one after another would take 8 x 150 ms; a generous bound well under that
    expect(elapsed).toBeLessThan(4 * DELAY)
  })

  it('queries every type', async () => {
    const before = dns.resolver.log.length
    const d = await data('/api/dns/lookup/host.infralens.test')
    const asked = dns.resolver.log.slice(before).filter((q) => q.name === 'host.infralens.test').map((q) => q.type)
    expect([...asked].sort()).toEqual(['A', 'AAAA', 'CAA', 'CNAME', 'MX', 'NS', 'SOA', 'TXT'])
    expect(d.records.map((r: { type: string; address: string }) => `${r.type} ${r.address}`).sort()).toEqual(['A 192.0.2.1', 'AAAA 2001:db8::1'])
  })

  it('answers every type in one envelope', async () => {
    const d = await data('/api/dns/lookup/infralens.test')
    expect(d.exists).toBe(true)
    expect(Object.keys(d.types).sort()).toEqual(['A', 'AAAA', 'CAA', 'CNAME', 'MX', 'NS', 'SOA', 'TXT'])
    expect(d.types.A).toMatchObject({ rcode: 'NOERROR', status: 'answer', count: 2 })
    expect(d.types.CNAME).toMatchObject({ status: 'nodata', count: 0 })
    const types = new Set(d.records.map((r: { type: string }) => r.type))
    expect([...types].sort()).toEqual(['A', 'AAAA', 'CAA', 'MX', 'NS', 'SOA', 'TXT'])
    const soa = d.records.find((r: { type: string }) => r.type === 'SOA')
    expect(soa).toMatchObject({ mname: 'ns1.infralens.test', serial: 2026112201, minimum: 120 })
    const caa = d.records.find((r: { type: string }) => r.type === 'CAA')
    expect(caa).toMatchObject({ flags: 0, tag: 'issue', value: 'letsencrypt.org', critical: false })
  })

  it('a name that does not exist', async () => {
    const d = await data('/api/dns/lookup/ghost.infralens.test')
    expect(d.exists).toBe(false)
    expect(d.rcode).toBe('NXDOMAIN')
    expect(d.records).toEqual([])
  })
})

describe('resolver faults', () => {
  it('a resolver that never answers: 502 upstream_error, reason timeout', async () => {
    dns.resolver.setFault({ kind: 'drop' })
    const res = await t.json('/api/dns/a/drop1.infralens.test')
    expect(res.status).toBe(502)
    expect(res.body.error).toMatchObject({ code: 'upstream_error', details: { upstream: 'dns', reason: 'timeout', name: 'drop1.infralens.test' } })
  })

  it('garbage and mismatched ids are ignored until the deadline, then 502', async () => {
    for (const kind of ['garbage', 'mismatched-id', 'wrong-question'] as const) {
      dns.resolver.setFault({ kind } as never)
      const res = await t.json(`/api/dns/a/${kind}.infralens.test`)
      expect(res.status, kind).toBe(502)
      expect(['timeout', 'bad_response']).toContain(res.body.error.details.reason)
    }
  })

  it('a mismatched id followed by the real answer is answered', async () => {
    dns.resolver.setFault({ kind: 'mismatched-id', thenAnswer: true } as never)
    const d = await data('/api/dns/a/liar.infralens.test')
    expect(d.records.map((r: { address: string }) => r.address)).toEqual(['192.0.2.99'])
  })

  it('truncation falls back to TCP', async () => {
    dns.resolver.setFault({ kind: 'truncate' })
    const d = await data('/api/dns/txt/host.infralens.test')
    expect(d.resolver.transport).toBe('tcp')
  })

  it('SERVFAIL is a 200 answer with a short cache; REFUSED is the resolver failing (502)', async () => {
    dns.resolver.setFault({ kind: 'servfail' })
    const sf = await t.json('/api/dns/a/sf.infralens.test')
    expect(sf.status).toBe(200)
    expect(sf.body.data).toMatchObject({ rcode: 'SERVFAIL', status: 'servfail', records: [] })
    expect(sf.headers.get('cache-control')).toBe('private, max-age=30')
    dns.resolver.setFault({ kind: 'refused' })
    const rf = await t.json('/api/dns/a/rf.infralens.test')
    expect(rf.status).toBe(502)
    expect(rf.body.error.details).toMatchObject({ upstream: 'dns', reason: 'refused', rcode: 'REFUSED' })
  })

  it('lookup degrades per type when some queries fail', async () => {
    // The first attempts of all 8 queries and the retries of the first two are dropped.
    dns.resolver.setFault({ kind: 'drop', name: 'mx1.infralens.test', times: 10 } as never)
    const res = await t.json('/api/dns/lookup/mx1.infralens.test')
    expect(res.status).toBe(200)
    const types = res.body.data.types
    expect(Object.entries(types).filter(([, v]) => (v as { status: string }).status === 'error').map(([k]) => k).sort()).toEqual(['A', 'AAAA'])
    expect(types.A.error).toMatch(/DNS lookup of mx1.infralens.test failed/)
    expect(types.MX).toMatchObject({ status: 'nodata' })
    // a degraded answer is cached briefly only
    expect(res.headers.get('cache-control')).toBe('private, max-age=30')
  })
})
