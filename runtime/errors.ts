// The runtime's typed errors. Resolvers and layers throw these; the pipeline turns
// them into the error envelope. Anything else that escapes is a bug (500).

export type ErrorDetails = Record<string, unknown>

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details: ErrorDetails
  /** Extra response headers (Retry-After, Allow, ...). */
  readonly headers: Record<string, string>

  constructor(status: number, code: string, message: string, details: ErrorDetails = {}, headers: Record<string, string> = {}) {
    super(message)
    this.name = new.target.name
    this.status = status
    this.code = code
    this.details = details
    this.headers = headers
  }
}

/** 400: the caller sent something we cannot use; the message says what to fix. */
export class InputError extends ApiError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(400, 'bad_request', message, details)
  }
}

/** 404: the route is unknown, or the registry/upstream says the object does not exist. */
export class NotFoundError extends ApiError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(404, 'not_found', message, details)
  }
}

export type UpstreamReason = 'timeout' | 'refused' | 'reset' | 'bad_response' | 'http_error' | 'unavailable' | 'blocked' | 'network'

/** 502: an upstream data source failed; `upstream` names it, `reason` says how. */
export class UpstreamError extends ApiError {
  constructor(upstream: string, reason: UpstreamReason, message: string, details: ErrorDetails = {}) {
    super(502, 'upstream_error', message, { upstream, reason, ...details })
  }
}

export class InvalidApiKeyError extends ApiError {
  constructor(message: string) {
    super(401, 'invalid_api_key', message)
  }
}

export class RateLimitedError extends ApiError {
  /** `message`: what the caller should do; by default, wait or use a better key. */
  constructor(retryAfterSeconds: number, details: ErrorDetails, message = `Rate limit exceeded; retry in ${retryAfterSeconds} s or use an API key with a higher tier.`) {
    super(429, 'rate_limited', message, details, {
      'retry-after': String(retryAfterSeconds),
    })
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(413, 'payload_too_large', message, details)
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(method: string, allowed: readonly string[]) {
    super(405, 'method_not_allowed', `Method ${method} is not allowed here; use ${allowed.join(' or ')}.`, { allowed: [...allowed] }, {
      allow: allowed.join(', '),
    })
  }
}

/** 503: the service cannot answer yet (readiness probes, data not loaded). */
export class UnavailableError extends ApiError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(503, 'service_unavailable', message, details)
  }
}

/** 503 with Retry-After: the CPU pool's queue is full (runtime/cpu), a moment's overload rather than a fault. */
export class PoolBusyError extends ApiError {
  constructor(message: string, details: ErrorDetails = {}, retryAfterSeconds = 1) {
    super(503, 'service_unavailable', message, details, { 'retry-after': String(retryAfterSeconds) })
  }
}

/**
 * 499 (nginx's code): the client closed the connection before the answer was
 * ready. Nobody reads it but logs and metrics; it is no fault of the service, so
 * whatever the abandoned work threw on its way out is reported as this.
 */
export class ClientClosedError extends ApiError {
  constructor() {
    super(499, 'client_closed_request', 'The client closed the request before its answer was ready.')
  }
}

/** 504: the request's own deadline passed before its upstreams answered. */
export class DeadlineError extends ApiError {
  constructor(ms: number) {
    super(504, 'timeout', `The answer took longer than the ${ms} ms request deadline; try again, or ask for less.`, { timeout_ms: ms })
  }
}

export class InternalError extends ApiError {
  constructor() {
    super(500, 'internal_error', 'The service failed to answer this request; the error was logged with its request id.')
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError
}
