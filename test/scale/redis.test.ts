import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestRedis } from '../support/redis-server.ts'
import { redisAvailable, startTestRedis } from '../support/redis-server.ts'

// Several instances behind a load balancer share the cache and the rate-limit
// counters through Redis. Each test gets its own key prefix.

const available = redisAvailable()
if (!available) {
  if (process.env.CI) throw new Error('redis-server is required in CI (.ci/run installs it)')
  console.warn('\n*** test/scale/redis.test.ts SKIPPED: redis-server is not installed on this machine ***\n')
}

describe.runIf(available)('two instances on one Redis', () => {
  let redis: TestRedis
  beforeAll(async () => {
    redis = await startTestRedis()
  })
  afterAll(async () => {
    await redis.stop()
  })

  async function pair(limit: number): Promise<[TestApp, TestApp]> {
    const env = { REDIS_URL: redis.url, INFRALENS_REDIS_PREFIX: `t${randomUUID().slice(0, 8)}:`, INFRALENS_RATE_LIMITS: `anonymous=${limit}` }
    const a = await startTestApp(env)
    const b = await startTestApp(env)
    // both connected to Redis (and their data loaded) before the test counts anything
    await Promise.all([a.untilReady(), b.untilReady()])
    return [a, b]
  }

  it('1000 concurrent requests against a limit of 60 let exactly 60 through in total', async () => {
    const [a, b] = await pair(60)
    try {
      const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => (i % 2 ? a : b).request('/api/uuid').then((r) => r.status)))
      expect(results.filter((s) => s === 200)).toHaveLength(60)
      expect(results.filter((s) => s === 429)).toHaveLength(940)
      expect(results.filter((s) => s !== 200 && s !== 429)).toEqual([])
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('a value cached by one instance is a hit on the other', async () => {
    const [a, b] = await pair(100000)
    try {
      const first = await a.json('/api/test/cached/shared-key')
      expect(first.body.meta.cache).toBe('miss')
      const second = await b.json('/api/test/cached/shared-key')
      expect(second.body.meta.cache).toBe('hit')
      expect(second.body.data).toEqual(first.body.data)
      expect(a.calls.get('test.cached')).toBe(1)
      expect(b.calls.get('test.cached')).toBeUndefined()
      // the remaining TTL travels with the entry
      expect(Number(/max-age=(\d+)/.exec(second.headers.get('cache-control')!)![1])).toBeLessThanOrEqual(60)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('/api/ready reports Redis', async () => {
    const [a, b] = await pair(100000)
    try {
      const ready = await a.json('/api/ready')
      expect(ready.status).toBe(200)
      expect(ready.body.data.checks).toContainEqual(expect.objectContaining({ name: 'redis', ok: true }))
      expect(ready.body.data.checks.find((c: { name: string }) => c.name === 'redis').degraded).toBeUndefined()
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('Redis stopped mid-run: no 500s, degraded readiness, per-process limits; recovery after restart', async () => {
    const [a, b] = await pair(1000)
    try {
      await a.json('/api/test/cached/before-outage')
      await redis.stop()
      const during = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).request(i % 3 ? '/api/uuid' : `/api/test/cached/outage-${i % 7}`).then((r) => r.status)),
      )
      expect(during.filter((s) => s >= 500)).toEqual([])
      expect(during.every((s) => s === 200)).toBe(true)
      const ready = await a.json('/api/ready')
      expect(ready.status).toBe(200)
      expect(ready.body.data.checks.find((c: { name: string }) => c.name === 'redis').degraded).toMatch(/unavailable/)
      for (let i = 0; i < 50 && !a.logs.some((l) => String(l.msg).includes('redis unreachable')); i++) await new Promise((r) => setTimeout(r, 20))
      expect(a.logs.some((l) => String(l.msg).includes('redis unreachable'))).toBe(true)
      // the outage warning is logged once, not per request
      expect(a.logs.filter((l) => String(l.msg).includes('redis unreachable'))).toHaveLength(1)

      await redis.start()
      let recovered = false
      for (let i = 0; i < 100 && !recovered; i++) {
        await new Promise((r) => setTimeout(r, 50))
        const check = (await a.json('/api/ready')).body.data.checks.find((c: { name: string }) => c.name === 'redis')
        const checkB = (await b.json('/api/ready')).body.data.checks.find((c: { name: string }) => c.name === 'redis')
        recovered = !check.degraded && !checkB.degraded
      }
      expect(recovered).toBe(true)
      await a.json('/api/test/cached/after-outage')
      expect((await b.json('/api/test/cached/after-outage')).body.meta.cache).toBe('hit')
      expect(a.logs.some((l) => String(l.msg).includes('redis reachable again'))).toBe(true)
    } finally {
      await a.close()
      await b.close()
    }
  })
})
