import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

let t: TestApp
beforeEach(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterEach(() => t.close())

describe('cache', () => {
  it('the second identical call is a hit and does not run the resolver', async () => {
    const first = await t.json('/api/test/cached/abc')
    expect(first.body.meta.cache).toBe('miss')
    expect(first.body.data).toEqual({ key: 'abc', call: 1 })
    expect(first.headers.get('cache-control')).toBe('private, max-age=60')
    const second = await t.json('/api/test/cached/abc')
    expect(second.body.meta.cache).toBe('hit')
    expect(second.body.data).toEqual({ key: 'abc', call: 1 })
    expect(t.calls.get('test.cached')).toBe(1)
    const maxAge = Number(/max-age=(\d+)/.exec(second.headers.get('cache-control')!)![1])
    expect(maxAge).toBeGreaterThan(55)
    expect(maxAge).toBeLessThanOrEqual(60)
  })

  it('keys on normalized input: case-folded input, path or query alias, any format or shaping', async () => {
    await t.json('/api/test/cached/Key1')
    expect((await t.json('/api/test/cached/KEY1')).body.meta.cache).toBe('hit')
    expect((await t.json('/api/test/cached?key=key1')).body.meta.cache).toBe('hit')
    expect((await t.json('/api/test/cached/key1?fields=key&pretty=true')).body).toMatchObject({ data: { key: 'key1' }, meta: { cache: 'hit' } })
    const yaml = await t.request('/api/test/cached/key1?format=yaml')
    expect(await yaml.text()).toContain('cache: hit')
    expect(t.calls.get('test.cached')).toBe(1)
    expect((await t.json('/api/test/cached/key2')).body.meta.cache).toBe('miss')
    expect(t.calls.get('test.cached')).toBe(2)
  })

  it('N identical concurrent misses make one resolver call', async () => {
    const results = await Promise.all(Array.from({ length: 25 }, () => t.json('/api/test/cached/burst?delay=50')))
    expect(t.calls.get('test.cached')).toBe(1)
    for (const r of results) expect(r.body.data).toEqual({ key: 'burst', call: 1 })
    expect(new Set(results.map((r) => r.body.request_id)).size).toBe(25)
  })

  it('different inputs in flight are not merged', async () => {
    await Promise.all([t.json('/api/test/cached/a?delay=20'), t.json('/api/test/cached/b?delay=20')])
    expect(t.calls.get('test.cached')).toBe(2)
  })

  it('a resolver can lower the TTL, never raise it', async () => {
    const low = await t.json('/api/test/cached/short?ttl=5')
    expect(low.headers.get('cache-control')).toBe('private, max-age=5')
    const high = await t.json('/api/test/cached/long?ttl=600')
    expect(high.headers.get('cache-control')).toBe('private, max-age=60')
  })

  it('TTL 0 from the resolver means not cached', async () => {
    const a = await t.json('/api/test/cached/zero?ttl=0')
    expect(a.headers.get('cache-control')).toBe('no-store')
    await t.json('/api/test/cached/zero?ttl=0')
    expect(t.calls.get('test.cached')).toBe(2)
  })

  it('expired entries are resolved again', async () => {
    await t.json('/api/test/cached/exp?ttl=1')
    await new Promise((r) => setTimeout(r, 1100))
    expect((await t.json('/api/test/cached/exp?ttl=1')).body.meta.cache).toBe('miss')
    expect(t.calls.get('test.cached')).toBe(2)
  })

  it('errors are not cached', async () => {
    await t.json('/api/test/failing/upstream')
    await t.json('/api/test/failing/upstream')
    expect(t.calls.get('test.failing')).toBe(2)
  })

  it('a cacheable answer varies on Origin: its CORS headers come only with one, so a copy fetched without must not answer a browser', async () => {
    const plain = await t.request('/api/test/cached/cors-vary')
    const browser = await t.request('/api/test/cached/cors-vary', { headers: { origin: 'https://app.example' } })
    expect(plain.headers.get('access-control-allow-origin')).toBeNull()
    expect(browser.headers.get('access-control-allow-origin')).toBe('*')
    for (const res of [plain, browser]) {
      expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
      expect(res.headers.get('vary')?.split(/\s*,\s*/)).toContain('Origin')
    }
    // An answer no cache keeps needs no Vary.
    expect((await t.request('/api/uuid', { headers: { origin: 'https://app.example' } })).headers.get('vary')).toBeNull()
  })

  it('uncached endpoints say miss and no-store', async () => {
    const res = await t.json('/api/uuid')
    expect(res.body.meta.cache).toBe('miss')
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('stale-if-error: an expired entry answers, marked, when the upstream fails', async () => {
    await t.json('/api/test/cached/stale?ttl=1')
    await new Promise((r) => setTimeout(r, 1100))
    t.toggles.upstreamDown = true
    const res = await t.json('/api/test/cached/stale?ttl=1')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ key: 'stale', call: 1 })
    expect(res.body.meta.cache).toBe('hit')
    expect(res.body.meta.stale).toEqual({ reason: 'The fake upstream did not answer in time.', expired_at: expect.any(String) })
    expect(res.headers.get('cache-control')).toBe('private, max-age=0, must-revalidate')
    // never seen before: nothing stale to give, so the 502 stands
    expect((await t.json('/api/test/cached/never-seen')).status).toBe(502)
    t.toggles.upstreamDown = false
    const fresh = await t.json('/api/test/cached/stale?ttl=1')
    expect(fresh.body.meta).not.toHaveProperty('stale')
    expect(fresh.body.data.call).toBe(4) // 1 first, 2 failed, 3 never-seen, 4 now
  })

  it('stale-if-error can be turned off', async () => {
    const off = await startTestApp({ INFRALENS_STALE_IF_ERROR_S: '0' })
    try {
      await off.json('/api/test/cached/x?ttl=1')
      await new Promise((r) => setTimeout(r, 1100))
      off.toggles.upstreamDown = true
      expect((await off.json('/api/test/cached/x?ttl=1')).status).toBe(502)
    } finally {
      await off.close()
    }
  })
})
