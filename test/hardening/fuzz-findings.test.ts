import { connect } from 'node:net'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen } from '../../runtime/server.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

// What the fuzzer (fuzz-endpoints.test.ts, fuzz-wire.test.ts) found, kept as
// regression tests now that each is fixed. A new finding goes here as it.fails
// (stating what the service should do) until it is fixed, with its case in
// knownAbortFinding (fuzz-harness.ts) so the fuzzer goes on meanwhile.

/** Sends raw bytes (no half-close), reads until the server closes. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('connect', () => socket.write(bytes))
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', () => {})
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')))
    setTimeout(() => socket.destroy(), 5000).unref()
  })
}

/** What an envelope answer from this service has: a status line, X-Request-Id, a JSON error envelope. */
function expectEnvelope(answer: string, status: number | '4xx'): void {
  expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status === '4xx' ? '4\\d\\d' : status} `))
  expect(answer.toLowerCase()).toContain('\r\nx-request-id: ')
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { success: boolean; error: { code: string } }
  expect(body.success).toBe(false)
  expect(typeof body.error.code).toBe('string')
}

describe('a client that goes away mid-request', () => {
  let dns: LoopbackDns
  let t: TestApp
  beforeAll(async () => {
    dns = await startLoopbackDns()
    t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', LOG_LEVEL: 'info' })
  })
  afterAll(async () => {
    await t?.close()
    await dns?.close()
  })

  /** The request, its signal aborted (as Node aborts a request whose socket closed) `afterMs` later. */
  async function abandoned(path: string, afterMs: number): Promise<{ status: number; logged: Array<Record<string, unknown>> }> {
    const before = t.logs.length
    const abort = new AbortController()
    const answer = t.app.request(new Request(`http://infralens.test${path}`, { signal: abort.signal }))
    setTimeout(() => abort.abort(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })), afterMs)
    const res = await answer
    await new Promise((resolve) => setTimeout(resolve, 200))
    return { status: res.status, logged: t.logs.slice(before) }
  }

  // Found on the wire: GET /api/dns/dnssec/example.com, the client half-closing
  // after the request (Node then aborts it). The fetcher's abortable() rejects
  // with the signal's reason as it is, which is no ApiError: a 500 and "unhandled
  // error" at level error for an ordinary disconnect (other endpoints answer
  // 502, the CPU pool 499 client_closed_request).
  it('dns.dnssec: an abandoned request is a 499, never a 500 or an unhandled error (was a 500)', async () => {
    const { status, logged } = await abandoned(`/api/dns/dnssec/a${Date.now()}.infralens.test`, 1)
    expect(logged.filter((l) => l.msg === 'unhandled error' || Number(l.level) >= 50)).toEqual([])
    expect(status).toBe(499)
  })

  // Found on the wire: GET /api/report/example.net?port=8443, client gone: each
  // area's abort is logged at level error as "report area failed unexpectedly".
  it('flagship.report: an abandoned request logs nothing at level error (was "report area failed unexpectedly")', async () => {
    const { logged } = await abandoned(`/api/report/r${Date.now()}.infralens.test`, 1)
    expect(logged.filter((l) => Number(l.level) >= 50).map((l) => l.msg)).toEqual([])
  })
})

describe('HTTP-level refusals answer with the error envelope (the real server; runtime/request-guard.ts)', () => {
  let t: TestApp
  let server: Server
  let port: number
  beforeAll(async () => {
    t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
    server = await listen(t, { port: 0, host: '127.0.0.1' })
    port = Number(new URL(server.url!).port)
  })
  afterAll(async () => {
    await server?.close(true)
    await t?.close()
  })

  // Found by the fuzzer: these passed Node's parser (so runtime/parser-errors.ts
  // never saw them) and were answered bare by Node or srvx, or not at all.

  it('HTTP/1.1 without Host is a 400 envelope saying so (was Node\'s bare 400)', async () => {
    const answer = await raw(port, 'GET /api/uuid HTTP/1.1\r\nConnection: close\r\n\r\n')
    expectEnvelope(answer, 400)
    expect(answer).toContain('An HTTP/1.1 request needs a Host header.')
    // HTTP/1.0 has no Host requirement.
    expect(await raw(port, 'GET /api/uuid HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('a Host that is no host[:port] is a 400 envelope (was a 500 on endpoints that read the whole URL; wire fuzzer, seeds -323848557 and 208884472)', async () => {
    for (const host of ['192.0.2.0:65536', 'a b', '[2001:db8::1', 'x:99999', 'xn--a.test']) {
      const answer = await raw(port, `GET /api/dns/soa/example.net HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
      expectEnvelope(answer, 400)
      expect(answer).toContain('The Host header must be a host name or address')
    }
    for (const host of ['127.0.0.1:65535', '[::1]:8080', 'api.example.test', 'xn--ls8h.test']) {
      expect(await raw(port, `GET /api/uuid HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 /)
    }
  })

  it('a good Host and bad ones in turn: each judged on its own (the guard remembers only the last good one)', async () => {
    const sequence: Array<[string, number]> = [
      ['api.example.test', 200],
      ['api.example.test:65536', 400],
      ['api.example.test', 200],
      ['xn--a.test', 400],
      ['xn--a.test', 400],
      ['api.example.test:8080', 200],
      ['api.example.test', 200],
      ['api example.test', 400],
    ]
    for (const [host, status] of sequence) {
      const answer = await raw(port, `GET /api/uuid HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
      expect(answer.slice(0, 12), host).toBe(`HTTP/1.1 ${status}`)
    }
  })

  it('a request target that is neither a path nor an http(s) URL is a 400 envelope (was srvx\'s empty 400)', async () => {
    for (const target of ['ttp://127.0.0.1/api/uuid', 'http://2001:db8::1/api/uuid']) {
      const answer = await raw(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
      expectEnvelope(answer, 400)
      expect(answer).toContain('The request target must be a path')
    }
    // An absolute http(s) URL is a valid target (RFC 9112 §3.2.2).
    expect(await raw(port, 'GET http://127.0.0.1/api/uuid HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('an Expect other than 100-continue is ignored, as RFC 9110 allows (was Node\'s bare 417)', async () => {
    const answer = await raw(port, 'GET /api/uuid HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: nonsense\r\nConnection: close\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
    expect(answer.toLowerCase()).toContain('\r\nx-request-id: ')
  })

  it('CONNECT is a 405 envelope with Allow (was the connection closed without an answer)', async () => {
    const answer = await raw(port, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n')
    expectEnvelope(answer, 405)
    expect(answer.toLowerCase()).toContain('\r\nallow: get, head, post, options\r\n')
  })

  it('meanwhile the server goes on answering', async () => {
    expect(await raw(port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /)
  })
})
