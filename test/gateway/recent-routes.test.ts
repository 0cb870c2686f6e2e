import { H3 } from 'h3'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { RECENT_ROUTES, RECENT_ROUTE_PATH_CHARS, RecentRoutesH3 } from '../../runtime/recent-routes.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// The route table keeps the matches of recent GET paths with a parameter
// and of static GET paths (runtime/recent-routes.ts): the same path again skips
// rou3's split and tree walk (or its dictionary lookup). Shown by counting h3's own
// route lookups; each request still gets its own params, the catch-all (404) and
// other methods are never kept, and what is kept is bounded (oldest out first,
// short paths only).

afterEach(() => vi.restoreAllMocks())

/** An app with a parameter route that hands back (and then changes) its params, a static one and the catch-all. */
function sample(): RecentRoutesH3 {
  const app = new RecentRoutesH3({}, '/**')
  app.all('/api/thing/:name', (event) => {
    const seen = { ...event.context.params }
    // A handler that writes to its params must not change the next request's.
    event.context.params!.name = 'changed'
    return seen
  })
  app.all('/api/static', () => ({ static: true }))
  app.all('/**', (event) => new Response(`no ${event.url.pathname}`, { status: 404 }))
  return app
}

describe('recent route matches', () => {
  it('a parameter path is looked up once, and each request gets params of its own', async () => {
    const app = sample()
    const lookups = vi.spyOn(H3.prototype, '~findRoute')
    for (let i = 0; i < 3; i++) expect(await (await app.request('/api/thing/alpha')).json()).toEqual({ name: 'alpha' })
    expect(lookups).toHaveBeenCalledTimes(1)
    expect(await (await app.request('/api/thing/beta')).json()).toEqual({ name: 'beta' })
    expect(lookups).toHaveBeenCalledTimes(2)
    expect(app.recentPaths).toBe(2)
  })

  it('a static path is looked up once too', async () => {
    const app = sample()
    const lookups = vi.spyOn(H3.prototype, '~findRoute')
    for (let i = 0; i < 3; i++) expect(await (await app.request('/api/static')).json()).toEqual({ static: true })
    expect(lookups).toHaveBeenCalledTimes(1)
    expect(app.recentPaths).toBe(1)
    // Kept per path: the parameter route is a lookup of its own.
    expect(await (await app.request('/api/thing/delta')).json()).toEqual({ name: 'delta' })
    expect(lookups).toHaveBeenCalledTimes(2)
  })

  it('unknown paths and other methods are looked up every time and never kept', async () => {
    const app = sample()
    const lookups = vi.spyOn(H3.prototype, '~findRoute')
    for (let i = 0; i < 2; i++) {
      expect((await app.request('/nothing/here')).status).toBe(404)
      expect(await (await app.request('/api/thing/gamma', { method: 'POST' })).json()).toEqual({ name: 'gamma' })
      expect(await (await app.request('/api/static', { method: 'POST' })).json()).toEqual({ static: true })
    }
    expect(lookups).toHaveBeenCalledTimes(6)
    expect(app.recentPaths).toBe(0)
  })

  it('keeps at most RECENT_ROUTES paths (oldest out first) and none longer than RECENT_ROUTE_PATH_CHARS', async () => {
    const app = sample()
    for (let i = 0; i < RECENT_ROUTES + 10; i++) await app.request(`/api/thing/n${i}`)
    expect(app.recentPaths).toBe(RECENT_ROUTES)
    const lookups = vi.spyOn(H3.prototype, '~findRoute')
    // The newest are kept, the first ten are gone.
    await app.request(`/api/thing/n${RECENT_ROUTES + 9}`)
    expect(lookups).toHaveBeenCalledTimes(0)
    await app.request('/api/thing/n0')
    expect(lookups).toHaveBeenCalledTimes(1)
    const long = `/api/thing/${'x'.repeat(RECENT_ROUTE_PATH_CHARS)}`
    expect(await (await app.request(long)).json()).toEqual({ name: 'x'.repeat(RECENT_ROUTE_PATH_CHARS) })
    await app.request(long)
    expect(lookups).toHaveBeenCalledTimes(3)
  })
})

describe('in the service', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  })
  afterAll(() => t.close())

  it('answers a parameter route the same from a kept match, with its own path parameter each time', async () => {
    const lookups = vi.spyOn(H3.prototype, '~findRoute')
    const first = await t.json('/api/ip/192.0.2.44')
    const again = await t.json('/api/ip/192.0.2.44')
    const other = await t.json('/api/ip/198.51.100.7')
    expect(first.status).toBe(200)
    expect(again.body.data).toEqual(first.body.data)
    expect(first.body.data.ip).toBe('192.0.2.44')
    expect(other.body.data.ip).toBe('198.51.100.7')
    expect(lookups).toHaveBeenCalledTimes(2)
  })
})
