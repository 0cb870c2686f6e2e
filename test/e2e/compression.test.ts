import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import { promisify } from 'node:util'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen } from '../../runtime/server.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// Over a real socket, with node:http's bare client (no decoding of its own, the
// Accept-Encoding exactly as written): the bytes on the wire decode with
// node:zlib, and gzip(1) and curl --compressed (independent decoders) agree.

const hasCurl = spawnSync('curl', ['--version']).status === 0

let t: TestApp
let server: Server
let port: number
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000000' })
  server = await listen(t, { port: 0, host: '127.0.0.1' })
  port = Number(new URL(server.url!).port)
})
afterAll(async () => {
  await server.close(true)
  await t.close()
})

function raw(path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

// Asynchronous: the server answering curl runs in this same process.
const curl = async (path: string, ...args: string[]): Promise<Buffer> =>
  (await promisify(execFile)('curl', ['-s', '--compressed', ...args, `http://127.0.0.1:${port}${path}`], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 })).stdout

describe('compression over a socket', () => {
  it('the OpenAPI document: gzip on the wire, decoded alike by node:zlib, gzip -d and curl', async () => {
    const identity = await raw('/api/openapi.json', {})
    expect(identity.headers['content-encoding']).toBeUndefined()
    const res = await raw('/api/openapi.json', { 'Accept-Encoding': 'gzip' })
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(res.headers.vary).toBe('Accept-Encoding, Origin')
    expect(Number(res.headers['content-length'])).toBe(res.body.length)
    expect(res.body.length).toBeLessThan(identity.body.length / 8)
    const byZlib = gunzipSync(res.body)
    const byGzip = execFileSync('gzip', ['-d', '-c'], { input: res.body, maxBuffer: 64 * 1024 * 1024 })
    expect(byGzip.equals(byZlib)).toBe(true)
    expect(byZlib.equals(identity.body)).toBe(true)
    if (hasCurl) expect((await curl('/api/openapi.json', '-H', 'Accept-Encoding: gzip')).equals(identity.body)).toBe(true)
  })

  it('a dynamic answer: br and gzip decode to the same data', async () => {
    const br = await raw('/api/data/tlds', { 'Accept-Encoding': 'br' })
    const gz = await raw('/api/data/tlds', { 'Accept-Encoding': 'br;q=0, gzip' })
    expect([br.headers['content-encoding'], gz.headers['content-encoding']]).toEqual(['br', 'gzip'])
    const data = (bytes: Buffer) => (JSON.parse(bytes.toString('utf8')) as { data: unknown }).data
    const fromGzip = execFileSync('gzip', ['-d', '-c'], { input: gz.body, maxBuffer: 64 * 1024 * 1024 })
    expect(fromGzip.equals(gunzipSync(gz.body))).toBe(true)
    expect(data(brotliDecompressSync(br.body))).toEqual(data(fromGzip))
    if (hasCurl) {
      // curl asks for br itself (it was built with brotli) and decodes it.
      const viaCurl = await curl('/api/data/tlds', '-H', 'Accept-Encoding: br')
      expect(data(viaCurl)).toEqual(data(fromGzip))
    }
  })

  it('HEAD: the headers of GET, no body; 304: no body either', async () => {
    const head = await raw('/api/data/tlds', { 'Accept-Encoding': 'gzip' }, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers['content-encoding']).toBe('gzip')
    expect(head.headers.vary).toBe('Accept-Encoding, Origin')
    expect(head.body.length).toBe(0)
    const etag = head.headers.etag!
    const notModified = await raw('/api/data/tlds', { 'Accept-Encoding': 'gzip', 'If-None-Match': etag })
    expect(notModified.status).toBe(304)
    expect(notModified.headers.etag).toBe(etag)
    expect(notModified.body.length).toBe(0)
  })

  it('a small answer goes as it is, even when gzip is welcome', async () => {
    const res = await raw('/api/uuid', { 'Accept-Encoding': 'gzip, br' })
    expect(res.headers['content-encoding']).toBeUndefined()
    expect((JSON.parse(res.body.toString('utf8')) as { success: boolean }).success).toBe(true)
  })
})
