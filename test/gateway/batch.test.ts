import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateKey, hashKey } from '../../plugins/auth/api-keys.ts'
import { ConfigError, loadConfig } from '../../runtime/config.ts'
import { listen } from '../../runtime/server.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// POST /api/batch: many GET calls in one request. Every item's answer is held to
// the same call made on its own (the oracle: the single route, its validation,
// shaping and errors); the fixture endpoints (test/fixtures/registry) count their
// resolver runs (cache, coalescing), sleep on demand (bounds, deadline) and cost
// 25 units (the price). Addresses are documentation ranges; nothing connects.

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_BATCH_LIMITS: 'anonymous=100' })
})
afterAll(() => t.close())

type Result = Record<string, any>
const batch = (app: TestApp, items: unknown[], query = '', headers: Record<string, string> = {}) =>
  app.request(`/api/batch${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(items) })
const batchData = async (items: unknown[], query = '') => {
  const res = await batch(t, items, query)
  const text = await res.text()
  expect(res.status, text.slice(0, 500)).toBe(200)
  return JSON.parse(text).data as { count: number; succeeded: number; failed: number; cost: number; results: Result[] }
}
const calls = (name: string) => t.calls.get(name) ?? 0

describe('each item answers as the single call would', () => {
  it('data, errors and paging equal the single routes\' for paths and {endpoint, params}', async () => {
    const paths = [
      '/api/ip/192.0.2.1?fields=ip,classification.class,bogon.bogon',
      '/api/ip/192.0.2.300',
      '/api/cidr/analyze/198.51.100.0%2F24?fields=network,prefix_length',
      '/api/test/items?sort=id&order=desc&limit=2&offset=1',
      '/api/test/items?fields=nope',
      '/api/test/failing/notfound',
      '/api/test/failing/upstream',
      '/api/ip?ip=2001:db8::1&fields=ip',
    ]
    const data = await batchData(paths)
    let ok = 0
    for (const [i, path] of paths.entries()) {
      const single = await t.json(path)
      if (single.status === 200) ok++
      const item = data.results[i]!
      expect(item.index).toBe(i)
      expect(item.status, path).toBe(single.status)
      if (single.status === 200) {
        expect(item.data, path).toEqual(single.body.data)
        expect(item.endpoint).toBe(single.body.meta.endpoint)
        expect(item.pagination).toEqual(single.body.meta.pagination)
      } else {
        expect(item.error, path).toEqual(single.body.error)
      }
    }
    expect(data).toMatchObject({ count: paths.length, succeeded: ok, failed: paths.length - ok })
    expect(data.results.map((r) => r.status)).toEqual([200, 400, 200, 200, 400, 404, 502, 200])
    expect(data.results[3]!.pagination).toMatchObject({ total: 4, limit: 2, offset: 1 })
    // The object form is the same call.
    const objects = await batchData([
      { endpoint: 'network.ip', params: { ip: '192.0.2.1', fields: 'ip,classification.class,bogon.bogon' } },
      { endpoint: 'test.items', params: { sort: 'id', order: 'desc', limit: 2, offset: 1 } },
    ])
    expect(objects.results.map((r) => r.data)).toEqual([data.results[0]!.data, data.results[3]!.data])
  })

  it('makes each malformed item its own error, naming what to fix', async () => {
    const data = await batchData([
      5,
      null,
      ['/api/uuid'],
      'api/uuid',
      '//evil.example/api/uuid',
      '/api/nowhere',
      { endpoint: 'no.such' },
      { endpoint: 'network.ip', params: { ip: '192.0.2.1', colour: 'red' } },
      { endpoint: 'network.ip', params: { ip: { nested: true } } },
      { endpoint: 'network.ip', extra: 1 },
      '/api/uuid?format=csv',
      '/api/uuid',
    ])
    const [number, nul, array, relative, otherHost, unknownPath, unknownName, unknownParam, nestedParam, extraKey, format, fine] = data.results
    expect(number!.error).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^Request 0 must be a path string or .*got a number/) })
    expect(nul!.error.message).toMatch(/got null/)
    expect(array!.error.message).toMatch(/got an array/)
    expect(relative!.error.message).toMatch(/must be a path starting with "\/api\/"/)
    expect(otherHost!.status).toBe(400)
    expect(unknownPath).toMatchObject({ status: 404, endpoint: null, error: { code: 'not_found', details: { path: '/api/nowhere', index: 5 } } })
    expect(unknownName).toMatchObject({ status: 404, error: { message: expect.stringMatching(/No endpoint named "no.such"/) } })
    expect(unknownParam).toMatchObject({ status: 400, endpoint: 'network.ip', error: { details: { param: 'colour' }, message: expect.stringMatching(/its parameters: ip/) } })
    expect(nestedParam!.error.message).toMatch(/must be a string, number or boolean/)
    expect(extraKey!.error.message).toMatch(/"extra" is not one of its fields/)
    expect(format).toMatchObject({ status: 400, error: { details: { param: 'format' }, message: expect.stringMatching(/applies to the whole batch/) } })
    expect(fine).toMatchObject({ status: 200, endpoint: 'utilities.uuid' })
    expect(data).toMatchObject({ count: 12, succeeded: 1, failed: 11 })
  })
})

describe('a malformed batch is a 400 naming the position; too many items a 413 naming the limit', () => {
  it('refuses what is not a list, an empty list, broken JSON, and items no batch may hold', async () => {
    for (const body of ['{"items": ["/api/uuid"]}', '"/api/uuid"', '{"requests": "/api/uuid"}']) {
      const res = await t.request('/api/batch', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      expect(res.status, body).toBe(400)
      expect((await res.json()).error.message).toMatch(/expected a JSON array of requests/)
    }
    expect((await (await batch(t, [])).json()).error.message).toMatch(/the batch is empty/)
    // {"requests": [...]} is the same batch as the bare array.
    const wrapped = await t.request('/api/batch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"requests": ["/api/ip/192.0.2.1?fields=ip"]}' })
    expect((await wrapped.json()).data.results[0]).toMatchObject({ status: 200, data: { ip: '192.0.2.1' } })
    const broken = await t.request('/api/batch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '["/api/uuid",\n "/api/uuid" x]' })
    expect((await broken.json()).error.details).toMatchObject({ line: 2, column: 14 })
    const post = await (await batch(t, ['/api/uuid', '/api/ip/bulk'])).json()
    expect(post.error).toMatchObject({ code: 'bad_request', details: { index: 1, endpoint: 'network.ip-bulk' } })
    expect(post.error.message).toMatch(/^Request 1 of the batch .*GET requests only/)
    const nested = await (await batch(t, [{ endpoint: 'meta.batch' }])).json()
    expect(nested.error.message).toMatch(/batches do not nest/)
    const offloaded = await (await batch(t, ['/api/cidr/expand/192.0.2.0%2F30'])).json()
    expect(offloaded.error.message).toMatch(/CPU pool/)
  })

  it('takes INFRALENS_BATCH_LIMITS items per tier and answers 413 past it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'infralens-batch-'))
    const pro = generateKey()
    await writeFile(join(dir, 'keys.json'), JSON.stringify({ keys: [{ hash: hashKey(pro), tier: 'pro', label: 'p' }] }))
    const limited = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=1000,pro=1000', INFRALENS_BATCH_LIMITS: 'anonymous=3', INFRALENS_KEYS_FILE: join(dir, 'keys.json') })
    try {
      expect((await batch(limited, Array(3).fill('/api/uuid'))).status).toBe(200)
      const res = await batch(limited, Array(4).fill('/api/uuid'))
      const body = await res.json()
      expect(res.status).toBe(413)
      expect(body.error).toMatchObject({ code: 'payload_too_large', details: { max_items: 3, items: 4, tier: 'anonymous' } })
      expect(body.error.message).toMatch(/at most 3 per batch \(INFRALENS_BATCH_LIMITS\)/)
      // pro, left out of the setting, keeps its default of 1,000.
      const keyed = await batch(limited, Array(50).fill('/api/uuid'), '', { 'x-api-key': pro })
      expect(keyed.status).toBe(200)
      expect((await keyed.json()).data.count).toBe(50)
    } finally {
      await limited.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('reads INFRALENS_BATCH_LIMITS next to any INFRALENS_RATE_LIMITS', () => {
    const base = { INFRALENS_VRP_URL: '/nonexistent' }
    // Only anonymous: fine (the defaults' free and pro have no tier to apply to).
    expect(loadConfig({ ...base, INFRALENS_RATE_LIMITS: 'anonymous=5' }).batchLimits).toEqual(Object.assign(Object.create(null), { anonymous: 20 }))
    expect({ ...loadConfig(base).batchLimits }).toEqual({ anonymous: 20, free: 100, pro: 1000 })
    expect({ ...loadConfig({ ...base, INFRALENS_RATE_LIMITS: 'anonymous=5,gold=9', INFRALENS_BATCH_LIMITS: 'anonymous=7' }).batchLimits }).toEqual({ anonymous: 7, gold: 7 })
    expect(() => loadConfig({ ...base, INFRALENS_RATE_LIMITS: 'anonymous=5', INFRALENS_BATCH_LIMITS: 'anonymous=5,pro=50' })).toThrow(/INFRALENS_BATCH_LIMITS: tier\(s\) pro not in INFRALENS_RATE_LIMITS/)
    expect(() => loadConfig({ ...base, INFRALENS_BATCH_LIMITS: 'anonymous=0' })).toThrow(ConfigError)
    expect(() => loadConfig({ ...base, INFRALENS_BATCH_LIMITS: 'anonymous=10001' })).toThrow(/from 1 to 10000/)
  })
})

describe('cache, coalescing, bounds and the deadline', () => {
  it('answers a repeated item from the cache and runs identical concurrent items once', async () => {
    const before = calls('test.cached')
    const first = await batchData(['/api/test/cached/batch-a?delay=150', '/api/test/cached/batch-a?delay=150', '/api/test/cached/BATCH-A?delay=150'])
    expect(calls('test.cached')).toBe(before + 1)
    expect(first.results.map((r) => r.data.call)).toEqual([before + 1, before + 1, before + 1])
    const second = await batchData(['/api/test/cached/batch-a?delay=150', '/api/test/cached/batch-b'])
    expect(second.results.map((r) => r.cache)).toEqual(['hit', 'miss'])
    expect(calls('test.cached')).toBe(before + 2)
    // The batch shares the cache with single calls.
    expect((await t.json('/api/test/cached/batch-b')).body.meta.cache).toBe('hit')
  })

  it('runs at most 16 requests at once, and at most 4 on one target', async () => {
    // 32 distinct 300 ms requests with no upstream target: two waves of 16.
    let started = performance.now()
    const wide = await batchData(Array.from({ length: 32 }, (_, i) => `/api/test/cached/wave-${i}?delay=300`))
    const wideMs = performance.now() - started
    expect(wide.succeeded).toBe(32)
    expect(wideMs).toBeGreaterThanOrEqual(590)
    // 8 requests on one upstream target (test.slow): two waves of 4.
    started = performance.now()
    const narrow = await batchData(Array(8).fill('/api/test/slow?ms=300'))
    const narrowMs = performance.now() - started
    expect(narrow.results.every((r) => r.status === 200 && r.data.aborted === false)).toBe(true)
    expect(narrowMs).toBeGreaterThanOrEqual(590)
    // Not one at a time either (8 x 300 ms), even on a loaded machine.
    expect(narrowMs).toBeLessThan(2400)
  })

  it('answers 504 for what the deadline cut, and cancels it', async () => {
    const quick = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=1000', INFRALENS_REQUEST_TIMEOUT_MS: '400' })
    try {
      const signalsBefore = quick.slowSignals.length
      const started = performance.now()
      const res = await batch(quick, ['/api/test/slow?ms=5000', '/api/uuid', ...Array(6).fill('/api/test/slow?ms=5000')])
      const elapsed = performance.now() - started
      const data = (await res.json()).data
      expect(res.status).toBe(200)
      expect(elapsed).toBeLessThan(3000)
      expect(data.results[1]).toMatchObject({ status: 200, endpoint: 'utilities.uuid' })
      const cut = data.results.filter((r: Result) => r.index !== 1)
      expect(cut).toHaveLength(7)
      for (const r of cut) expect(r).toMatchObject({ status: 504, error: { code: 'timeout' } })
      // The 4 that had started were told to stop; the other 3 never started.
      const signals = quick.slowSignals.slice(signalsBefore)
      expect(signals).toHaveLength(4)
      expect(signals.every((s) => s.aborted)).toBe(true)
    } finally {
      await quick.close()
    }
  })
})

describe('the rate limit is charged the items\' costs before anything runs', () => {
  let limited: TestApp
  beforeAll(async () => {
    limited = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=30' })
  })
  afterAll(() => limited.close())

  it('charges the sum, and a 429 names the cost and the remaining budget without running any item', async () => {
    const ok = await batch(limited, ['/api/test/expensive', '/api/uuid', '/api/nowhere'])
    expect(ok.status).toBe(200)
    expect((await ok.json()).data.cost).toBe(26)
    expect(ok.headers.get('ratelimit-remaining')).toBe('4')
    const before = limited.calls.get('test.cached') ?? 0
    const refused = await batch(limited, ['/api/test/cached/never-run', '/api/test/expensive'])
    const body = await refused.json()
    expect(refused.status).toBe(429)
    expect(body.error.details).toMatchObject({ cost: 26, remaining: 4, limit: 30 })
    expect(body.error.message).toMatch(/costs 26 units and 4 units of 30 are left/)
    expect(limited.calls.get('test.cached') ?? 0).toBe(before)
    // Refused units were given back.
    const rest = await batch(limited, Array(4).fill('/api/uuid'))
    expect(rest.headers.get('ratelimit-remaining')).toBe('0')
  })
})

describe('formats and NDJSON', () => {
  it('streams one line per item as each finishes, and format=csv gives one row per item', async () => {
    const res = await batch(t, ['/api/test/slow?ms=400', '/api/ip/192.0.2.1?fields=ip', '/api/nowhere'], '', { accept: 'application/x-ndjson' })
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    const lines = (await res.text()).trimEnd().split('\n').map((l) => JSON.parse(l) as Result)
    // The slow one finishes last.
    expect(lines.map((l) => l.index)).toEqual([2, 1, 0])
    expect(lines[1]).toMatchObject({ status: 200, data: { ip: '192.0.2.1' } })
    expect(lines[2]).toMatchObject({ status: 200, endpoint: 'test.slow' })

    const csv = await batch(t, ['/api/ip/192.0.2.1?fields=ip', '/api/ip/192.0.2.300'], '?format=csv&fields=results.index,results.status,results.data.ip,results.error.code')
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    expect((await csv.text()).trimEnd().split(/\r?\n/)).toEqual(['results.index,results.status,results.data.ip,results.error.code', '0,200,192.0.2.1,', '1,400,,bad_request'])
  })

  it('works over a real socket, NDJSON included', async () => {
    const server: Server = await listen(t, { port: 0, host: '127.0.0.1' })
    try {
      const base = server.url!.replace(/\/$/, '')
      const res = await fetch(`${base}/api/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
        body: JSON.stringify(['/api/ip/198.51.100.1?fields=ip', '/api/uuid']),
      })
      const lines = (await res.text()).trimEnd().split('\n').map((l) => JSON.parse(l) as Result)
      expect(lines.map((l) => l.index).sort()).toEqual([0, 1])
      expect(lines.find((l) => l.index === 0)!.data).toEqual({ ip: '198.51.100.1' })
    } finally {
      await server.close(true)
    }
  })
})
