import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { runArea } from '../../plugins/report/run-area.ts'
import cached from '../fixtures/registry/cached.ts'
import failing from '../fixtures/registry/failing.ts'
import slow from '../fixtures/registry/slow.ts'
import type { TestApp } from '../support/app.ts'
import { FIXTURE_REGISTRY, startTestApp } from '../support/app.ts'
import invoker from './invoke-registry/invoker.ts'

// One report area on the real ctx.invoke, with the fixture endpoints as its
// parts: its deadline, its statuses, what it records about each part.

let scenario: (ctx: ResolverContext) => Promise<Record<string, unknown>> = async () => ({})
const plugin = definePlugin({ name: 'test-run-area', setup: (api) => api.resolve(invoker, (_input, ctx) => scenario(ctx)) })

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' }, { registryDirs: [join(ROOT, 'registry'), FIXTURE_REGISTRY, join(ROOT, 'test', 'report', 'invoke-registry')], plugins: [plugin] })
})
afterAll(() => t?.close())

async function area(deadlineMs: number, work: Parameters<typeof runArea>[3]) {
  scenario = async (ctx) => ({ result: await runArea('web', ctx, performance.now() + deadlineMs, work) })
  const res = await t.json('/api/test/invoker')
  expect(res.status).toBe(200)
  return res.body.data.result
}

const answer = (summary: string) => ({ score: 100, grade: null, summary, findings: [] })

describe('runArea', () => {
  it('a part still running at the area deadline fails the area with code timeout, and its work is cancelled', async () => {
    const started = Date.now()
    const result = await area(150, async (ask) => answer(JSON.stringify(await ask(slow, { ms: '5000' }))))
    expect(result).toMatchObject({
      area: 'web',
      status: 'failed',
      score: null,
      error: { code: 'timeout', message: expect.stringMatching(/^No answer within the 1[45]\d ms this part of the report may take\.$/), upstream: null },
      sources: [{ endpoint: 'test.slow', url: '/api/test/slow?ms=5000', status: 'failed', cache: null, ttl: null, stale: false }],
    })
    expect(t.slowSignals.at(-1)!.aborted).toBe(true)
    expect(Date.now() - started).toBeLessThan(4000)
  })

  it('the parts of one area share its deadline: a later part gets what is left', async () => {
    const result = await area(400, async (ask) => {
      await ask(slow, { ms: '250' })
      await ask(slow, { ms: '250' })
      return answer('both')
    })
    expect(result.status).toBe('failed')
    expect(result.sources.map((s: { status: string }) => s.status)).toEqual(['ok', 'failed'])
  })

  it('answers: records each part with its cache state and freshness', async () => {
    const result = await area(5000, async (ask) => {
      await ask(cached, { key: 'area-k' })
      await ask(cached, { key: 'area-k' })
      return answer('fine')
    })
    expect(result).toMatchObject({ status: 'ok', score: 100, summary: 'fine', error: null, reason: null })
    expect(result.sources).toEqual([
      { endpoint: 'test.cached', url: '/api/test/cached/area-k', status: 'ok', cache: 'miss', ttl: 60, stale: false },
      { endpoint: 'test.cached', url: '/api/test/cached/area-k', status: 'ok', cache: 'hit', ttl: expect.any(Number), stale: false },
    ])
  })

  it('a part error is the area error: its code, message and upstream', async () => {
    const result = await area(5000, async (ask) => answer(JSON.stringify(await ask(failing, { kind: 'upstream' }))))
    expect(result).toMatchObject({ status: 'failed', error: { code: 'upstream_error', upstream: 'fake', message: 'The fake upstream did not answer in time.' } })
  })

  it('a bug in a part fails only that area, with a generic message, and is logged', async () => {
    const result = await area(5000, async (ask) => answer(JSON.stringify(await ask(failing, { kind: 'bug' }))))
    expect(result).toMatchObject({ status: 'failed', error: { code: 'internal_error', upstream: null } })
    expect(result.error.message).not.toContain('secret')
    expect(t.logs.some((l) => l.msg === 'report area failed unexpectedly' && l.area === 'web')).toBe(true)
  })

  it('an area that does not apply is skipped, with the reason', async () => {
    const result = await area(5000, async () => ({ skipped: 'no address' }))
    expect(result).toMatchObject({ status: 'skipped', reason: 'no address', score: null, error: null, sources: [] })
  })
})
