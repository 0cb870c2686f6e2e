import { join } from 'node:path'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { defineEndpoint } from '../../runtime/define-endpoint.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import cached from '../fixtures/registry/cached.ts'
import failing from '../fixtures/registry/failing.ts'
import slow from '../fixtures/registry/slow.ts'
import type { TestApp } from '../support/app.ts'
import { FIXTURE_REGISTRY, startTestApp } from '../support/app.ts'
import invoker from './invoke-registry/invoker.ts'

// ctx.invoke, generically: a fixture endpoint whose resolver runs what each test
// sets, invoking the fixture endpoints (test.cached counts its resolver runs,
// test.failing fails on demand, test.slow waits and honours its signal).

type Scenario = (ctx: ResolverContext) => Promise<Record<string, unknown>>
let scenario: Scenario = async () => ({})
const plugin = definePlugin({
  name: 'test-invoker',
  setup(api) {
    api.resolve(invoker, (_input, ctx) => scenario(ctx))
  },
})

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' }, { registryDirs: [join(ROOT, 'registry'), FIXTURE_REGISTRY, join(ROOT, 'test', 'report', 'invoke-registry')], plugins: [plugin] })
})
afterAll(() => t?.close())

async function run(next: Scenario) {
  scenario = next
  return t.json('/api/test/invoker')
}

/** The typed error an invoke threw, as the client would see it. */
const caught = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: { status?: number; code?: string; message: string; details?: Record<string, unknown> }) => ({ status: error.status, code: error.code, message: error.message, details: error.details }),
  )

describe('ctx.invoke', () => {
  it('answers through the target endpoint cache: a miss, then a hit with the same data, the resolver ran once', async () => {
    const res = await run(async (ctx) => {
      const first = await ctx.invoke(cached, { key: 'One' })
      const second = await ctx.invoke(cached, { key: 'one' })
      return { first, second }
    })
    expect(res.status).toBe(200)
    expect(res.body.data.first).toEqual({ data: { key: 'one', call: 1 }, cache: 'miss', ttl: 60 })
    expect(res.body.data.second).toMatchObject({ data: { key: 'one', call: 1 }, cache: 'hit' })
    expect(res.body.data.second.ttl).toBeGreaterThan(55)
    expect(res.body.data.second.ttl).toBeLessThanOrEqual(60)
    expect(t.calls.get('test.cached')).toBe(1)
  })

  it('shares cache entries with the target own route, both ways', async () => {
    await run(async (ctx) => ({ answer: await ctx.invoke(cached, { key: 'shared-a' }) }))
    const route = await t.json('/api/test/cached/shared-a')
    expect(route.body.meta.cache).toBe('hit')
    expect(route.body.data).toEqual({ key: 'shared-a', call: expect.any(Number) })

    const fromRoute = await t.json('/api/test/cached/shared-b')
    expect(fromRoute.body.meta.cache).toBe('miss')
    const res = await run(async (ctx) => ({ answer: await ctx.invoke(cached, { key: 'shared-b' }) }))
    expect(res.body.data.answer).toMatchObject({ cache: 'hit', data: fromRoute.body.data })
  })

  it('joins the route in-flight request for the same input instead of running the resolver again', async () => {
    const before = t.calls.get('test.cached') ?? 0
    const [route, res] = await Promise.all([
      t.json('/api/test/cached/flight?delay=200'),
      run(async (ctx) => ({ answer: await ctx.invoke(cached, { key: 'flight', delay: '200' }) })),
    ])
    expect(t.calls.get('test.cached')).toBe(before + 1)
    expect(res.body.data.answer.data).toEqual(route.body.data)
  })

  it('the target resolver lowerTtl caps the ttl, as on its own route', async () => {
    const res = await run(async (ctx) => ({ answer: await ctx.invoke(cached, { key: 'short', ttl: '5' }) }))
    expect(res.body.data.answer).toMatchObject({ cache: 'miss', ttl: 5 })
  })

  it('validates with the target params schema: bad input is a 400 InputError naming the parameter', async () => {
    const res = await run(async (ctx) => ({
      missing: await caught(ctx.invoke(cached, {})),
      invalid: await caught(ctx.invoke(failing, { kind: 'sideways' })),
    }))
    expect(res.body.data.missing).toMatchObject({ status: 400, code: 'bad_request', message: 'Missing required parameter "key".' })
    expect(res.body.data.invalid).toMatchObject({ status: 400, code: 'bad_request', details: { param: 'kind', value: 'sideways' } })
  })

  it('the target typed errors come through as thrown, and fail the invoking request when not caught', async () => {
    const res = await run(async (ctx) => ({
      upstream: await caught(ctx.invoke(failing, { kind: 'upstream' })),
      notFound: await caught(ctx.invoke(failing, { kind: 'notfound' })),
    }))
    expect(res.body.data.upstream).toMatchObject({ status: 502, code: 'upstream_error', details: { upstream: 'fake', reason: 'timeout' } })
    expect(res.body.data.notFound).toMatchObject({ status: 404, code: 'not_found', message: 'No such thing.' })

    const uncaught = await run(async (ctx) => ({ answer: await ctx.invoke(failing, { kind: 'upstream' }) }))
    expect(uncaught.status).toBe(502)
    expect(uncaught.body.error).toMatchObject({ code: 'upstream_error', message: 'The fake upstream did not answer in time.' })
  })

  it('timeoutMs: the invoked work is cancelled and the invoke fails with 504 timeout', async () => {
    const started = Date.now()
    const res = await run(async (ctx) => ({ timedOut: await caught(ctx.invoke(slow, { ms: '5000' }, { timeoutMs: 100 })) }))
    expect(res.body.data.timedOut).toMatchObject({ status: 504, code: 'timeout', details: { timeout_ms: 100 } })
    expect(t.slowSignals.at(-1)!.aborted).toBe(true)
    // Generous: the 5 s wait was cut short, not sat out.
    expect(Date.now() - started).toBeLessThan(4000)
  })

  it('options.signal cancels the invoked work; an endpoint that is never cached has ttl 0', async () => {
    const res = await run(async (ctx) => {
      const controller = new AbortController()
      setTimeout(() => controller.abort(), 50)
      return { answer: await ctx.invoke(slow, { ms: '5000' }, { signal: controller.signal }) }
    })
    expect(res.body.data.answer).toMatchObject({ data: { aborted: true }, cache: 'miss', ttl: 0 })
  })

  it('runs no auth or rate limit for the invoked parts: only the invoking endpoint cost is charged', async () => {
    const three: Scenario = async (ctx) => {
      for (const key of ['r1', 'r2', 'r3']) await ctx.invoke(cached, { key })
      return {}
    }
    const first = await run(three)
    const second = await run(three)
    const remaining = (r: { headers: Headers }) => Number(r.headers.get('ratelimit-remaining'))
    expect(remaining(first) - remaining(second)).toBe(invoker.cost)
  })

  it('a descriptor the service does not serve is a bug: the invoking request answers 500', async () => {
    const stranger = defineEndpoint({ name: 'test.stranger', tag: 'utilities', method: 'GET', path: '/api/test/stranger', summary: 'not registered', params: z.object({}), data: z.object({}), cache: false, cost: 1 })
    const res = await run(async (ctx) => ({ answer: await ctx.invoke(stranger, {}) }))
    expect(res.status).toBe(500)
    expect(res.body.error.code).toBe('internal_error')
  })

  it('stale-if-error: an expired entry stands in for a failing upstream, and says so', async () => {
    await run(async (ctx) => ({ answer: await ctx.invoke(cached, { key: 'stale', ttl: '1' }) }))
    await new Promise((r) => setTimeout(r, 1100))
    t.toggles.upstreamDown = true
    try {
      const res = await run(async (ctx) => ({ answer: await ctx.invoke(cached, { key: 'stale', ttl: '1' }) }))
      expect(res.body.data.answer).toMatchObject({
        data: { key: 'stale' },
        cache: 'hit',
        ttl: 0,
        stale: { reason: 'The fake upstream did not answer in time.', expired_at: expect.any(String) },
      })
    } finally {
      t.toggles.upstreamDown = false
    }
  })
})
