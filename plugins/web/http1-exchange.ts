import { request as httpRequest } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Exchange, HeaderField, HttpVersion } from './web-response.ts'
import { BodyReader } from './body-reader.ts'

// One HTTP/1.x request over a socket the guard opened (plain or TLS): node:http
// writes and parses, but never dials — createConnection hands it our socket, so
// the address it talks to is the vetted one.

export interface ExchangeRequest {
  /** The request target: path and query. */
  path: string
  /** The Host / :authority value. */
  authority: string
  headers: Record<string, string>
  maxBytes: number
  signal: AbortSignal
}

export function exchangeHttp1(socket: Duplex, request: ExchangeRequest): Promise<Exchange> {
  return new Promise<Exchange>((resolve, reject) => {
    let settled = false
    const fail = (error: Error) => {
      if (settled) return
      settled = true
      request.signal.removeEventListener('abort', onAbort)
      socket.destroy()
      reject(error)
    }
    const onAbort = () => fail(request.signal.reason instanceof Error ? request.signal.reason : new Error('aborted'))
    request.signal.addEventListener('abort', onAbort, { once: true })

    const req = httpRequest(
      {
        createConnection: () => socket as never,
        method: 'GET',
        path: request.path,
        setHost: false,
        headers: { host: request.authority, connection: 'close', ...request.headers },
        // Sites send large cookie and CSP headers; node's 16 KiB default is a browser's floor, not its limit.
        maxHeaderSize: 64 * 1024,
      },
      (res) => {
        const headersAt = performance.now()
        const headers: HeaderField[] = []
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.push({ name: res.rawHeaders[i]!.toLowerCase(), value: res.rawHeaders[i + 1]! })
        const reader = new BodyReader(request.maxBytes)
        const done = (bodyError: string | null) => {
          if (settled) return
          settled = true
          request.signal.removeEventListener('abort', onAbort)
          socket.destroy()
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            httpVersion: (res.httpVersion === '1.0' ? '1.0' : '1.1') satisfies HttpVersion,
            headers,
            body: reader.body(),
            truncated: reader.truncated,
            bodyError,
            headersAt,
            endAt: performance.now(),
          })
        }
        res.on('data', (chunk: Buffer) => {
          // Past the limit the rest is not read: the socket is closed, not drained.
          if (!reader.push(chunk)) done(null)
        })
        res.once('end', () => done(null))
        res.once('aborted', () => done('the connection closed before the body was complete'))
        res.on('error', (error) => done(error.message))
      },
    )
    req.on('error', fail)
    req.end()
  })
}
