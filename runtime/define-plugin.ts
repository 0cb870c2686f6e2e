import type { Logger } from 'pino'
import type { z } from 'zod'
import type { Caller, Layer } from './call.ts'
import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { Format } from './define-format.ts'
import type { Controls } from './controls.ts'
import type { Pagination } from './envelope.ts'
import type { DnsClient } from './net/dns/dns-client.ts'
import type { GuardedNetwork } from './net/guarded-network.ts'
import type { SharedRedis } from './shared-redis.ts'
import type { ClusterLink } from './cluster/worker-link.ts'
import type { EncodedJson } from './encoded-json.ts'
import type { Streamed } from './streamed.ts'

/**
 * Upstream clients by name. Plugins that provide one extend this interface
 * (declaration merging) so resolvers get typed clients:
 *   declare module '../../runtime/define-plugin.ts' { interface UpstreamRegistry { dns: DnsClient } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface UpstreamRegistry {}

export interface ResolverContext {
  upstreams: Readonly<Partial<UpstreamRegistry>>
  config: Config
  /** Aborted when the client goes away; pass it to upstream calls. */
  signal: AbortSignal
  log: Logger
  /** The service's clock: every date an answer depends on comes from it (runtime/clock.ts). */
  clock: Clock
  caller: Readonly<Caller>
  /** The request's id (X-Request-Id): what a resolver logs a failure of its own parts with. */
  readonly requestId: string
  /** Caps the cache TTL of this answer (e.g. at the smallest DNS TTL). */
  lowerTtl(seconds: number): void
  /**
   * Answers another endpoint's question from inside this resolver, through that
   * endpoint's cache layer: the same cache entries and in-flight coalescing as
   * its own route, no auth or rate limit (the calling endpoint's cost covers it).
   * `input` is raw, as a request would carry it (path and query params by name);
   * the target's params schema validates it (InputError otherwise).
   */
  invoke<E extends AnyEndpoint>(endpoint: E, input: Readonly<Record<string, unknown>>, options?: InvokeOptions): Promise<Invoked<z.input<E['data']>>>
}

export interface InvokeOptions {
  /** Aborts the invoked work as well (the caller's own signal always does). */
  signal?: AbortSignal
  /** The invoked answer's own deadline: its work is cancelled and it fails with 504 timeout. */
  timeoutMs?: number
  /**
   * Query controls for the answer, as a request to the endpoint's path would
   * carry them (runtime/controls.ts parseControls): sort/order, limit/offset and
   * fields/exclude shape `data` (a bad one is the InputError the route would
   * answer), and `pagination` says how it was paged. Without them, `data` is the
   * endpoint's whole answer (a cached one is shared: never change it).
   */
  controls?: Controls
}

export interface Invoked<T> {
  data: T
  cache: 'hit' | 'miss'
  /** Seconds the answer stays fresh (what is left of a cached one); 0 when it is not cached. */
  ttl: number
  /** Set when a stale cached answer stood in for a failing upstream (stale-if-error). */
  stale?: { reason: string; expired_at: string }
  /** How the controls paged it (options.controls with limit/offset), or how the endpoint pages itself. */
  pagination?: Pagination
}

/**
 * The data a resolver answers with: the schema's input type, where a top-level
 * list may also be given as its JSON bytes (descriptor `preEncoded`).
 */
export type AnswerData<D> = D extends readonly unknown[]
  ? D
  : D extends object
    ? { [K in keyof D]: D[K] extends readonly unknown[] ? D[K] | EncodedJson : D[K] }
    : D

/**
 * A resolver returns its data, or (for endpoints whose descriptor says `stream`)
 * a Streamed answer that yields the data in the end and its items on the way.
 */
export type Resolver<E extends AnyEndpoint = AnyEndpoint> = (
  input: z.output<E['params']>,
  ctx: ResolverContext,
) =>
  | Promise<AnswerData<z.input<E['data']>> | Streamed<AnswerData<z.input<E['data']>>>>
  | AnswerData<z.input<E['data']>>
  | Streamed<AnswerData<z.input<E['data']>>>

/**
 * The cost of one call of an endpoint whose descriptor has `inputCost`, from its
 * validated input and the caller (a tier may have its own bounds: a throw is the
 * call's error, answered before anything is charged but the refusal's 1 unit).
 */
export type Pricer<E extends AnyEndpoint = AnyEndpoint> = (input: z.output<E['params']>, caller: Readonly<Caller>) => number

/**
 * The compact JSON of a resolver's data, written by the plugin that made the data
 * (api.encodeJson): exactly what JSON.stringify(data) gives, without its cost. For
 * small answers built from text the plugin generated itself (ids, numbers), which
 * needs no escaping and no check for it.
 */
export type DataEncoder<E extends AnyEndpoint = AnyEndpoint> = (data: z.input<E['data']>) => string

/**
 * Throwing means not ready. Returning a string means ready but degraded (e.g. the
 * shared cache is away and the process runs on its own): reported, not failing.
 */
export type ReadinessCheck = () => Promise<void | string> | void | string

/** One finished request, as operations (logs, metrics) see it. */
export interface RequestRecord {
  requestId: string
  /** Descriptor name; null for requests no endpoint answered (404, 405). */
  endpoint: string | null
  tag: string | null
  method: string
  /**
   * The URL path as the service saw it, without the query string: text the client
   * chose, so whoever writes it out escapes it.
   */
  path: string
  /** The client address after trusted-proxy handling (runtime/client-ip.ts). */
  client: string
  status: number
  durationMs: number
  cache: 'hit' | 'miss' | null
  tier: string | null
  /** For error responses: the code, and for upstream errors which upstream and how. */
  error?: { code: string; upstream?: string; reason?: string }
}

/** Called synchronously after each response is built; must be cheap and never throw. */
export type RequestObserver = (record: RequestRecord) => void

/** An operational route outside the envelope (e.g. /metrics in Prometheus text). */
export type RawRouteHandler = () => Promise<{ contentType: string; body: string }> | { contentType: string; body: string }

/** What a plugin's setup may register. */
export interface PluginApi {
  readonly config: Config
  readonly log: Logger
  /** The service's clock (runtime/clock.ts): plugins read dates from it, never from Date.now(). */
  readonly clock: Clock
  /** The service's stub resolver, on the configured resolvers (INFRALENS_DNS_RESOLVERS). */
  readonly dns: DnsClient
  /** The only way out: vetted targets, pinned addresses, deadlines (DESIGN §3). */
  readonly network: GuardedNetwork
  /** Shared state across instances when REDIS_URL is set (DESIGN §4); undefined otherwise. */
  readonly redis: SharedRedis | undefined
  /**
   * In a cluster worker (INFRALENS_WORKERS > 1), the line to the primary: counters
   * it keeps for every worker, questions every worker answers (runtime/cluster/);
   * undefined in a single process.
   */
  readonly cluster: ClusterLink | undefined
  /** Every discovered descriptor (meta endpoints document the registry with it). */
  endpoints(): readonly AnyEndpoint[]
  resolve<E extends AnyEndpoint>(endpoint: E, resolver: Resolver<E>): void
  /** What a call of an endpoint with `inputCost` costs; every such endpoint needs one. */
  price<E extends AnyEndpoint>(endpoint: E, pricer: Pricer<E>): void
  /**
   * A hand-written JSON encoder for an endpoint's data (DataEncoder), used for the
   * compact JSON of answers that are not cached and not shaped; its output must be
   * JSON.stringify's own for every answer the resolver gives (test it so).
   */
  encodeJson<E extends AnyEndpoint>(endpoint: E, encoder: DataEncoder<E>): void
  /**
   * A work module (runtime/cpu/define-work.ts): pure code the CPU pool's workers
   * load, e.g. `new URL('./work.ts', import.meta.url)`. Its resolvers are
   * registered as api.resolve would (the endpoints marked `offload` need theirs
   * here); its formats are the ones workers render answers in.
   */
  work(module: URL): void
  upstream<K extends keyof UpstreamRegistry>(name: K, client: UpstreamRegistry[K]): void
  layer(layer: Layer): void
  format(format: Format): void
  /** A check /api/ready runs; throwing means not ready, with the error's message. */
  readiness(name: string, check: ReadinessCheck): void
  /** Every check registered so far (by all plugins), for the readiness endpoint. */
  readinessChecks(): ReadonlyArray<{ name: string; check: ReadinessCheck }>
  onClose(close: () => Promise<void> | void): void
  observe(observer: RequestObserver): void
  /** A GET route outside /api and outside the envelope, for operators (not in the registry). */
  rawRoute(path: string, handler: RawRouteHandler): void
}

export interface Plugin {
  name: string
  /** Plugins whose setup must run first. */
  dependencies?: readonly string[]
  setup(api: PluginApi): Promise<void> | void
}

export function definePlugin(plugin: Plugin): Plugin {
  return plugin
}
