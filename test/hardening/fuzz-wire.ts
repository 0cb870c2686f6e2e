import { connect } from 'node:net'
import fc from 'fast-check'
import type { FuzzRequest } from './fuzz-cases.ts'
import { looseUtf8, weirdChar } from './fuzz-arbitraries.ts'
import { hostName, ipSafe } from './fuzz-addresses.ts'

// What only goes on the wire, to the real HTTP server (fuzz-wire.test.ts): the
// request as raw bytes, so it can carry what fetch never sends — raw control
// and non-ASCII bytes in the target and in header names and values, methods
// fetch forbids, other HTTP versions, absolute and asterisk forms, folded and
// LF-only header lines, missing and doubled Host, Content-Length that lies,
// broken chunked framing, headers past the 16 KiB limit.

export type WireMutation =
  | { kind: 'raw-target-bytes'; bytes: number[]; at: number }
  | { kind: 'target-form'; form: 'absolute' | 'asterisk' | 'fragment' | 'no-slash' | 'long' }
  | { kind: 'method'; method: string }
  | { kind: 'version'; version: string }
  | { kind: 'header-bytes'; name: number[]; value: number[] }
  | { kind: 'header-lines'; style: 'lf-only' | 'obs-fold' | 'space-before-colon' | 'no-colon' | 'empty-name' | 'many' | 'huge' | 'no-host' | 'two-hosts' | 'nul-in-value' }
  | { kind: 'framing'; style: 'short-length' | 'long-length' | 'two-lengths' | 'negative-length' | 'chunked' | 'bad-chunk' | 'chunk-extension' | 'chunked-and-length' | 'te-identity' | 'expect-continue' }

const rawByte = fc.oneof(fc.integer({ min: 0x00, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0xff }), fc.constantFrom(0x20, 0x22, 0x23, 0x3c, 0x3e, 0x5c, 0x5e, 0x60, 0x7b, 0x7c, 0x7d))

export const wireMutation = fc.oneof(
  fc.record({ kind: fc.constant('raw-target-bytes' as const), bytes: fc.oneof(fc.array(rawByte, { minLength: 1, maxLength: 6 }), weirdChar.map((c) => [...looseUtf8(c)])), at: fc.nat() }),
  fc.record({ kind: fc.constant('target-form' as const), form: fc.constantFrom('absolute' as const, 'asterisk' as const, 'fragment' as const, 'no-slash' as const, 'long' as const) }),
  fc.record({ kind: fc.constant('method' as const), method: fc.constantFrom('CONNECT', 'TRACE', 'TRACK', 'get', 'G\u00c9T', 'GET GET', '', 'PRI', 'M-SEARCH', 'SEARCH', 'LINK', 'PURGE', 'QUERY', 'X'.repeat(200)) }),
  fc.record({ kind: fc.constant('version' as const), version: fc.constantFrom('HTTP/1.0', 'HTTP/1.1', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.2', 'http/1.1', 'HTTP/1.1 ', 'HTTP/11', 'HTTP/1.1\u0000', '') }),
  fc.record({ kind: fc.constant('header-bytes' as const), name: fc.oneof(fc.constant([...Buffer.from('x-odd')]), fc.array(rawByte, { minLength: 1, maxLength: 4 }).map((b) => [...Buffer.from('x-'), ...b])), value: fc.array(fc.oneof(rawByte, fc.integer({ min: 0x20, max: 0x7e })), { maxLength: 20 }) }),
  fc.record({ kind: fc.constant('header-lines' as const), style: fc.constantFrom('lf-only' as const, 'obs-fold' as const, 'space-before-colon' as const, 'no-colon' as const, 'empty-name' as const, 'many' as const, 'huge' as const, 'no-host' as const, 'two-hosts' as const, 'nul-in-value' as const) }),
  fc.record({
    kind: fc.constant('framing' as const),
    style: fc.constantFrom('short-length' as const, 'long-length' as const, 'two-lengths' as const, 'negative-length' as const, 'chunked' as const, 'bad-chunk' as const, 'chunk-extension' as const, 'chunked-and-length' as const, 'te-identity' as const, 'expect-continue' as const),
  }),
) as fc.Arbitrary<WireMutation>

/** A Host header value: a safe name or address, the way clients send them. */
export const hostHeader = fc.oneof(fc.constant('127.0.0.1'), hostName, ipSafe)

export interface WireRequest {
  bytes: Buffer
  /** The target as the service will read it (Node reads the request line as Latin-1). */
  target: string
  method: string
  /**
   * The request promises more body than it has: the client half-closes after
   * sending, so the server sees the end (and refuses the request) instead of
   * waiting for bytes that never come. Every other request is sent without a
   * half-close: Node aborts a request whose client half-closed before the answer
   * (http.Server's httpAllowHalfOpen is false), and nothing would come back.
   */
  halfClose: boolean
}

const latin1 = (bytes: number[]) => Buffer.from(bytes).toString('latin1')

/** The request as bytes, with the mutations applied. */
export function render(request: FuzzRequest, mutations: WireMutation[], host: string): WireRequest {
  let method = request.method
  let target = Buffer.from(request.target, 'utf8').toString('latin1')
  let version = 'HTTP/1.1'
  let eol = '\r\n'
  let halfClose = false
  const headers: string[] = []
  let hostLines = [`Host: ${Buffer.from(host, 'utf8').toString('latin1')}`]
  for (const [k, v] of request.headers) {
    if (k.toLowerCase() === 'host') hostLines = [`${k}: ${v}`]
    // Values are byte strings; a character past U+00FF goes as its UTF-8 bytes.
    else headers.push(`${k}: ${/[^\x00-\xff]/.test(v) ? Buffer.from(v, 'utf8').toString('latin1') : v}`)
  }
  let body: Buffer = request.body === undefined ? Buffer.alloc(0) : typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : Buffer.from(request.body)
  let framing: string[] = body.length || ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase()) ? [`Content-Length: ${body.length}`] : []
  for (const m of mutations) {
    switch (m.kind) {
      case 'raw-target-bytes': {
        const at = 1 + (m.at % Math.max(1, target.length))
        target = target.slice(0, at) + latin1(m.bytes) + target.slice(at)
        break
      }
      case 'target-form':
        if (m.form === 'absolute') target = `http://${host}${target}`
        else if (m.form === 'asterisk') target = '*'
        else if (m.form === 'fragment') target = `${target}#frag?format=xml`
        else if (m.form === 'no-slash') target = target.slice(1)
        else {
          target = `${target}${target.includes('?') ? '&' : '?'}pad=${'a'.repeat(20_000)}`
        }
        break
      case 'method':
        method = m.method
        break
      case 'version':
        version = m.version
        break
      case 'header-bytes':
        headers.push(`${latin1(m.name)}: ${latin1(m.value)}`)
        break
      case 'header-lines':
        switch (m.style) {
          case 'lf-only':
            eol = '\n'
            break
          case 'obs-fold':
            headers.push('X-Folded: first', ' continued')
            break
          case 'space-before-colon':
            headers.push('X-Space : x')
            break
          case 'no-colon':
            headers.push('X-No-Colon')
            break
          case 'empty-name':
            headers.push(': empty')
            break
          case 'many':
            for (let i = 0; i < 2000; i++) headers.push(`X-H${i}: ${i}`)
            break
          case 'huge':
            headers.push(`X-Huge: ${'h'.repeat(20_000)}`)
            break
          case 'no-host':
            hostLines = []
            break
          case 'two-hosts':
            hostLines = [...hostLines, 'Host: example.net']
            break
          case 'nul-in-value':
            headers.push('X-Nul: a\u0000b')
            break
        }
        break
      case 'framing':
        // A later framing replaces an earlier one (but for Expect, added to it):
        // the half-close belongs to a long Content-Length that is still there.
        if (m.style !== 'expect-continue') halfClose = false
        switch (m.style) {
          case 'short-length':
            framing = [`Content-Length: ${Math.max(0, body.length - 1)}`]
            break
          case 'long-length':
            framing = [`Content-Length: ${body.length + 10}`]
            halfClose = true
            break
          case 'two-lengths':
            framing = [`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`]
            break
          case 'negative-length':
            framing = ['Content-Length: -1']
            break
          case 'chunked':
            framing = ['Transfer-Encoding: chunked']
            body = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
            break
          case 'bad-chunk':
            framing = ['Transfer-Encoding: chunked']
            body = Buffer.concat([Buffer.from('zz\r\n'), body, Buffer.from('\r\n0\r\n\r\n')])
            break
          case 'chunk-extension':
            framing = ['Transfer-Encoding: chunked']
            body = Buffer.concat([Buffer.from(`${body.length.toString(16)};${'e'.repeat(20_000)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
            break
          case 'chunked-and-length':
            framing = ['Transfer-Encoding: chunked', `Content-Length: ${body.length}`]
            body = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
            break
          case 'te-identity':
            framing = ['Transfer-Encoding: identity', `Content-Length: ${body.length}`]
            break
          case 'expect-continue':
            framing = [...framing, 'Expect: 100-continue']
            break
        }
        break
    }
  }
  const head = [`${method} ${target} ${version}`, ...hostLines, ...headers, ...framing, 'Connection: close'].join(eol) + eol + eol
  return { bytes: Buffer.concat([Buffer.from(head, 'latin1'), body]), target, method, halfClose }
}

export interface RawAnswer {
  status: number
  headers: Headers
  /** The body, de-chunked. */
  bytes: Uint8Array
  /** The 100 Continue interim answer came first. */
  interim: boolean
}

/**
 * Sends the bytes on a new connection (half-closing after them if asked), reads
 * until the server closes (every request says Connection: close); parses the one
 * answer, after a 100 Continue. No `answer`: nothing came back. The answer to a
 * HEAD request has no body whatever its Content-Length says (RFC 9110 §9.3.2).
 */
export function exchange(port: number, bytes: Buffer, timeoutMs: number, halfClose = false, head = false): Promise<{ answer?: RawAnswer; raw: Buffer; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let settled = false
    const done = (error?: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      const raw = Buffer.concat(chunks)
      try {
        resolve({ ...(raw.length ? { answer: parseAnswer(raw, head) } : {}), raw, ...(error ? { error } : {}) })
      } catch (e) {
        resolve({ raw, error: `unparsable answer (${(e as Error).message}): ${JSON.stringify(raw.subarray(0, 300).toString('latin1'))}` })
      }
    }
    const timer = setTimeout(() => done(`no end of answer within ${timeoutMs} ms`), timeoutMs)
    socket.on('connect', () => (halfClose ? socket.end(bytes) : socket.write(bytes)))
    socket.on('data', (c: Buffer) => chunks.push(c))
    // A reset after the answer (the server closing with our bytes unread) still leaves the answer read.
    socket.on('error', (e) => done(chunks.length ? undefined : `socket error ${e.message}`))
    socket.on('close', () => done())
  })
}

function parseAnswer(raw: Buffer, toHead: boolean): RawAnswer {
  let at = 0
  let interim = false
  for (;;) {
    const end = raw.indexOf('\r\n\r\n', at)
    if (end < 0) throw new Error('no end of headers')
    const head = raw.subarray(at, end).toString('latin1').split('\r\n')
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0]!)?.[1])
    if (!status) throw new Error(`status line ${JSON.stringify(head[0])}`)
    at = end + 4
    if (status === 100) {
      interim = true
      continue
    }
    const headers = new Headers()
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':')
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
    }
    let body = raw.subarray(at)
    if (toHead) return { status, headers, bytes: new Uint8Array(0), interim }
    if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) body = dechunk(body)
    else if (headers.has('content-length')) {
      const length = Number(headers.get('content-length'))
      if (body.length < length) throw new Error(`body of ${body.length} bytes, Content-Length ${length}`)
      body = body.subarray(0, length)
    }
    return { status, headers, bytes: new Uint8Array(body), interim }
  }
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const eol = body.indexOf('\r\n', at)
    if (eol < 0) throw new Error('chunked body cut short')
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16)
    if (Number.isNaN(size)) throw new Error('bad chunk size in the answer')
    if (size === 0) return Buffer.concat(parts)
    parts.push(body.subarray(eol + 2, eol + 2 + size))
    at = eol + 2 + size + 2
  }
}

