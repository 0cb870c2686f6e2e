import { STATUS_CODES } from 'node:http'
import { FastResponse } from 'srvx'
import type { Logger } from 'pino'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { Format, FormatContext } from './define-format.ts'
import type { SuccessEnvelope } from './envelope.ts'
import { errorEnvelope } from './envelope.ts'
import { ApiError, InternalError } from './errors.ts'

// Building the HTTP response is the one place that knows about formats, status
// codes and headers. Responses are srvx FastResponse: returning the global
// Response makes srvx read the body as a web stream (notes/performance.md).

const EXPOSED = 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After, X-Cache, X-Total-Count'

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

export function successResponse(
  envelope: SuccessEnvelope,
  format: Format,
  ctx: FormatContext,
  head: boolean,
): Response {
  const body = format.success(envelope, ctx)
  return new FastResponse(head ? null : body, { status: 200, statusText: 'OK', headers: ctx.headers })
}

export function rawResponse(data: unknown, format: Format, formats: Formats, ctx: FormatContext, head: boolean): Response {
  const chosen = format.raw ? format : formats.json
  ctx.headers['content-type'] = chosen.contentType
  const body = chosen.raw ? chosen.raw(data, ctx) : JSON.stringify(data, null, ctx.pretty ? 2 : undefined)
  return new FastResponse(head ? null : body, { status: 200, statusText: 'OK', headers: ctx.headers })
}

/** A descriptor's own media type (contentType): the resolver's string is the body, as-is. */
export function documentResponse(body: unknown, contentType: string, ctx: FormatContext, head: boolean): Response {
  if (typeof body !== 'string') throw new TypeError(`${ctx.endpoint?.name ?? 'endpoint'} declares contentType ${contentType} but its resolver returned ${typeof body}, not a string`)
  ctx.headers['content-type'] = contentType
  return new FastResponse(head ? null : body, { status: 200, statusText: 'OK', headers: ctx.headers })
}

export interface ErrorResponseOptions {
  requestId: string
  format: Format
  formats: Formats
  pretty: boolean
  endpoint: AnyEndpoint | undefined
  /** Headers layers already set (rate limit), kept on errors. */
  headers: Record<string, string>
  log: Logger
  head: boolean
  /** The request carried an Origin header (a browser): add the CORS headers. */
  cors: boolean
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
    if (error.status >= 500) options.log.warn({ request_id: options.requestId, endpoint: options.endpoint?.name, code: error.code, details: error.details }, error.message)
  } else {
    error = new InternalError()
    options.log.error({ request_id: options.requestId, endpoint: options.endpoint?.name, err: thrown }, 'unhandled error')
  }
  const envelope = errorEnvelope(error.code, error.message, error.details, options.requestId, options.timestamp)
  const format = options.format.error ? options.format : options.formats.json
  const headers = { ...options.headers, ...baseHeaders(options.requestId, format.contentType, options.cors), 'cache-control': 'no-store', ...error.headers }
  const ctx: FormatContext = { pretty: options.pretty, endpoint: options.endpoint, headers }
  const body = format.error ? format.error(envelope, ctx) : JSON.stringify(envelope, null, options.pretty ? 2 : undefined)
  return new FastResponse(options.head ? null : body, { status: error.status, statusText: STATUS_CODES[error.status] ?? '', headers })
}
