import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateKey, hashKey } from '../../plugins/auth/api-keys.ts'
import { defineFixedClock } from '../../runtime/clock.ts'
import { noneMatch, weakTag } from '../../runtime/http/entity-tag.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// ETag and If-None-Match (runtime/http/entity-tag.ts): a weak tag over what an
// enveloped answer says (data, request target, tier), strong tags over the bytes
// of envelope-less documents, 304 with no body when the client's copy is current.

const clock = defineFixedClock('2030-01-01T00:00:00Z')
const proKey = generateKey()
let dir: string
let t: TestApp
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'infralens-etag-'))
  const keysFile = join(dir, 'keys.json')
  await writeFile(keysFile, JSON.stringify({ keys: [{ hash: hashKey(proKey), tier: 'pro', label: 'etag', created: '2026-01-01T00:00:00Z' }] }))
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000000,pro=100000000', INFRALENS_KEYS_FILE: keysFile }, { clock })
})
afterAll(async () => {
  await t.close()
  await rm(dir, { recursive: true, force: true })
})

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => t.request(path, { method, headers })

describe('If-None-Match matching', () => {
  it.each([
    [null, false],
    ['*', true],
    [' * ', true],
    ['W/"abc"', true],
    ['"abc"', true],
    ['"x", W/"abc", "y"', true],
    ['"x","abc"', true],
    ['"abcd"', false],
    ['"x", "y"', false],
    ['abc', false],
    ['', false],
  ])('%j against W/"abc" -> %s', (header, match) => {
    expect(noneMatch(header, 'W/"abc"')).toBe(match)
  })

  it('weak comparison both ways: a strong tag matches its weak form', () => {
    expect(noneMatch('W/"abc"', '"abc"')).toBe(true)
    expect(noneMatch('"abc-gzip"', '"abc"')).toBe(false)
  })
})

describe('weak tags kept per data object', () => {
  it('a kept tag is the one a fresh object with the same data gets, for every tier and target, past the bound on kept tags too', () => {
    const data = { records: [{ address: '192.0.2.1' }], ttl: 300 }
    const tiers = ['anonymous', 'pro', 'enterprise']
    const targets = Array.from({ length: 40 }, (_, i) => `/api/dns/a/host${i}.example?format=${i % 2 ? 'csv' : 'json'}`)
    const seen = new Set<string>()
    for (let round = 0; round < 2; round++) {
      for (const tier of tiers) {
        for (const target of targets) {
          const tag = weakTag(data, tier, target)!
          expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/)
          expect(weakTag(structuredClone(data), tier, target)).toBe(tag)
          if (round === 0) seen.add(tag)
        }
      }
    }
    // Every (tier, target) its own tag.
    expect(seen.size).toBe(tiers.length * targets.length)
    expect(weakTag(data, 'pro', 'x')).not.toBe(weakTag({ ...data, ttl: 301 }, 'pro', 'x'))
  })
})

describe('enveloped answers of cached endpoints', () => {
  it('one weak tag for the same data, though request_id, timestamp and meta.cache differ', async () => {
    const first = await get('/api/test/cached/same')
    const second = await get('/api/test/cached/same')
    const a = await first.json()
    const b = await second.json()
    expect([a.meta.cache, b.meta.cache]).toEqual(['miss', 'hit'])
    expect(a.request_id).not.toBe(b.request_id)
    expect(first.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/)
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'))
  })

  it('If-None-Match with it: 304, no body, the caching and rate-limit headers kept', async () => {
    const res = await get('/api/test/cached/cond')
    await res.arrayBuffer()
    const etag = res.headers.get('etag')!
    const again = await get('/api/test/cached/cond', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    expect(again.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
    expect(again.headers.get('vary')).toBe('Accept-Encoding, Origin')
    expect(again.headers.get('ratelimit-limit')).toBe('100000000')
    expect(again.headers.get('ratelimit-remaining')).toMatch(/^\d+$/)
    expect(again.headers.get('x-request-id')).toMatch(/^[0-9A-Z]{26}$/)
    expect(again.headers.get('content-type')).toBeNull()
    expect(again.headers.get('content-encoding')).toBeNull()
    // Also in a list, as *, without W/ (weak comparison), and for HEAD.
    expect((await get('/api/test/cached/cond', { 'if-none-match': `"nope", ${etag}` })).status).toBe(304)
    expect((await get('/api/test/cached/cond', { 'if-none-match': '*' })).status).toBe(304)
    expect((await get('/api/test/cached/cond', { 'if-none-match': etag.slice(2) })).status).toBe(304)
    expect((await get('/api/test/cached/cond', { 'if-none-match': etag }, 'HEAD')).status).toBe(304)
    const other = await get('/api/test/cached/cond', { 'if-none-match': '"something-else"' })
    expect(other.status).toBe(200)
    expect((await other.json()).data.key).toBe('cond')
  })

  it('a gzip answer and an identity answer share the weak tag, and either copy revalidates', async () => {
    const plain = await get('/api/data/tlds')
    const gz = await get('/api/data/tlds', { 'accept-encoding': 'gzip' })
    await Promise.all([plain.arrayBuffer(), gz.arrayBuffer()])
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gz.headers.get('etag')).toBe(plain.headers.get('etag'))
    expect((await get('/api/data/tlds', { 'accept-encoding': 'gzip', 'if-none-match': plain.headers.get('etag')! })).status).toBe(304)
  })

  it('the tag changes with the representation: format, fields, pretty, paging, and the tier the body names', async () => {
    const tags = new Map<string, string>()
    for (const query of ['', '?format=yaml', '?format=xml', '?fields=key', '?pretty=true', '?include_meta=false']) {
      const res = await get(`/api/test/cached/repr${query}`)
      await res.arrayBuffer()
      tags.set(query, res.headers.get('etag')!)
    }
    const pro = await get('/api/test/cached/repr', { 'x-api-key': proKey })
    expect((await pro.json()).meta.tier).toBe('pro')
    tags.set('pro', pro.headers.get('etag')!)
    expect(new Set(tags.values()).size).toBe(tags.size)
    // A copy of another representation is not current for this one.
    expect((await get('/api/test/cached/repr?format=yaml', { 'if-none-match': tags.get('')! })).status).toBe(200)
    expect((await get('/api/test/cached/repr', { 'if-none-match': tags.get('')!, 'x-api-key': proKey })).status).toBe(200)
    const paged = await Promise.all(['?limit=5', '?limit=5&offset=5'].map(async (q) => (await get(`/api/data/tlds${q}`)).headers.get('etag')))
    expect(paged[0]).not.toBe(paged[1])
  })

  it('the tag changes when the data does: a refreshed entry with new content is a 200 with a new tag', async () => {
    const first = await get('/api/test/cached/refresh')
    const before = await first.json()
    const etag = first.headers.get('etag')!
    // Past the 60 s TTL: the resolver runs again and its answer differs (call counter).
    clock.advance(61_000)
    const after = await get('/api/test/cached/refresh', { 'if-none-match': etag })
    expect(after.status).toBe(200)
    const body = await after.json()
    expect(body.data.call).toBe(before.data.call + 1)
    expect(after.headers.get('etag')).not.toBe(etag)
  })

  it('no tag where there is nothing to revalidate: uncached endpoints and errors', async () => {
    const uuid = await get('/api/uuid', { 'if-none-match': '*' })
    expect(uuid.status).toBe(200)
    expect(uuid.headers.get('etag')).toBeNull()
    const bad = await get('/api/test/cached/x?fields=nosuchfield', { 'if-none-match': '*' })
    expect(bad.status).toBe(400)
    expect(bad.headers.get('etag')).toBeNull()
  })
})

describe('envelope-less documents: strong tags', () => {
  it.each(['/api/openapi.json', '/api/docs', '/api/docs/scalar.js'])('%s: a strong tag per coding, 304 for the coding the client holds', async (path) => {
    const identity = await get(path)
    const gz = await get(path, { 'accept-encoding': 'gzip' })
    const br = await get(path, { 'accept-encoding': 'br' })
    await Promise.all([identity, gz, br].map((r) => r.arrayBuffer()))
    const tag = identity.headers.get('etag')!
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
    expect(gz.headers.get('etag')).toBe(`${tag.slice(0, -1)}-gzip"`)
    expect(br.headers.get('etag')).toBe(`${tag.slice(0, -1)}-br"`)
    // The same bytes again: the same tag.
    const again = await get(path)
    await again.arrayBuffer()
    expect(again.headers.get('etag')).toBe(tag)
    const notModified = await get(path, { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.get('etag')! })
    expect(notModified.status).toBe(304)
    expect(await notModified.text()).toBe('')
    expect(notModified.headers.get('etag')).toBe(gz.headers.get('etag'))
    expect(notModified.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
    // A gzip copy is not the br representation: that one is sent.
    const other = await get(path, { 'accept-encoding': 'br', 'if-none-match': gz.headers.get('etag')! })
    expect(other.status).toBe(200)
    expect(other.headers.get('content-encoding')).toBe('br')
    await other.arrayBuffer()
  })

  it('the OpenAPI document in another format is another document, with another tag', async () => {
    const json = await get('/api/openapi.json')
    const yaml = await get('/api/openapi.json?format=yaml')
    await Promise.all([json.arrayBuffer(), yaml.arrayBuffer()])
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/)
    expect(yaml.headers.get('etag')).not.toBe(json.headers.get('etag'))
  })
})
