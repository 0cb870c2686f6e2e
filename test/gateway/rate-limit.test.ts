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
