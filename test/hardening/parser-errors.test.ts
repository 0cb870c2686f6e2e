import { createServer } from 'node:http'
import type { Server as HttpServer } from 'node:http'
import { connect } from 'node:net'
import { PassThrough } from 'node:stream'
import pino from 'pino'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen } from '../../runtime/server.ts'
import { answerParserErrors } from '../../runtime/parser-errors.ts'
import { createUlidFactory } from '../../runtime/ulid-factory.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// What Node's HTTP parser refuses never reaches the app; it must still answer
// with the error envelope and a request id, then close, and the server go on.

interface RawAnswer {
  statusLine: string
  headers: Map<string, string>
  raw: string
  /** The body as read, to compare with Content-Length. */
  text: string
  body: Record<string, any>
}

/** Sends raw bytes, reads until the server closes, parses the one answer. */
function exchange(port: number, bytes: string | Buffer, { halfClose = false } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('connect', () => (halfClose ? socket.end(bytes) : socket.write(bytes)))
    socket.on('data', (chunk) => chunks.push(chunk))
    // The server may reset once it is done; what was read still counts.
    socket.on('error', () => {})
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const split = raw.indexOf('\r\n\r\n')
      if (split < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(raw)}`))
      const [statusLine, ...lines] = raw.slice(0, split).split('\r\n')
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      const text = raw.slice(split + 4)
      try {
        resolve({ statusLine: statusLine!, headers, raw, text, body: JSON.parse(text) as Record<string, any> })
      } catch (error) {
        reject(new Error(`not JSON after the headers (${String(error)}): ${JSON.stringify(raw.slice(0, 300))}`))
      }
    })
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')))
  })
}

function expectEnvelope(answer: RawAnswer, statusLine: string, code: string): void {
  expect(answer.statusLine).toBe(statusLine)
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
  expect(answer.headers.get('connection')).toBe('close')
  expect(answer.headers.get('cache-control')).toBe('no-store')
  expect(Buffer.byteLength(answer.text)).toBe(Number(answer.headers.get('content-length')))
  const id = answer.headers.get('x-request-id')
  expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  expect(answer.body).toMatchObject({ success: false, request_id: id, error: { code } })
  expect(Object.keys(answer.body)).toEqual(['success', 'error', 'request_id', 'timestamp'])
  expect(Number.isNaN(Date.parse(answer.body.timestamp))).toBe(false)
  expect(typeof answer.body.error.message).toBe('string')
}

describe('requests the HTTP parser refuses (the real server)', () => {
  let t: TestApp
  let server: Server
  let port: number
  let base: string
  beforeAll(async () => {
    t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
    server = await listen(t, { port: 0, host: '127.0.0.1' })
    base = server.url!.replace(/\/$/, '')
    port = Number(new URL(base).port)
  })
  afterAll(async () => {
    await server.close(true)
    await t.close()
  })

  /** After each refusal: the server still answers, and logged the refusal once under its id. */
  async function stillServing(answer: RawAnswer): Promise<void> {
    expect((await fetch(`${base}/api/health`)).status).toBe(200)
    const logged = t.logs.filter((l) => l.request_id === answer.body.request_id)
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatchObject({ level: 30, msg: 'request refused by the HTTP parser', status: Number(answer.statusLine.split(' ')[1]), code: answer.body.error.code })
  }

  it('headers over 16 KiB: 431 request_header_fields_too_large naming the limit', async () => {
    const answer = await exchange(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Junk: ${'a'.repeat(20_000)}\r\n\r\n`)
    expectEnvelope(answer, 'HTTP/1.1 431 Request Header Fields Too Large', 'request_header_fields_too_large')
    expect(answer.body.error.message).toContain('exceed 16384 bytes')
    expect(answer.body.error.details).toEqual({ max_bytes: 16384 })
    await stillServing(answer)
  })

  it('a URL over the limit: 431 too (Node counts the request line with the headers)', async () => {
    const answer = await exchange(port, `GET /api/dns/a/${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)
    expectEnvelope(answer, 'HTTP/1.1 431 Request Header Fields Too Large', 'request_header_fields_too_large')
    expect(answer.body.error.message).toContain('send a shorter URL')
    await stillServing(answer)
  })

  it('a garbage request line: 400 bad_request', async () => {
    const answer = await exchange(port, 'HELLO THERE\r\n\r\n')
    expectEnvelope(answer, 'HTTP/1.1 400 Bad Request', 'bad_request')
    expect(answer.body.error.message).toContain('does not start with an HTTP method')
    expect(answer.body.error.details).toEqual({ parse_error: 'HPE_INVALID_METHOD' })
    await stillServing(answer)
  })

  it('a bad HTTP version: 400 bad_request', async () => {
    const answer = await exchange(port, 'GET /api/health HTTP/9.9\r\nHost: x\r\n\r\n')
    expectEnvelope(answer, 'HTTP/1.1 400 Bad Request', 'bad_request')
    expect(answer.body.error.details).toEqual({ parse_error: 'HPE_INVALID_VERSION' })
    await stillServing(answer)
  })

  it('invalid characters in a header name and in a header value: 400 bad_request', async () => {
    for (const header of ['X-A\x01: b', 'X-A: b\x00c', 'Bad Name: x']) {
      const answer = await exchange(port, `GET /api/health HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`)
      expectEnvelope(answer, 'HTTP/1.1 400 Bad Request', 'bad_request')
      expect(answer.body.error.message).toContain('character HTTP does not allow')
      expect(answer.body.error.details).toEqual({ parse_error: 'HPE_INVALID_HEADER_TOKEN' })
      await stillServing(answer)
    }
  })

  it('Content-Length with Transfer-Encoding: chunked: 400 bad_request', async () => {
    const answer = await exchange(port, 'POST /api/test/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n')
    expectEnvelope(answer, 'HTTP/1.1 400 Bad Request', 'bad_request')
    expect(answer.body.error.details).toEqual({ parse_error: 'HPE_INVALID_TRANSFER_ENCODING' })
    await stillServing(answer)
  })

  it('a bad chunk size in a chunked body: 400 bad_request, and nothing logged as a server error', async () => {
    const answer = await exchange(port, 'POST /api/test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n')
    expectEnvelope(answer, 'HTTP/1.1 400 Bad Request', 'bad_request')
    expect(answer.body.error.message).toContain('chunked body is malformed')
    expect(answer.body.error.details).toEqual({ parse_error: 'HPE_INVALID_CHUNK_SIZE' })
    await stillServing(answer)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(t.logs.filter((l) => (l.level as number) >= 50)).toEqual([])
  })

  it('chunk extensions over 16 KiB: 413 payload_too_large', async () => {
    const answer = await exchange(port, `POST /api/test/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1;${'e'.repeat(17_000)}\r\na\r\n0\r\n\r\n`)
    expectEnvelope(answer, 'HTTP/1.1 413 Payload Too Large', 'payload_too_large')
    expect(answer.body.error.details).toEqual({ max_bytes: 16384, parse_error: 'HPE_CHUNK_EXTENSIONS_OVERFLOW' })
    await stillServing(answer)
  })

  it('a refusal after a request already answered on the same connection: that answer intact, then the connection closes', async () => {
    // Pipelined: the envelope would be read as the answer to a request before it
    // if one were still pending, so after an earlier answer none is written.
    const answer = await exchange(port, 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\nBAD\r\n\r\n')
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK')
    expect(answer.body).toMatchObject({ success: true, data: { status: 'ok' } })
    expect(t.logs.some((l) => l.parse_error === 'HPE_INVALID_METHOD' && String(l.msg).includes('closing without an answer'))).toBe(true)
    expect((await fetch(`${base}/api/health`)).status).toBe(200)
  })

  it('a refusal behind a slow pipelined request: the slow answer comes whole, nothing after it', async () => {
    const answer = await exchange(port, 'GET /api/test/slow?ms=200 HTTP/1.1\r\nHost: x\r\n\r\nBAD\r\n\r\n')
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK')
    expect(answer.body).toMatchObject({ success: true, data: { aborted: false } })
  })

  it('request ids come from the app: one monotonic sequence with its answers', async () => {
    const before = (await fetch(`${base}/api/health`)).headers.get('x-request-id')!
    const refused = await exchange(port, 'HELLO\r\n\r\n')
    const after = (await fetch(`${base}/api/health`)).headers.get('x-request-id')!
    expect(before < refused.body.request_id && refused.body.request_id < after).toBe(true)
  })
})

describe('slow requests (a bare Node server with short timeouts)', () => {
  let node: HttpServer
  let port: number
  const records: Array<Record<string, unknown>> = []
  beforeAll(async () => {
    node = createServer({ headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 }, (req, res) => {
      // Answers once the whole body is in, like the app's body endpoints.
      req.resume()
      req.on('end', () => res.end('ok'))
    })
    const log = pino({ level: 'info' }, { write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>) })
    answerParserErrors(node, { nextId: createUlidFactory((digits) => digits.fill(7), () => Date.now()), isoNow: () => '2026-01-02T03:04:05.000Z', log, maxHeaderBytes: 16384 })
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
    port = (node.address() as { port: number }).port
  })
  afterAll(() => new Promise<void>((resolve) => node.close(() => resolve())))

  it('headers not complete in time: 408 request_timeout naming both limits', async () => {
    const answer = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n')
    expectEnvelope(answer, 'HTTP/1.1 408 Request Timeout', 'request_timeout')
    expect(answer.body.timestamp).toBe('2026-01-02T03:04:05.000Z')
    expect(answer.body.error.details).toEqual({ headers_timeout_ms: 300, request_timeout_ms: 600 })
    expect(records.filter((r) => r.request_id === answer.body.request_id)).toHaveLength(1)
  })

  it('a request cut short by a half-close: 400 bad_request', async () => {
    const answer = await exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc', { halfClose: true })
    expectEnvelope(answer, 'HTTP/1.1 400 Bad Request', 'bad_request')
    expect(answer.body.error.details).toEqual({ parse_error: 'HPE_INVALID_EOF_STATE' })
  })

  it('a reset connection (ECONNRESET) gets nothing written and is not logged, just destroyed', async () => {
    const before = records.length
    const socket = new PassThrough()
    const written: Buffer[] = []
    socket.on('data', (chunk: Buffer) => written.push(chunk))
    node.emit('clientError', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), socket)
    await new Promise((resolve) => setImmediate(resolve))
    expect(socket.destroyed).toBe(true)
    expect(written).toEqual([])
    expect(records.slice(before)).toEqual([])
  })
})
