import { connect as http2Connect, constants as h2 } from 'node:http2'
import { STATUS_CODES } from 'node:http'
import type { TLSSocket } from 'node:tls'
import { BodyReader } from './body-reader.ts'
import type { ExchangeRequest } from './http1-exchange.ts'
import type { Exchange, HeaderField } from './web-response.ts'

// One HTTP/2 request over a TLS socket whose ALPN said h2. The session is built on
// the guard's socket (createConnection), so no second connection is dialed; it is
// torn down after the one stream.

export function exchangeHttp2(socket: TLSSocket, request: ExchangeRequest): Promise<Exchange> {
  return new Promise<Exchange>((resolve, reject) => {
    let settled = false
    const session = http2Connect(`https://${request.authority}`, {
      createConnection: () => socket,
      settings: { enablePush: false },
      maxHeaderListPairs: 1024,
    })
    const finish = () => {
      request.signal.removeEventListener('abort', onAbort)
      session.destroy()
      socket.destroy()
    }
    const fail = (error: Error) => {
      if (settled) return
      settled = true
      finish()
      reject(error)
    }
    const onAbort = () => fail(request.signal.reason instanceof Error ? request.signal.reason : new Error('aborted'))
    request.signal.addEventListener('abort', onAbort, { once: true })
    session.on('error', fail)

    const stream = session.request(
      { [h2.HTTP2_HEADER_METHOD]: 'GET', [h2.HTTP2_HEADER_PATH]: request.path, [h2.HTTP2_HEADER_AUTHORITY]: request.authority, ...request.headers },
      { endStream: true },
    )
    stream.on('error', fail)
    stream.once('response', (raw) => {
      const headersAt = performance.now()
      const status = Number(raw[h2.HTTP2_HEADER_STATUS] ?? 0)
      const headers: HeaderField[] = []
      for (const [name, value] of Object.entries(raw)) {
        if (name.startsWith(':') || value === undefined) continue
        for (const v of Array.isArray(value) ? value : [value]) headers.push({ name: name.toLowerCase(), value: String(v) })
      }
      const reader = new BodyReader(request.maxBytes)
      const done = (bodyError: string | null) => {
        if (settled) return
        settled = true
        finish()
        resolve({
          status,
          statusText: STATUS_CODES[status] ?? '',
          httpVersion: '2',
          headers,
          body: reader.body(),
          truncated: reader.truncated,
          bodyError,
          headersAt,
          endAt: performance.now(),
        })
      }
      stream.removeListener('error', fail)
      stream.on('error', (error) => done(error.message))
      stream.on('data', (chunk: Buffer) => {
        if (!reader.push(chunk)) {
          stream.close(h2.NGHTTP2_CANCEL)
          done(null)
        }
      })
      stream.once('end', () => done(null))
    })
  })
}
