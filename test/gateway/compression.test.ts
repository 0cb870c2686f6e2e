import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIN_BYTES, compressible, encodeBody, negotiate } from '../../runtime/http/content-coding.ts'
import { StaticDocument, StaticDocuments } from '../../runtime/http/static-document.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// gzip and br by Accept-Encoding (runtime/http/content-coding.ts), for every kind
// of answer: enveloped, envelope-less documents, errors, offloaded (rendered in a
// CPU worker), HEAD. node:zlib's decompressors are the oracle here; the socket
// test (test/e2e/compression.test.ts) adds gzip(1) and curl.

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000000', INFRALENS_CPU_WORKERS: '1' })
})
afterAll(() => t.close())

const get = (path: string, acceptEncoding?: string, init: RequestInit = {}) =>
  t.request(path, { ...init, headers: { ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...(init.headers as Record<string, string> | undefined) } })

/** The body as the client reads it once decoded, with what the wire carried. */
async function decoded(res: Response): Promise<{ text: string; wire: number; coding: string | null }> {
  const bytes = Buffer.from(await res.arrayBuffer())
  const coding = res.headers.get('content-encoding')
  const plain = coding === 'gzip' ? gunzipSync(bytes) : coding === 'br' ? brotliDecompressSync(bytes) : bytes
  return { text: plain.toString('utf8'), wire: bytes.length, coding }
}

/** The data of an envelope (request_id, timestamp and meta.cache differ per response). */
const dataOf = (text: string): unknown => (JSON.parse(text) as { data: unknown }).data

describe('Accept-Encoding negotiation', () => {
  it.each([
    [null, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0.5', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['gzip;q=0.5, identity', 'identity'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['*;q=0', 'identity'],
    ['gzip;q=2', 'identity'],
    ['br;q=nonsense, gzip;q=0.1', 'gzip'],
    [' br ; q=1.000 , gzip ; q=1 ', 'br'],
  ])('%j -> %s', (header, coding) => {
    expect(negotiate(header)).toBe(coding)
  })

  it('compresses text and structured text, not event streams or compressed media', () => {
    for (const type of ['application/json; charset=utf-8', 'application/yaml', 'application/xml', 'text/csv', 'text/html', 'text/javascript', 'text/plain; version=0.0.4', 'application/problem+json', 'image/svg+xml']) {
      expect(compressible(type), type).toBe(true)
    }
    for (const type of ['text/event-stream', 'image/png', 'application/gzip', 'application/zip', 'font/woff2', 'application/octet-stream', undefined]) {
      expect(compressible(type), String(type)).toBe(false)
    }
  })

  it('compresses from MIN_BYTES on, and never an event stream or an already-coded body', () => {
    const accept = (name: string) => (name === 'accept-encoding' ? 'gzip' : null)
    const small = { 'content-type': 'application/json', 'cache-control': 'no-store' }
    expect(encodeBody('x'.repeat(MIN_BYTES - 1), small, accept, false)).toBe('x'.repeat(MIN_BYTES - 1))
    expect(small).not.toHaveProperty('content-encoding')
    const large: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' }
    const out = encodeBody('x'.repeat(MIN_BYTES), large, accept, false)
    expect(large['content-encoding']).toBe('gzip')
    expect(gunzipSync(out as Uint8Array).toString()).toBe('x'.repeat(MIN_BYTES))
    const stream: Record<string, string> = { 'content-type': 'text/event-stream', 'cache-control': 'no-store' }
    expect(encodeBody('data: x\n\n'.repeat(500), stream, accept, false)).toBe('data: x\n\n'.repeat(500))
    expect(stream).toEqual({ 'content-type': 'text/event-stream', 'cache-control': 'no-store' })
    const coded: Record<string, string> = { 'content-type': 'text/plain', 'content-encoding': 'gzip' }
    expect(encodeBody('y'.repeat(5000), coded, accept, false)).toBe('y'.repeat(5000))
  })
})

describe('compressed answers', () => {
  it('a large cached answer: gzip, br or identity as asked, the same content each way, Vary every time', async () => {
    const identity = await decoded(await get('/api/data/tlds'))
    expect(identity.coding).toBeNull()
    for (const [accept, coding] of [
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'br'],
      ['identity', null],
      [undefined, null],
    ] as const) {
      const res = await get('/api/data/tlds', accept)
      expect(res.headers.get('vary'), String(accept)).toBe('Accept-Encoding, Origin')
      const got = await decoded(res)
      expect(got.coding, String(accept)).toBe(coding)
      if (coding) expect(got.wire).toBeLessThan(identity.wire / 5)
      expect(dataOf(got.text)).toEqual(dataOf(identity.text))
    }
  })

  it('a small answer is sent as it is; Vary only where a cache could keep it', async () => {
    const uuid = await get('/api/uuid', 'gzip, br')
    expect(uuid.headers.get('content-encoding')).toBeNull()
    expect(uuid.headers.get('vary')).toBeNull()
    expect(JSON.parse(await uuid.text()).success).toBe(true)
    const cached = await get('/api/test/cached/small', 'gzip, br')
    expect(cached.headers.get('content-encoding')).toBeNull()
    // Cacheable: the same URL may be large another time, so caches must keep codings
    // apart; and CORS headers come only with an Origin, so caches keep those apart too.
    expect(cached.headers.get('vary')).toBe('Accept-Encoding, Origin')
  })

  it('a large no-store answer is compressed too, and says Vary', async () => {
    const res = await get('/api/uuid/bulk?count=200', 'gzip')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    const got = await decoded(res)
    expect(got.coding).toBe('gzip')
    const uuids = JSON.parse(got.text).data.uuids as string[]
    expect(uuids).toHaveLength(200)
    for (const uuid of uuids) expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('HEAD carries the same Content-Encoding and Vary as GET, and no body', async () => {
    const getRes = await get('/api/data/tlds', 'br')
    await getRes.arrayBuffer()
    const head = await get('/api/data/tlds', 'br', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-encoding')).toBe('br')
    expect(head.headers.get('vary')).toBe(getRes.headers.get('vary'))
    expect(head.headers.get('etag')).toBe(getRes.headers.get('etag'))
    expect((await head.arrayBuffer()).byteLength).toBe(0)
  })

  it('errors: a large error envelope is compressed like any answer', async () => {
    const path = `/api/${'missing/'.repeat(200)}`
    const res = await get(path, 'gzip')
    expect(res.status).toBe(404)
    const got = await decoded(res)
    expect(got.coding).toBe('gzip')
    const body = JSON.parse(got.text)
    expect(body.error.code).toBe('not_found')
    expect(body.error.details.path).toBe(path)
  })

  it('offloaded answers are compressed in the worker that rendered them', async () => {
    const before = t.cpu!.stats().completed
    const path = '/api/cidr/expand/10.0.0.0/8?limit=4096&offset=8192'
    const [plain, gz, br] = await Promise.all([get(path), get(path, 'gzip'), get(path, 'br')].map(async (p) => decoded(await p)))
    expect(t.cpu!.stats().completed - before).toBe(3)
    expect([plain!.coding, gz!.coding, br!.coding]).toEqual([null, 'gzip', 'br'])
    const addresses = (text: string) => (JSON.parse(text) as { data: { addresses: string[] } }).data.addresses
    expect(addresses(gz!.text)).toEqual(addresses(plain!.text))
    expect(addresses(br!.text)).toEqual(addresses(plain!.text))
    expect(addresses(plain!.text)[0]).toBe('10.0.32.0')
    expect(addresses(plain!.text)).toHaveLength(4096)
  })

  it('the OpenAPI document, the docs page and bundle: compressed, decoded back to the same bytes', async () => {
    for (const path of ['/api/openapi.json', '/api/docs', '/api/docs/scalar.js']) {
      const identity = await decoded(await get(path))
      for (const coding of ['gzip', 'br']) {
        const res = await get(path, coding)
        expect(res.headers.get('vary'), path).toBe('Accept-Encoding, Origin')
        const got = await decoded(res)
        expect(got.coding, path).toBe(coding)
        expect(got.text === identity.text, `${path} ${coding}`).toBe(true)
      }
    }
  })
})

describe('static documents are rendered and compressed once', () => {
  it('a coding is made once and then handed out as it is', async () => {
    const doc = new StaticDocument('{"a":1}'.repeat(1000), 'application/json')
    const first = doc.body('gzip')
    expect(first).toBeInstanceOf(Promise)
    expect(doc.body('gzip')).toBe(first)
    const bytes = await first
    expect(doc.body('gzip')).toBe(bytes)
    expect(gunzipSync(bytes).toString()).toBe('{"a":1}'.repeat(1000))
    expect(doc.body('identity')).toBe(doc.bytes)
  })

  it('the same data renders once; new data with the same bytes finds the document made before', () => {
    const documents = new StaticDocuments()
    let renders = 0
    const render = (body: string) => () => {
      renders++
      return { body, contentType: 'application/json' }
    }
    const data = { v: 1 }
    const a = documents.get(data, 'json', render('{"v":1}'))
    expect(documents.get(data, 'json', render('{"v":1}'))).toBe(a)
    expect(renders).toBe(1)
    expect(documents.get({ v: 1 }, 'json', render('{"v":1}'))).toBe(a)
    expect(renders).toBe(2)
    const changed = documents.get({ v: 2 }, 'json', render('{"v":2}'))
    expect(changed).not.toBe(a)
    expect(changed.tag('identity')).not.toBe(a.tag('identity'))
  })
})
