import { join } from 'node:path'
import { connect } from 'node:net'
import { Writable } from 'node:stream'
import { serve } from 'srvx'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InfralensApp } from '../../runtime/app.ts'
import { ROOT, createApp } from '../../runtime/app.ts'
import { duplicateKeys } from '../support/duplicate-keys.ts'
import { createFixturePlugin } from '../support/fixture-plugin.ts'
import { HERMETIC_ENV } from '../support/hermetic-env.ts'

// What the service writes to its log, line by line as written (test/support/app.ts
// keeps parsed objects, where a key written twice has already lost a value).

const FORWARDED = '203.0.113.7'

let service: InfralensApp
let server: Server
let base: string
const lines: string[] = []

beforeAll(async () => {
  let partial = ''
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      const parts = (partial + String(chunk)).split('\n')
      partial = parts.pop()!
      lines.push(...parts.filter((l) => l !== ''))
      done()
    },
  })
  service = await createApp({
    // The loopback peer is a trusted proxy: the client is what X-Forwarded-For names.
    env: { LOG_LEVEL: 'info', ...HERMETIC_ENV, INFRALENS_TRUST_PROXY: '127.0.0.1' },
    registryDirs: [join(ROOT, 'registry'), join(ROOT, 'test', 'fixtures', 'registry')],
    plugins: [createFixturePlugin().plugin],
    logStream,
  })
  server = serve({ fetch: service.app.fetch, port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
  await server.ready()
  base = server.url!.replace(/\/$/, '')
})
afterAll(async () => {
  await server?.close(true)
  await service?.close()
})

/** Every line written so far for a request id; access lines are batched (every 200 ms). */
async function linesOf(requestId: string, count: number): Promise<string[]> {
  let found: string[] = []
  for (let i = 0; i < 80; i++) {
    found = lines.filter((l) => (JSON.parse(l) as { request_id?: string }).request_id === requestId)
    if (found.length >= count) break
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return found
}

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; requestId: string }> {
  const res = await fetch(`${base}${path}`, { ...init, headers: { 'x-forwarded-for': FORWARDED, ...init.headers } })
  await res.arrayBuffer()
  return { status: res.status, requestId: res.headers.get('x-request-id')! }
}

/** One request written byte for byte (fetch would normalize the path). */
function rawGet(target: string): Promise<{ status: number; requestId: string }> {
  const { port } = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))
    let text = ''
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')))
    socket.on('error', reject)
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]), requestId: /x-request-id: (\S+)/i.exec(text)?.[1] ?? '' }))
  })
}

function parse(line: string): Record<string, unknown> {
  expect(duplicateKeys(line), line).toEqual([])
  return JSON.parse(line) as Record<string, unknown>
}

describe('log lines', () => {
  it('an upstream error (502): its warn line and its access line, each key once, endpoint once', async () => {
    const { status, requestId } = await call('/api/test/failing/upstream')
    expect(status).toBe(502)
    const [warn, access] = (await linesOf(requestId, 2)).map(parse).sort((a, b) => (a.msg === 'request' ? 1 : b.msg === 'request' ? -1 : 0))
    expect(warn).toMatchObject({ level: 40, request_id: requestId, endpoint: 'test.failing', code: 'upstream_error' })
    expect(access).toMatchObject({ log: 'access', status: 502, endpoint: 'test.failing', path: '/api/test/failing/upstream', client: FORWARDED, method: 'GET' })
  })

  it('an internal error (500): its error line and its access line, each key once, endpoint once', async () => {
    const { status, requestId } = await call('/api/test/failing/bug')
    expect(status).toBe(500)
    const [error, access] = (await linesOf(requestId, 2)).map(parse).sort((a, b) => (a.msg === 'request' ? 1 : b.msg === 'request' ? -1 : 0))
    expect(error).toMatchObject({ level: 50, request_id: requestId, endpoint: 'test.failing', msg: 'unhandled error' })
    expect((error!.err as { message: string }).message).toBe('secret internal detail')
    expect(access).toMatchObject({ log: 'access', status: 500, endpoint: 'test.failing', path: '/api/test/failing/bug', client: FORWARDED })
  })

  it('an answered request: the path without its query string, the client after the trusted proxy', async () => {
    const { status, requestId } = await call('/api/test/cached/k1?pretty&token=s3cr3t-in-query')
    expect(status).toBe(200)
    const [line] = await linesOf(requestId, 1)
    expect(line).not.toContain('s3cr3t')
    expect(parse(line!)).toMatchObject({ status: 200, endpoint: 'test.cached', method: 'GET', path: '/api/test/cached/k1', client: FORWARDED, cache: 'miss' })
  })

  it('requests no endpoint answers get an access line too: 404 and 405 with path, method, status, client, request id', async () => {
    const missing = await call('/api/nowhere/at/all?key=s3cr3t-in-query')
    expect(missing.status).toBe(404)
    const [notFound] = await linesOf(missing.requestId, 1)
    expect(notFound).not.toContain('s3cr3t')
    expect(parse(notFound!)).toMatchObject({
      log: 'access',
      request_id: missing.requestId,
      endpoint: null,
      method: 'GET',
      path: '/api/nowhere/at/all',
      status: 404,
      client: FORWARDED,
      error: { code: 'not_found' },
    })

    const wrong = await call('/api/uuid', { method: 'DELETE' })
    expect(wrong.status).toBe(405)
    const [notAllowed] = await linesOf(wrong.requestId, 1)
    expect(parse(notAllowed!)).toMatchObject({
      log: 'access',
      request_id: wrong.requestId,
      endpoint: null,
      method: 'DELETE',
      path: '/api/uuid',
      status: 405,
      client: FORWARDED,
      error: { code: 'method_not_allowed' },
    })
  })

  it('a path with quotes, backslashes and braces as the client sent it: one valid line, the path as the URL standard reads it', async () => {
    // Node's parser lets quotes and backslashes through; the service sees the path
    // the WHATWG URL parser makes of them (\\ is /, " and braces percent-encoded).
    // Without a proxy header the client is the loopback peer.
    const sent = '/api/nowhere/a\\b"},"status":200,"x":"\\u0022{'
    const { status, requestId } = await rawGet(sent)
    expect(status).toBe(404)
    const [line] = await linesOf(requestId, 1)
    expect(line).toBeDefined()
    const parsed = parse(line!)
    expect(parsed).toMatchObject({ status: 404, client: '127.0.0.1', endpoint: null, path: new URL(sent, 'http://127.0.0.1').pathname })
    expect(parsed).not.toHaveProperty('x')
  })

  it('every line written so far parses, with no key twice', () => {
    expect(lines.length).toBeGreaterThanOrEqual(8)
    for (const line of lines) parse(line)
  })
})
