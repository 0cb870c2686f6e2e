import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import { errorEnvelope } from './envelope.ts'

// Requests that pass Node's parser but that Node or srvx would still answer bare
// (a status line, no envelope, no request id) or not at all. Like the parser's
// refusals (parser-errors.ts), they get the JSON error envelope and X-Request-Id:
// - an HTTP/1.1 request without Host (Node's requireHostHeader answers a bare 400
//   before the app sees it; it is turned off and checked here instead);
// - a request target that is neither a path nor an http(s) URL (srvx cannot make
//   a URL of it and answers an empty 400);
// - a Host header that is no host[:port] (a port past 65535, spaces, ...): srvx
//   builds the request's URL from it, and the first endpoint to read the whole URL
//   threw a 500 (found by the wire fuzzer: "Host: 192.0.2.0:65536" on /api/dns/soa);
// - CONNECT (nothing listens for tunnels: Node would close the connection);
// and an Expect other than 100-continue, which Node answers with a bare 417, is
// ignored as RFC 9110 §10.1.1 allows: the request is answered as if it had none.
//
// The check costs one character comparison for the usual request (an origin-form
// target on HTTP/1.1 with Host).

export interface RequestGuardOptions {
  nextId: () => string
  isoNow: () => string
  log: Logger
  /** Offered each request that passes, before the server's handler: true when it took it (runtime/direct-gets.ts). */
  first?: (req: IncomingMessage, res: ServerResponse) => boolean
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void

interface Refusal {
  status: number
  code: string
  message: string
  details: Record<string, unknown>
}

// The usual Host: a name or IPv4 address, maybe a port. Anything else (IPv6 in
// brackets, odd characters) is judged by the URL parser, as srvx will read it.
const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::(\d{1,5}))?$/

// Clients send the same Host on request after request: the last one found good is
// remembered, and the same text again costs one string comparison instead of two
// regular expressions (this runs on every request). Only a good Host is kept.
let lastGoodHost = ''

function badHost(host: string): boolean {
  if (host === lastGoodHost) return false
  const bad = judgeHost(host)
  if (!bad) lastGoodHost = host
  return bad
}

function judgeHost(host: string): boolean {
  const plain = PLAIN_HOST.exec(host)
  // An "xn--" label must decode as punycode, or the URL parser refuses the whole host
  // (the wire fuzzer's seed 208884472: "Host: xn--a.test" was a 500 on /api/dns/ds).
  if (plain && !/xn--/i.test(host)) return plain[1] !== undefined && Number(plain[1]) > 65535
  try {
    new URL(`http://${host}/`)
    return false
  } catch {
    return true
  }
}

function refusalOf(req: IncomingMessage): Refusal | undefined {
  const target = req.url ?? ''
  if (target.charCodeAt(0) !== 47 /* "/" */) {
    let ok = false
    try {
      const url = new URL(target)
      ok = (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== ''
    } catch {
      ok = false
    }
    if (!ok) {
      return {
        status: 400,
        code: 'bad_request',
        message: 'The request target must be a path (/api/...) or an absolute http(s) URL.',
        details: { param: 'target' },
      }
    }
  }
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
    return { status: 400, code: 'bad_request', message: 'An HTTP/1.1 request needs a Host header.', details: { param: 'host' } }
  }
  if (req.headers.host !== undefined && badHost(req.headers.host)) {
    return { status: 400, code: 'bad_request', message: 'The Host header must be a host name or address with an optional port (1-65535).', details: { param: 'host' } }
  }
  return undefined
}

function envelopeBody(refusal: Refusal, requestId: string, timestamp: string): string {
  return JSON.stringify(errorEnvelope(refusal.code, refusal.message, refusal.details, requestId, timestamp))
}

/**
 * Puts the guard in front of the server's request handler (srvx's), and answers
 * CONNECT and unknown expectations. Call once, right after the server is made.
 */
export function guardRequests(server: HttpServer, options: RequestGuardOptions): void {
  const handlers = server.listeners('request') as Handler[]
  server.removeAllListeners('request')
  const first = options.first
  const handle: Handler = (req, res) => {
    if (first?.(req, res)) return
    for (const handler of handlers) handler(req, res)
  }
  const refuse = (req: IncomingMessage, res: ServerResponse, refusal: Refusal): void => {
    const requestId = options.nextId()
    const body = envelopeBody(refusal, requestId, options.isoNow())
    options.log.info({ request_id: requestId, status: refusal.status, code: refusal.code, method: req.method, remote: req.socket.remoteAddress }, 'request refused before routing')
    res.shouldKeepAlive = false
    res.writeHead(refusal.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      'cache-control': 'no-store',
    })
    res.end(body)
  }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const refusal = refusalOf(req)
    if (refusal === undefined) handle(req, res)
    else refuse(req, res, refusal)
  })
  // An expectation the service has no use for: answered as a request without one.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res))
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const requestId = options.nextId()
    const refusal: Refusal = { status: 405, code: 'method_not_allowed', message: 'CONNECT is not supported: this is an API, not a proxy.', details: { method: 'CONNECT', allowed: ['GET', 'HEAD', 'POST', 'OPTIONS'] } }
    const body = envelopeBody(refusal, requestId, options.isoNow())
    options.log.info({ request_id: requestId, status: 405, code: refusal.code, method: 'CONNECT', remote: req.socket.remoteAddress }, 'request refused before routing')
    socket.end(
      `HTTP/1.1 405 ${STATUS_CODES[405]}\r\n` +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        'allow: GET, HEAD, POST, OPTIONS\r\n' +
        'cache-control: no-store\r\n' +
        `date: ${new Date(options.isoNow()).toUTCString()}\r\n` +
        'connection: close\r\n\r\n' +
        body,
    )
    const linger = setTimeout(() => socket.destroy(), 2000)
    linger.unref()
    socket.once('close', () => clearTimeout(linger))
  })
}
