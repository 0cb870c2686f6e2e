import type { Server as HttpServer, ServerResponse } from 'node:http'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import { errorEnvelope } from './envelope.ts'

// Requests Node's HTTP parser refuses (headers or URL too long, a request line or
// header that is not HTTP, broken chunked framing, too slow) never reach the app.
// Node would answer them with a bare status line; here they get the same JSON
// error envelope and X-Request-Id as every other answer, so a client (or the
// person reading its log) learns what to fix and which log line to look for.

export interface ParserErrorOptions {
  /** The app's request id factory, so ids stay one monotonic sequence. */
  nextId: () => string
  /** The app clock's now, as the envelope's timestamp. */
  isoNow: () => string
  log: Logger
  /** The server's maxHeaderSize, named in the 431 message. */
  maxHeaderBytes: number
}

interface Rejection {
  status: number
  code: string
  message: string
  details: Record<string, unknown>
}

/** Node's limit on the chunk extensions of one chunk (not configurable). */
const MAX_CHUNK_EXTENSION_BYTES = 16 * 1024

/** After answering, how long a client may take to read it and close before the socket is cut. */
const LINGER_MS = 2000

/** Parser error codes (llhttp's HPE_*) whose cause can be said more plainly than llhttp's reason. */
const BAD_REQUEST_MESSAGES = new Map<string, string>([
  ['HPE_INVALID_METHOD', 'The request line does not start with an HTTP method (GET, POST, HEAD, OPTIONS); is this an HTTP/1.1 client?'],
  ['HPE_INVALID_URL', 'The request target is not a valid URL path; percent-encode spaces and control characters.'],
  ['HPE_INVALID_VERSION', 'The request line does not end with HTTP/1.1 or HTTP/1.0.'],
  ['HPE_PAUSED_H2_UPGRADE', 'This is an HTTP/2 connection preface; the service speaks HTTP/1.1 here.'],
  ['HPE_INVALID_HEADER_TOKEN', 'A header name or value contains a character HTTP does not allow (a control character, or a space or separator in a name).'],
  ['HPE_INVALID_CONTENT_LENGTH', 'The Content-Length header is not a single decimal number.'],
  ['HPE_UNEXPECTED_CONTENT_LENGTH', 'The request has both Content-Length and Transfer-Encoding: chunked; send one of them.'],
  ['HPE_INVALID_TRANSFER_ENCODING', 'The Transfer-Encoding header is not acceptable (with Content-Length, or not ending in chunked); send one of them, chunked last.'],
  ['HPE_INVALID_CHUNK_SIZE', 'The chunked body is malformed: a chunk size is not a hexadecimal number followed by CRLF.'],
  ['HPE_INVALID_EOF_STATE', 'The connection was half-closed before the request was complete.'],
])

function rejectionOf(error: Error & { code?: string; reason?: string }, server: HttpServer, maxHeaderBytes: number): Rejection | undefined {
  const code = error.code ?? ''
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      code: 'request_header_fields_too_large',
      message: `The request line and headers together exceed ${maxHeaderBytes} bytes; send a shorter URL (put long input in a POST body) or fewer and smaller headers.`,
      details: { max_bytes: maxHeaderBytes },
    }
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return {
      status: 413,
      code: 'payload_too_large',
      message: `A chunk of the chunked body carries more than ${MAX_CHUNK_EXTENSION_BYTES} bytes of chunk extensions; send the body without extensions.`,
      details: { max_bytes: MAX_CHUNK_EXTENSION_BYTES, parse_error: code },
    }
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      code: 'request_timeout',
      message: `The request did not arrive in time: headers must be complete within ${server.headersTimeout} ms and the whole request within ${server.requestTimeout} ms.`,
      details: { headers_timeout_ms: server.headersTimeout, request_timeout_ms: server.requestTimeout },
    }
  }
  if (code.startsWith('HPE_')) {
    const known = BAD_REQUEST_MESSAGES.get(code)
    return {
      status: 400,
      code: 'bad_request',
      message: known ?? `The request is not valid HTTP/1.1: ${error.reason ?? error.message}.`,
      details: { parse_error: code },
    }
  }
  // ECONNRESET, EPIPE and other socket errors: nobody is left to read an answer.
  return undefined
}

/** The response on its way on this socket, if any (Node's own bookkeeping). */
function inFlight(socket: Duplex): ServerResponse | undefined {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined
}

/**
 * Whether an answer may be written now without being taken for (or cutting into)
 * the answer to another request. Node's own rule (nothing of the in-flight
 * response sent yet) is not enough with pipelining: when the in-flight response
 * belongs to an earlier request that arrived whole, the client would read this
 * answer as that request's. Only when the broken request is the in-flight one
 * (its body failed to parse) does this answer replace its response.
 */
function mayAnswer(socket: Duplex, pending: ServerResponse | undefined): boolean {
  return socket.writable && (pending === undefined || (!pending.headersSent && !pending.req.complete))
}

/**
 * Ends the connection after what is written (and `last`): end(), not destroy(),
 * as closing with the client's bytes unread would send a reset, which can discard
 * the answer before the client reads it. The client gets a moment to read and
 * close; then the socket is cut.
 */
function closeAfter(socket: Duplex, last?: string): void {
  socket.end(last)
  const linger = setTimeout(() => socket.destroy(), LINGER_MS)
  linger.unref()
  socket.once('close', () => clearTimeout(linger))
}

/** The complete HTTP/1.1 answer, status line to body. */
function rawAnswer(rejection: Rejection, requestId: string, timestamp: string): string {
  const body = JSON.stringify(errorEnvelope(rejection.code, rejection.message, rejection.details, requestId, timestamp))
  return (
    `HTTP/1.1 ${rejection.status} ${STATUS_CODES[rejection.status] ?? ''}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    `x-request-id: ${requestId}\r\n` +
    'cache-control: no-store\r\n' +
    // The envelope's instant, from the app's clock, in HTTP's date form.
    `date: ${new Date(timestamp).toUTCString()}\r\n` +
    'connection: close\r\n' +
    '\r\n' +
    body
  )
}

/** Answers what the parser refuses with the error envelope, then closes the connection. */
export function answerParserErrors(server: HttpServer, options: ParserErrorOptions): void {
  const answered = new WeakSet<Duplex>()
  server.on('clientError', (error: Error & { code?: string; reason?: string }, socket: Duplex) => {
    // Bytes that keep coming after the refusal fail to parse again: still the same request.
    if (answered.has(socket)) return
    const rejection = rejectionOf(error, server, options.maxHeaderBytes)
    if (rejection === undefined) {
      socket.destroy()
      return
    }
    // Whatever else arrives on this socket is part of the refused request.
    answered.add(socket)
    const remote = (socket as Duplex & { remoteAddress?: string }).remoteAddress
    const pending = inFlight(socket)
    if (!mayAnswer(socket, pending)) {
      options.log.info({ status: rejection.status, code: rejection.code, parse_error: error.code, remote }, 'request refused by the HTTP parser; closing without an answer, as one to an earlier request is under way')
      // That earlier answer is let finish; nothing is read after it.
      if (!socket.writable) socket.destroy()
      else if (pending !== undefined && !pending.writableFinished) pending.once('close', () => (pending.writableFinished ? closeAfter(socket) : socket.destroy()))
      else closeAfter(socket)
      return
    }
    const requestId = options.nextId()
    options.log.info({ request_id: requestId, status: rejection.status, code: rejection.code, parse_error: error.code, remote }, 'request refused by the HTTP parser')
    closeAfter(socket, rawAnswer(rejection, requestId, options.isoNow()))
  })
}
