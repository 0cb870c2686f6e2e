import type { AnyEndpoint } from './define-endpoint.ts'

/** Where the caller stands against its rate limit, as the RateLimit-* headers say. */
export interface RateLimitState {
  limit: number
  remaining: number
  /** Seconds until the window refills. */
  resetSeconds: number
  windowSeconds: number
}

/** Who is calling, as auth and the client-IP rules see it. */
export interface Caller {
  tier: string
  ip: string
  /** Label of the API key, when a valid one was sent. */
  keyLabel?: string
  /** What rate limits count against: a key id, or the client's IPv4 address or IPv6 /64 (client-ip.ts). */
  principal: string
  rateLimit?: RateLimitState
}

/**
 * The state of one request as it moves through the pipeline. Layers read and
 * write it; resolvers never see it (they get a ResolverContext).
 */
export interface Call {
  readonly endpoint: AnyEndpoint
  readonly requestId: string
  readonly request: Request
  /** A request header (case-insensitive name), or null. Cheaper than request.headers on Node. */
  header(name: string): string | null
  caller: Caller
  /** Validated input (path params, endpoint query params, body). */
  input: Record<string, unknown>
  cache: 'hit' | 'miss'
  /** Set when a cached answer past its TTL is served because the upstream failed. */
  stale?: { reason: string; expired_at: string }
  /** Upper bound on freshness set by the resolver (seconds). */
  ttl: number | undefined
  /** Seconds the answer may be reused by clients; set by the cache layer. */
  maxAge: number | undefined
  /** Response headers contributed by layers (rate limit, cache). */
  readonly headers: Record<string, string>
  /**
   * What this call costs when its endpoint's cost depends on the input
   * (descriptor `inputCost`): set after validation, before the rate limit, by
   * the price the endpoint's plugin registered (api.price). Otherwise undefined,
   * and the descriptor's `cost` applies.
   */
  cost?: number
  /**
   * Set by the pipeline when the input was the one kept for a recent request with
   * the same path and query (a copy of it is `input`): runtime/question-key.ts
   * keeps the question's key here, made once. Layers use questionKey(call).
   */
  readonly recent?: RecentInput
}

/** A validated input kept by path and query, and the key of its question once made. */
export interface RecentInput {
  readonly input: Readonly<Record<string, unknown>>
  key: string | undefined
}

/** A value now, or later. */
export type MaybePromise<T> = T | Promise<T>

/**
 * One stage's work on a call; `next` runs the rest of the pipeline and yields data.
 * A step that has its answer at hand returns it as is: a request whose stages are
 * all synchronous (memory rate limit, memory cache hit, a computed answer) then
 * runs without a single promise, which is most of what a promise chain costs here.
 */
export type Step = (call: Call, next: () => MaybePromise<unknown>) => MaybePromise<unknown>

/** True for a promise (or any thenable) a step or resolver handed back. */
export function isPending(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function'
}

/** The pipeline positions a plugin layer may occupy (DESIGN §1 fixes their order). */
export type LayerStage = 'auth' | 'limit' | 'cache'

export interface Layer {
  name: string
  stage: LayerStage
  /** Called once per endpoint when routes are generated; undefined skips the endpoint. */
  forEndpoint(endpoint: AnyEndpoint): Step | undefined
  /**
   * Runs when a routed request ends in an error, whichever stage threw (so also
   * when an earlier stage refused it before this layer's step ran). May add
   * headers to call.headers; returns the error to answer with, the same or a
   * replacement. Never runs on a success.
   */
  onError?(call: Call, error: unknown): Promise<unknown>
  /**
   * Runs for requests no endpoint answers (unknown route 404, wrong method 405,
   * OPTIONS). `caller` is anonymous, by client IP (no auth ran); add headers to
   * `headers`.
   */
  unrouted?(caller: Readonly<Caller>, headers: Record<string, string>): Promise<void>
}

export function defineLayer(layer: Layer): Layer {
  return layer
}
