import { STATUS_CODES } from 'node:http'
import type { Logger } from 'pino'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { Format, FormatContext } from './define-format.ts'
import type { SuccessEnvelope } from './envelope.ts'
import { errorEnvelope } from './envelope.ts'
import { ApiError, InternalError } from './errors.ts'
import type { Coding } from './http/content-coding.ts'
import { chooseCoding, compressible, encodeBody, varyStored } from './http/content-coding.ts'
import { noneMatch } from './http/entity-tag.ts'
import { PlainResponse } from './http/plain-response.ts'
import type { StaticDocument } from './http/static-document.ts'

// Building the HTTP response is the one place that knows about formats, status
// codes and headers. Responses are srvx FastResponse (returning the global
// Response makes srvx read the body as a web stream, notes/performance.md), as
// PlainResponse: the same, handed to Node without srvx's generic header
// conversion (runtime/http/plain-response.ts).

const EXPOSED = 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After, X-Cache, X-Total-Count, ETag, Link'

/** A request header by name (the pipeline's raw-header scan, or Headers.get). */
export type HeaderReader = (name: string) => string | null

/**
 * Headers every response carries. The CORS pair only goes to requests with an
 * Origin (browsers): every response header costs node validation and bytes on
 * the wire (a third of bare h3 throughput for 10 headers, bench/RESULTS.md).
 */
export function baseHeaders(requestId: string, contentType: string, cors: boolean): Record<string, string> {
  return cors
    ? {
        'content-type': contentType,
        'x-request-id': requestId,
        'access-control-allow-origin': '*',
        'access-control-expose-headers': EXPOSED,
      }
    : { 'content-type': contentType, 'x-request-id': requestId }
}

export interface Formats {
  get(name: string): Format | undefined
  json: Format
}

/**
 * `link`: the paging Link header (runtime/http/page-links.ts), added after the
 * format ran, beside what a format put there itself (csv's rel="self").
 */
export function successResponse(
  envelope: SuccessEnvelope,
  format: Format,
  ctx: FormatContext,
  head: boolean,
  header: HeaderReader,
  link?: string,
  encodedKey?: string,
): Response {
  const body = encodedKey !== undefined && format.spliced ? format.spliced(envelope, encodedKey, ctx) : format.success(envelope, ctx)
  const headers = ctx.headers
  if (link !== undefined) headers.link = headers.link === undefined ? link : `${headers.link}, ${link}`
  return new PlainResponse(encodeBody(body, headers, header, head), { status: 200, statusText: 'OK', headers })
}

/** The body of an envelope-less answer in the requested format (JSON when that one has no raw form). */
export function rawBody(data: unknown, format: Format, formats: Formats, ctx: FormatContext): { body: string; contentType: string } {
  const chosen = format.raw ? format : formats.json
  return { body: chosen.raw ? chosen.raw(data, ctx) : JSON.stringify(data, null, ctx.pretty ? 2 : undefined), contentType: chosen.contentType }
}

/** A descriptor's own media type (contentType): the resolver's string is the body, as-is. */
export function documentBody(body: unknown, contentType: string, ctx: FormatContext): { body: string; contentType: string } {
  if (typeof body !== 'string') throw new TypeError(`${ctx.endpoint?.name ?? 'endpoint'} declares contentType ${contentType} but its resolver returned ${typeof body}, not a string`)
  return { body, contentType }
}

/** An envelope-less answer rendered for this request (one that is not cached, so not kept as a StaticDocument). */
export function bodyResponse(rendered: { body: string; contentType: string }, ctx: FormatContext, head: boolean, header: HeaderReader): Response {
  ctx.headers['content-type'] = rendered.contentType
  return new PlainResponse(encodeBody(rendered.body, ctx.headers, header, head), { status: 200, statusText: 'OK', headers: ctx.headers })
}

/**
 * 304: the headers the 200 would have had that caches update from (Cache-Control,
 * ETag, Vary) and the layers' (rate limit), no body, and so no Content-Type or
 * Content-Encoding (RFC 9110 §15.4.5).
 */
export function notModified(headers: Record<string, string>): Response {
  if (compressible(headers['content-type']) && !headers['cache-control']?.includes('no-store')) varyStored(headers)
  delete headers['content-type']
  delete headers['content-encoding']
  return new PlainResponse(null, { status: 304, statusText: 'Not Modified', headers })
}

/**
 * A document kept rendered and compressed (runtime/http/static-document.ts), with
 * the strong tag of the coding it goes in; If-None-Match with that tag is a 304.
 * The first request for a coding waits for it to be made; later ones do not.
 */
export function staticResponse(doc: StaticDocument, headers: Record<string, string>, head: boolean, header: HeaderReader): Response | Promise<Response> {
  headers['content-type'] = doc.contentType
  const coding: Coding = chooseCoding(doc.bytes.byteLength, headers, header)
  headers.etag = doc.tag(coding)
  if (coding !== 'identity') headers['content-encoding'] = coding
  if (noneMatch(header('if-none-match'), headers.etag)) return notModified(headers)
  if (head) return new PlainResponse(null, { status: 200, statusText: 'OK', headers })
  const body = doc.body(coding)
  return body instanceof Promise
    ? body.then((bytes) => new PlainResponse(bytes, { status: 200, statusText: 'OK', headers }))
    : new PlainResponse(body, { status: 200, statusText: 'OK', headers })
}

export interface ErrorResponseOptions {
  requestId: string
  format: Format
  formats: Formats
  pretty: boolean
  endpoint: AnyEndpoint | undefined
  /** Headers layers already set (rate limit), kept on errors. */
  headers: Record<string, string>
  /**
   * Already bound to the endpoint (the pipeline's log.child({ endpoint })): the
   * lines written here add no endpoint of their own, or it would be in them twice.
   */
  log: Logger
  head: boolean
  /** The request carried an Origin header (a browser): add the CORS headers. */
  cors: boolean
  /** Request headers (Accept-Encoding: a large error body is compressed too). */
  header: HeaderReader
  /** The envelope's timestamp: the app clock's now (runtime/clock.ts). */
  timestamp: string
}

/** How a thrown value is reported to observers (metrics, access logs). */
export function errorInfo(thrown: unknown): { status: number; error: { code: string; upstream?: string; reason?: string } } {
  if (!(thrown instanceof ApiError)) return { status: 500, error: { code: 'internal_error' } }
  const { upstream, reason } = thrown.details as { upstream?: unknown; reason?: unknown }
  return {
    status: thrown.status,
    error: {
      code: thrown.code,
      ...(typeof upstream === 'string' ? { upstream } : {}),
      ...(typeof reason === 'string' ? { reason } : {}),
    },
  }
}

/** Any thrown value -> the error envelope; unknown errors are logged and hidden. */
export function errorResponse(thrown: unknown, options: ErrorResponseOptions): Response {
  let error: ApiError
  if (thrown instanceof ApiError) {
    error = thrown
    if (error.status >= 500) options.log.warn({ request_id: options.requestId, code: error.code, details: error.details }, error.message)
  } else {
    error = new InternalError()
    options.log.error({ request_id: options.requestId, err: thrown }, 'unhandled error')
  }
  const envelope = errorEnvelope(error.code, error.message, error.details, options.requestId, options.timestamp)
  const format = options.format.error ? options.format : options.formats.json
  const headers = { ...options.headers, ...baseHeaders(options.requestId, format.contentType, options.cors), 'cache-control': 'no-store', ...error.headers }
  const ctx: FormatContext = { pretty: options.pretty, endpoint: options.endpoint, headers }
  const body = format.error ? format.error(envelope, ctx) : JSON.stringify(envelope, null, options.pretty ? 2 : undefined)
  return new PlainResponse(encodeBody(body, headers, options.header, options.head), { status: error.status, statusText: STATUS_CODES[error.status] ?? '', headers })
}
