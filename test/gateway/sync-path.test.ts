import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// A request whose stages all have their answer at hand (a computed resolver, the
// memory rate limiter, a memory-cache hit) is answered without a promise: the
// app's fetch hands back the Response itself. That is what made the hot paths
// ~1/3 cheaper in instructions (bench/RESULTS.md); an async step or an await
// slipped back into any stage would turn these answers into promises.

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t.close())

const fetchNow = (path: string) => t.app.fetch(new Request(`http://127.0.0.1${path}`)) as Response | Promise<Response>
const pending = (value: unknown) => typeof (value as PromiseLike<unknown>).then === 'function'

describe('the synchronous path', () => {
  it('a computed answer comes back as a Response, not a promise, with the full envelope and headers', async () => {
    const answer = fetchNow('/api/uuid')
    expect(pending(answer)).toBe(false)
    const response = await answer
    expect(response.status).toBe(200)
    expect(response.headers.get('ratelimit-limit')).toBe('100000')
    expect(Number(response.headers.get('ratelimit-remaining'))).toBeLessThan(100000)
    const body = (await response.json()) as { data: { uuid: string; version: number }; meta: { tier: string } }
    expect(body.data.version).toBe(4)
    expect(body.data.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(body.meta.tier).toBe('anonymous')
  })

  it('a memory-cache hit too; the miss before it may wait for its resolver', async () => {
    await (await fetchNow('/api/test/cached/sync-path')).json()
    const hit = fetchNow('/api/test/cached/sync-path')
    expect(pending(hit)).toBe(false)
    const body = (await (await hit).json()) as { data: { key: string }; meta: { cache: string } }
    expect(body).toMatchObject({ data: { key: 'sync-path' }, meta: { cache: 'hit' } })
  })

  it('errors stay enveloped either way: a 400 from validation, a 429 from the limiter', async () => {
    const bad = await fetchNow('/api/uuid?version=5')
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('bad_request')
    const tight = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=1' })
    try {
      const fetchTight = (path: string) => tight.app.fetch(new Request(`http://127.0.0.1${path}`)) as Response | Promise<Response>
      expect((await fetchTight('/api/uuid')).status).toBe(200)
      const refused = await fetchTight('/api/uuid')
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).not.toBeNull()
      expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    } finally {
      await tight.close()
    }
  })
})
