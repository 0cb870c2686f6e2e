import { describe, expect, it } from 'vitest'
import { generateKey, hashKey } from '../../plugins/auth/api-keys.ts'
import { startTestApp } from '../support/app.ts'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

describe('rate limits', () => {
  it('every endpoint response carries RateLimit-* headers that count down', async () => {
    const t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=5,free=10,pro=100' })
    try {
      const first = await t.request('/api/uuid')
      expect(first.headers.get('ratelimit-limit')).toBe('5')
      expect(first.headers.get('ratelimit-remaining')).toBe('4')
      expect(first.headers.get('ratelimit-policy')).toBe('5;w=60')
      const reset = Number(first.headers.get('ratelimit-reset'))
      expect(reset).toBeGreaterThan(0)
      expect(reset).toBeLessThanOrEqual(60)
      const second = await t.request('/api/test/failing/upstream')
      expect(second.status).toBe(502)
      expect(second.headers.get('ratelimit-remaining')).toBe('3')
    } finally {
      await t.close()
    }
  })

  it('beyond the limit: 429 rate_limited with Retry-After and the headers', async () => {
    const t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=3' })
    try {
      for (let i = 0; i < 3; i++) expect((await t.request('/api/uuid')).status).toBe(200)
      const res = await t.json('/api/uuid')
      expect(res.status).toBe(429)
      expect(res.body.error.code).toBe('rate_limited')
      expect(res.body.error.details).toMatchObject({ tier: 'anonymous', limit: 3, window_seconds: 60 })
      const retry = Number(res.headers.get('retry-after'))
      expect(retry).toBeGreaterThan(0)
      expect(retry).toBeLessThanOrEqual(60)
      expect(res.headers.get('ratelimit-remaining')).toBe('0')
      expect(res.headers.get('ratelimit-limit')).toBe('3')
      expect((await t.request('/api/uuid?format=yaml')).status).toBe(429)
    } finally {
      await t.close()
    }
  })

  it('is weighted by descriptor cost', async () => {
    const t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=60' })
    try {
      const res = await t.request('/api/test/expensive')
      expect(res.headers.get('ratelimit-remaining')).toBe('35')
      expect((await t.request('/api/test/expensive')).headers.get('ratelimit-remaining')).toBe('10')
      const refused = await t.json('/api/test/expensive')
      expect(refused.status).toBe(429)
      expect(refused.body.error.details.cost).toBe(25)
      // The refused call spent nothing: what is left still shows, and a cheap call fits.
      expect(refused.headers.get('ratelimit-remaining')).toBe('10')
      // A cheap call still fits in what is left.
      expect((await t.request('/api/uuid')).headers.get('ratelimit-remaining')).toBe('9')
    } finally {
      await t.close()
    }
  })

  it('cost 0 endpoints (health, usage) report without spending, and work when exhausted', async () => {
    const t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=2' })
    try {
      await t.request('/api/uuid')
      const usage = await t.json('/api/usage')
      expect(usage.body.data).toMatchObject({ tier: 'anonymous', limit: 2, remaining: 1, identified_by: 'ip' })
      expect(usage.headers.get('ratelimit-remaining')).toBe('1')
      await t.request('/api/uuid')
      expect((await t.request('/api/uuid')).status).toBe(429)
      expect((await t.request('/api/health')).status).toBe(200)
      expect((await t.json('/api/usage')).body.data.remaining).toBe(0)
    } finally {
      await t.close()
    }
  })

  it('401, 404, 405 and OPTIONS responses carry the RateLimit-* headers too', async () => {
    const t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=5' })
    try {
      const answers = {
        badKey: await t.request('/api/uuid', { headers: { 'x-api-key': generateKey() } }),
        unknownRoute: await t.request('/api/no/such/thing'),
        wrongMethod: await t.request('/api/uuid', { method: 'POST' }),
        preflight: await t.request('/api/uuid', { method: 'OPTIONS', headers: { origin: 'https://example.test' } }),
      }
      expect(Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, res.status]))).toEqual({ badKey: 401, unknownRoute: 404, wrongMethod: 405, preflight: 204 })
      for (const [name, res] of Object.entries(answers)) {
        expect(res.headers.get('ratelimit-limit'), name).toBe('5')
        expect(res.headers.get('ratelimit-policy'), name).toBe('5;w=60')
        expect(res.headers.get('ratelimit-remaining'), name).toMatch(/^\d+$/)
        const reset = Number(res.headers.get('ratelimit-reset'))
        expect(reset, name).toBeGreaterThan(0)
        expect(reset, name).toBeLessThanOrEqual(60)
      }
    } finally {
      await t.close()
    }
  })

  it('a bad API key counts against the caller IP; a flood of them ends in 429', async () => {
    const t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=3' })
    try {
      const badKey = { headers: { 'x-api-key': generateKey() } }
      const first = await t.json('/api/uuid', badKey)
      expect(first.status).toBe(401)
      expect(first.body.error.code).toBe('invalid_api_key')
      expect(first.headers.get('ratelimit-remaining')).toBe('2')
      // Malformed keys count the same way, also on cost-0 endpoints.
      const malformed = await t.request('/api/health', { headers: { 'x-api-key': 'nope' } })
      expect(malformed.status).toBe(401)
      expect(malformed.headers.get('ratelimit-remaining')).toBe('1')
      // The same budget as anonymous calls from that address.
      expect((await t.request('/api/uuid')).headers.get('ratelimit-remaining')).toBe('0')
      const flooded = await t.json('/api/uuid', badKey)
      expect(flooded.status).toBe(429)
      expect(flooded.body.error.code).toBe('rate_limited')
      expect(flooded.body.error.details).toMatchObject({ tier: 'anonymous', limit: 3, cost: 1 })
      expect(Number(flooded.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(flooded.headers.get('ratelimit-remaining')).toBe('0')
      expect((await t.request('/api/uuid')).status).toBe(429)
    } finally {
      await t.close()
    }
  })

  it('unknown routes, wrong methods and preflights report the anonymous state without spending it', async () => {
    const t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=5' })
    try {
      expect((await t.request('/api/uuid')).headers.get('ratelimit-remaining')).toBe('4')
      for (let i = 0; i < 3; i++) {
        expect((await t.request('/api/nope')).headers.get('ratelimit-remaining')).toBe('4')
        expect((await t.request('/api/uuid', { method: 'DELETE' })).headers.get('ratelimit-remaining')).toBe('4')
        expect((await t.request('/api/uuid', { method: 'OPTIONS' })).headers.get('ratelimit-remaining')).toBe('4')
      }
      // ...and when it is spent, they say so (still answering 404).
      for (let i = 0; i < 4; i++) await t.request('/api/uuid')
      const spent = await t.json('/api/nope')
      expect(spent.status).toBe(404)
      expect(spent.body.error.code).toBe('not_found')
      expect(spent.headers.get('ratelimit-remaining')).toBe('0')
    } finally {
      await t.close()
    }
  })

  it('keys are limited apart from anonymous callers and from each other', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'infralens-rl-'))
    const a = generateKey()
    const b = generateKey()
    await writeFile(join(dir, 'k.json'), JSON.stringify({ keys: [{ hash: hashKey(a), tier: 'free', label: 'a' }, { hash: hashKey(b), tier: 'free', label: 'b' }] }))
    const t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=1,free=2', INFRALENS_KEYS_FILE: join(dir, 'k.json') })
    try {
      expect((await t.request('/api/uuid')).status).toBe(200)
      expect((await t.request('/api/uuid')).status).toBe(429)
      const ka = { headers: { 'x-api-key': a } }
      const kb = { headers: { 'x-api-key': b } }
      expect((await t.request('/api/uuid', ka)).status).toBe(200)
      expect((await t.request('/api/uuid', ka)).status).toBe(200)
      expect((await t.request('/api/uuid', ka)).status).toBe(429)
      expect((await t.request('/api/uuid', kb)).headers.get('ratelimit-remaining')).toBe('1')
    } finally {
      await t.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
