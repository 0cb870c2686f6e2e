import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

describe('success envelope', () => {
  it('has exactly the contract fields, in order, and the request id in X-Request-Id', async () => {
    const { status, headers, body } = await t.json('/api/uuid')
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['success', 'data', 'meta', 'links', 'timestamp', 'request_id'])
    expect(body.success).toBe(true)
    expect(body.meta).toEqual({ cache: 'miss', category: 'utilities', endpoint: 'utilities.uuid', tier: 'anonymous' })
    expect(body.links).toEqual({ self: '/api/uuid' })
    expect(body.request_id).toMatch(ULID)
    expect(headers.get('x-request-id')).toBe(body.request_id)
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp)
    expect(headers.get('content-type')).toMatch(/^application\/json/)
  })

  it('links.self keeps the query string', async () => {
    const { body } = await t.json('/api/uuid/bulk?count=2&version=7')
    expect(body.links.self).toBe('/api/uuid/bulk?count=2&version=7')
  })

  it('request ids are unique and increase', async () => {
    const ids: string[] = []
    for (let i = 0; i < 20; i++) ids.push((await t.json('/api/ulid')).body.request_id as string)
    expect(new Set(ids).size).toBe(20)
    expect([...ids].sort()).toEqual(ids)
  })
})

describe('error envelope', () => {
  it('unknown route is 404 not_found with only the error fields', async () => {
    const { status, headers, body } = await t.json('/api/does-not-exist')
    expect(status).toBe(404)
    expect(Object.keys(body)).toEqual(['success', 'error', 'request_id', 'timestamp'])
    expect(body.success).toBe(false)
    expect(body.error.code).toBe('not_found')
    expect(body.error.message).toContain('/api/does-not-exist')
    expect(body.error.details).toEqual({ path: '/api/does-not-exist' })
    expect(body.request_id).toMatch(ULID)
    expect(headers.get('x-request-id')).toBe(body.request_id)
    expect(body).not.toHaveProperty('data')
    expect(body).not.toHaveProperty('meta')
  })

  it('paths outside /api are 404 too', async () => {
    expect((await t.json('/')).body.error.code).toBe('not_found')
  })

  it('wrong method is 405 method_not_allowed with Allow', async () => {
    const res = await t.json('/api/uuid', { method: 'DELETE' })
    expect(res.status).toBe(405)
    expect(res.body.error.code).toBe('method_not_allowed')
    expect(res.body.error.details.allowed).toEqual(['GET'])
    expect(res.headers.get('allow')).toBe('GET')
    const post = await t.json('/api/test/echo')
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('POST')
  })

  it('an uncaught bug is 500 internal_error, message hidden, logged with the request id', async () => {
    const { status, body } = await t.json('/api/test/failing/bug')
    expect(status).toBe(500)
    expect(body.error.code).toBe('internal_error')
    expect(JSON.stringify(body)).not.toContain('secret internal detail')
    const entry = t.logs.find((l) => l.request_id === body.request_id)
    expect(entry).toBeDefined()
    expect(entry!.level).toBe(50)
    expect(JSON.stringify(entry)).toContain('secret internal detail')
  })

  it('typed errors map to their status and code', async () => {
    const up = await t.json('/api/test/failing/upstream')
    expect(up.status).toBe(502)
    expect(up.body.error).toMatchObject({ code: 'upstream_error', details: { upstream: 'fake', reason: 'timeout' } })
    const nf = await t.json('/api/test/failing/notfound')
    expect(nf.status).toBe(404)
    expect(nf.body.error.code).toBe('not_found')
    const bad = await t.json('/api/test/failing/input')
    expect(bad.status).toBe(400)
    expect(bad.body.error).toEqual({ code: 'bad_request', message: 'Bad thing.', details: { param: 'kind' } })
  })

  it('invalid path input is 400 naming the parameter', async () => {
    const { status, body } = await t.json('/api/test/failing/whatever')
    expect(status).toBe(400)
    expect(body.error.code).toBe('bad_request')
    expect(body.error.details.param).toBe('kind')
    expect(body.error.message).toContain('kind')
  })

  it('a missing required query parameter says so', async () => {
    const { status, body } = await t.json('/api/hash/sha256')
    expect(status).toBe(400)
    expect(body.error.message).toBe('Missing required parameter "input".')
    expect(body.error.details.param).toBe('input')
  })

  it('malformed percent-encoding is a 400 envelope', async () => {
    const res = await t.json('/api/hash/%ZZ?input=a')
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('bad_request')
    expect(res.body.request_id).toMatch(ULID)
  })

  it('errors are never cached by clients', async () => {
    const res = await t.request('/api/test/failing/upstream')
    expect(res.headers.get('cache-control')).toBe('no-store')
  })
})

describe('HTTP niceties', () => {
  it('HEAD answers headers without a body', async () => {
    const res = await t.request('/api/uuid', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toMatch(ULID)
    expect(await res.text()).toBe('')
  })

  it('OPTIONS is a CORS preflight', async () => {
    const res = await t.request('/api/uuid', { method: 'OPTIONS' })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')).toContain('x-api-key')
    expect(res.headers.get('allow')).toContain('GET')
  })

  it('browser requests (with Origin) get CORS headers exposing rate-limit and request-id headers', async () => {
    for (const path of ['/api/uuid', '/api/nope', '/api/test/failing/upstream']) {
      const res = await t.request(path, { headers: { origin: 'https://app.example' } })
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*')
      expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining')
      expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id')
    }
  })

  it('other clients do not pay for CORS headers', async () => {
    const res = await t.request('/api/uuid')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('x-request-id')).toMatch(ULID)
  })
})
