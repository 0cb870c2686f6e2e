import { STATUS_CODES } from 'node:http'
import type { H3Event } from 'h3'
import type { Logger } from 'pino'
import type { Call, Layer, LayerStage, MaybePromise, RecentInput, Step } from './call.ts'
import { isPending } from './call.ts'
import { anonymousPrincipal, clientIp } from './client-ip.ts'
import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { Controls } from './controls.ts'
import { DEFAULT_CONTROLS, parseControls } from './controls.ts'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { FormatContext } from './define-format.ts'
import type { DataEncoder, Pricer, RequestObserver, RequestRecord, Resolver, UpstreamRegistry } from './define-plugin.ts'
import type { SuccessMeta } from './envelope.ts'
import { errorEnvelope, successEnvelope } from './envelope.ts'
import { ApiError, ClientClosedError, InternalError } from './errors.ts'
import { raceDeadline } from './deadline.ts'
import { readBody, rawInput, validateInput } from './input.ts'
import type { Invoker } from './resolver-context.ts'
import { CallContext } from './resolver-context.ts'
import type { Formats } from './respond.ts'
import { baseHeaders, bodyResponse, documentBody, errorInfo, errorResponse, notModified, rawBody, staticResponse, successResponse } from './respond.ts'
import { noneMatch, weakTag } from './http/entity-tag.ts'
import { PlainResponse } from './http/plain-response.ts'
import { acceptsNdjson, ndjsonResponse } from './http/ndjson.ts'
import { pageLinks } from './http/page-links.ts'
import { StaticDocuments } from './http/static-document.ts'
import { defineShaper } from './endpoint-shaper.ts'
import { pagingReader } from './paging-reader.ts'
import { hasShaping } from './shape.ts'
import { Streamed } from './streamed.ts'
import { decodedAt, holdsEncoded } from './encoded-json.ts'
import type { CpuPool } from './cpu/cpu-pool.ts'
import { Rendered, defineOffload } from './cpu/offload.ts'

export interface PipelineDeps {
  config: Config
  log: Logger
  layers: readonly Layer[]
  upstreams: Readonly<Partial<UpstreamRegistry>>
  formats: Formats
  formatNames: ReadonlySet<string>
  nextId: () => string
  /** The app's clock (ctx.clock) and its now as ISO text (envelope timestamps). */
  clock: Clock
  isoNow: () => string
  /** All observers in one function; undefined when there are none (no timing cost). */
  observe: RequestObserver | undefined
  /** Runs another endpoint for ctx.invoke (runtime/invoke.ts). */
  invoke: Invoker
  /** Worker threads for endpoints marked `offload`; undefined: they run here, like any other. */
  cpu?: CpuPool | undefined
}

const NO_QUERY = new URLSearchParams()

export const STAGE_ORDER: readonly LayerStage[] = ['auth', 'limit', 'cache']

function report(observe: RequestObserver, call: RuntimeCall, status: number, started: number, error?: { code: string; upstream?: string; reason?: string }): void {
  try {
    const record: RequestRecord = {
      requestId: call.requestId,
      endpoint: call.endpoint.name,
      tag: call.endpoint.tag,
      method: call.request.method,
      path: call.url.pathname,
      client: call.caller.ip,
      status,
      durationMs: performance.now() - started,
      cache: status < 400 ? call.cache : null,
      tier: call.caller.tier,
    }
    if (error) record.error = error
    observe(record)
  } catch {
    // Operations must never break an answer.
  }
}

/**
 * srvx's request.headers.get() makes Node build its whole lowercased headers
 * object; scanning rawHeaders for the one header a layer wants is cheaper.
 */
function headerReader(event: H3Event): (name: string) => string | null {
  const raw = event.runtime?.node?.req.rawHeaders
  if (!raw) return (name) => event.req.headers.get(name)
  return (name) => {
    let found: string | null = null
    for (let i = 0; i < raw.length; i += 2) {
      const key = raw[i]!
      if (key.length === name.length && key.toLowerCase() === name) found = found === null ? raw[i + 1]! : `${found}, ${raw[i + 1]!}`
    }
    return found
  }
}

/**
 * A connection's peer does not change while it carries requests: without trusted
 * proxies (whose X-Forwarded-For is read per request) the caller's address and
 * rate-limit principal are worked out once per connection, and every request on
 * it keys the rate-limit windows with the same string (its hash computed once).
 * Keyed by the socket, gone with it.
 */
const peers = new WeakMap<object, { ip: string; principal: string }>()

function peerOf(event: H3Event): { ip: string; principal: string } | undefined {
  const socket = event.runtime?.node?.req.socket
  if (socket === undefined) return undefined
  let peer = peers.get(socket)
  if (peer === undefined) {
    const ip = clientIp(event.req.ip, null, [])
    peer = { ip, principal: anonymousPrincipal(ip) }
    peers.set(socket, peer)
  }
  return peer
}

/** Validated inputs kept per endpoint (createEndpointHandler's recentInputs), and the longest path+query kept. */
export const RECENT_INPUTS = 512
export const RECENT_INPUT_KEY_CHARS = 256

/** True when every value is a string, number, boolean, null or undefined: a shallow copy is a whole copy. */
function plainValues(input: Record<string, unknown>): boolean {
  for (const name in input) {
    const value = input[name]
    if (typeof value === 'object' && value !== null) return false
    if (typeof value === 'function') return false
  }
  return true
}

/** Per-request state the runtime keeps beside what layers see. */
interface RuntimeCall extends Call {
  controls: Controls
  controlsError: unknown
  routeParams: Record<string, string> | undefined
  url: URL
  /** The path and query as sent (url.pathname + url.search), made once: the recent-input key, the ETag's target, links.self. */
  target: string
  recent: RecentInput | undefined
}

function stepsFor(endpoint: AnyEndpoint, layers: readonly Layer[], stage: LayerStage): Step[] {
  return layers.filter((l) => l.stage === stage).flatMap((l) => l.forEndpoint(endpoint) ?? [])
}

/**
 * Compiles one descriptor into its request handler: layers and lookups resolved
 * once, here. `pricer`: the cost of a call from its input, for endpoints with
 * `inputCost` (api.price). `encoder`: the plugin's JSON encoder of the data
 * (api.encodeJson).
 */
export function createEndpointHandler(
  endpoint: AnyEndpoint,
  resolver: Resolver,
  deps: PipelineDeps,
  pricer?: Pricer,
  encoder?: DataEncoder,
): (event: H3Event) => Response | Promise<Response> {
  const { config, formats, formatNames, nextId, isoNow } = deps
  const log = deps.log.child({ endpoint: endpoint.name })
  const shape_ = endpoint.params.shape as Record<string, unknown>
  const claimed = new Set(Object.keys(shape_))
  const queryKeys = Object.keys(shape_).filter((k) => k !== 'body')
  const shaper = defineShaper(endpoint)
  const category = endpoint.tag
  const wrapped = endpoint.envelope !== false
  const documentType = endpoint.contentType
  const cacheable = endpoint.cache !== false
  const ownPaging = endpoint.pagination && pagingReader(endpoint.pagination)
  const preEncoded = endpoint.preEncoded
  // Envelope-less answers of a cached endpoint carry no request id, time or tier:
  // the same bytes for everyone, so they are rendered, tagged and compressed once.
  const documents = !wrapped && cacheable ? new StaticDocuments() : undefined
  // Cached endpoints' answers carry an ETag and answer If-None-Match with 304 (GET
  // and its HEAD; on another method a failed precondition would be a 412).
  const tagged = cacheable && endpoint.method === 'GET'
  // meta without pagination or staleness takes a handful of values per endpoint
  // (cache x tier): one frozen object each, so formats can memoize its text.
  const metas = new Map<string, { hit: SuccessMeta; miss: SuccessMeta }>()
  const plainMeta = (cache: 'hit' | 'miss', tier: string): SuccessMeta => {
    let byCache = metas.get(tier)
    if (byCache === undefined) {
      byCache = {
        hit: Object.freeze({ cache: 'hit', category, endpoint: endpoint.name, tier }),
        miss: Object.freeze({ cache: 'miss', category, endpoint: endpoint.name, tier }),
      }
      metas.set(tier, byCache)
    }
    return byCache[cache]
  }

  // The input of a call with no parameters at all is the same every time (the
  // schema's defaults): validated once, then copied (a resolver may not share it).
  let emptyInput: Record<string, unknown> | undefined
  const validateRaw = (raw: Record<string, unknown>): Record<string, unknown> => {
    for (const _ in raw) return validateInput(endpoint.params, raw)
    emptyInput ??= validateInput(endpoint.params, raw)
    return { ...emptyInput }
  }
  // Validation is a function of the path and query alone (a descriptor's schema
  // reads nothing else: no clock, no config), so the inputs of recent calls are
  // kept by path and query, and the same question asked again (a popular name, a
  // cache hit) skips the schema: ~1.5 µs of a ~30 µs DNS cache hit (bench/RESULTS.md).
  // Kept only when every value is plain (so the copy each call gets is a whole
  // copy: a resolver cannot change what the next call gets), for paths of up to
  // RECENT_INPUT_KEY_CHARS, RECENT_INPUTS per endpoint, oldest out first: a client
  // sending endless distinct paths costs one Map insert and delete per request,
  // and what is kept stays under ~0.3 MiB per endpoint (a key and its input are
  // each at most ~256 characters). Refused inputs are never kept.
  // The kept entry also holds the question's key once made (runtime/question-key.ts).
  const recentInputs = new Map<string, RecentInput>()
  // Not async: an endpoint without a body validates synchronously (a throw here
  // still rejects, as run() is awaited inside the handler's try).
  const validate: Step = endpoint.body
    ? async (call, next) => {
        const c = call as RuntimeCall
        if (c.controlsError !== undefined) throw c.controlsError
        const raw = rawInput(endpoint, queryKeys, c.routeParams, c.url.search.length > 1 ? c.url.searchParams : NO_QUERY)
        raw.body = await readBody(call.request, endpoint.body!)
        call.input = validateInput(endpoint.params, raw)
        return next()
      }
    : (call, next) => {
        const c = call as RuntimeCall
        if (c.controlsError !== undefined) throw c.controlsError
        const key = c.url.search.length > 1 ? c.target : c.url.pathname
        const kept = key.length <= RECENT_INPUT_KEY_CHARS ? recentInputs.get(key) : undefined
        if (kept !== undefined) {
          call.input = { ...kept.input }
          c.recent = kept
          return next()
        }
        // url.searchParams builds a full WHATWG URL on srvx (~30 µs per request,
        // measured); most calls have no query string at all.
        const input = validateRaw(rawInput(endpoint, queryKeys, c.routeParams, c.url.search.length > 1 ? c.url.searchParams : NO_QUERY))
        if (key.length <= RECENT_INPUT_KEY_CHARS && plainValues(input)) {
          if (recentInputs.size >= RECENT_INPUTS) recentInputs.delete(recentInputs.keys().next().value!)
          c.recent = { input: { ...input }, key: undefined }
          recentInputs.set(key, c.recent)
        }
        call.input = input
        return next()
      }

  // Endpoints that reach upstreams get a deadline; pure computations cannot hang
  // and skip the timer.
  const deadlineMs = endpoint.upstreams?.length ? config.requestTimeoutMs : undefined
  const resolve = (call: Call): MaybePromise<unknown> => {
    const ctx = new CallContext(call, deps, log, deadlineMs !== undefined)
    const work = resolver(call.input, ctx)
    // A computed answer (no upstream) is returned as it came: no promise, no timer.
    if (deadlineMs === undefined || !isPending(work)) return work
    return raceDeadline(work, deadlineMs, () => ctx.abort(new Error('request deadline passed')))
  }

  // Offloaded (descriptor `offload`): after auth and rate limit, a CPU worker runs
  // the rest of this same pipeline (validation, resolver, format) and sends back
  // the rendered answer. Such endpoints are never cached (runtime/registry.ts).
  const offloaded = endpoint.offload && deps.cpu ? defineOffload(endpoint, deps.cpu, () => deps.clock.now()) : undefined
  // A cost that depends on the input (descriptor `inputCost`) is known once the
  // input is: validation runs first, then the price, then the rate limit charges it.
  if (endpoint.inputCost !== undefined && pricer === undefined) throw new Error(`${endpoint.name} has an inputCost but no price (api.price)`)
  const price: Step | undefined =
    pricer &&
    ((call, next) => {
      const cost = pricer(call.input, call.caller)
      if (!Number.isSafeInteger(cost) || cost < 0) throw new Error(`the price of ${endpoint.name} is ${cost}, not a whole number of units >= 0`)
      call.cost = cost
      return next()
    })
  const steps: Step[] = price
    ? [...stepsFor(endpoint, deps.layers, 'auth'), validate, price, ...stepsFor(endpoint, deps.layers, 'limit'), ...stepsFor(endpoint, deps.layers, 'cache')]
    : [
        ...stepsFor(endpoint, deps.layers, 'auth'),
        ...stepsFor(endpoint, deps.layers, 'limit'),
        ...(offloaded ? [] : [validate, ...stepsFor(endpoint, deps.layers, 'cache')]),
      ]
  const last = offloaded ? (call: Call) => offloaded(call, (call as RuntimeCall).url, (call as RuntimeCall).routeParams) : resolve
  const run = (call: Call, index: number): MaybePromise<unknown> =>
    index < steps.length ? steps[index]!(call, () => run(call, index + 1)) : last(call)

  const observe = deps.observe
  const errorHooks = deps.layers.filter((l) => l.onError !== undefined)
  // Error path only: layers may add headers or replace the error (a refused call
  // still counts against a rate limit). A hook that fails keeps the error it got.
  const settle = async (call: Call, thrown: unknown): Promise<unknown> => {
    let error = thrown
    for (const layer of errorHooks) error = await layer.onError!(call, error).catch(() => error)
    return error
  }

  /** The answer to a call that produced its data: shaped, enveloped, formatted. */
  const succeed = (call: RuntimeCall, data: unknown, started: number): Response | Promise<Response> => {
    const { controls, url } = call
    const format = formats.get(controls.format) ?? formats.json
    const head = call.request.method === 'HEAD'
    const headers = baseHeaders(call.requestId, format.contentType, call.header('origin') !== null)
    for (const name in call.headers) headers[name] = call.headers[name]!
    headers['cache-control'] ??= 'no-store'
    const ctx: FormatContext = { pretty: controls.pretty, endpoint, headers }
    if (!wrapped) {
      const render = () => (documentType ? documentBody(data, documentType, ctx) : rawBody(data, format, formats, ctx))
      if (documents === undefined) {
        const response = bodyResponse(render(), ctx, head, call.header)
        if (observe) report(observe, call, 200, started)
        return response
      }
      const representation = documentType ? '' : `${format.raw ? format.name : 'json'}${controls.pretty ? ' pretty' : ''}`
      const response = staticResponse(documents.get(data, representation, render), headers, head, call.header)
      if (observe) {
        if (response instanceof Promise) void response.then((r) => report(observe, call, r.status, started), () => {})
        else report(observe, call, response.status, started)
      }
      return response
    }
    const shaping = hasShaping(controls)
    // A list answered as JSON bytes (descriptor `preEncoded`) goes out as it is
    // only where nothing reads it: a format that splices it, no pretty printing,
    // no shaping; anything else works on the list decoded.
    let encodedKey: string | undefined
    if (preEncoded !== undefined && holdsEncoded(data, preEncoded)) {
      if (format.spliced !== undefined && !controls.pretty && !shaping) encodedKey = preEncoded
      else data = decodedAt(data, preEncoded)
    }
    const shaped = shaper(data, controls)
    if (tagged) {
      // After shaping, so a request shaping refuses (400) is never a 304.
      const etag = weakTag(data, call.caller.tier, call.target)
      if (etag !== undefined) {
        headers.etag = etag
        if (noneMatch(call.header('if-none-match'), etag)) {
          if (observe) report(observe, call, 304, started)
          return notModified(headers)
        }
      }
    }
    ctx.stableData = cacheable && !shaping
    // The plugin's encoder knows the resolver's data, not a shaped copy of it.
    if (encoder !== undefined && shaped.data === data && encodedKey === undefined) ctx.encodeData = encoder as (data: unknown) => string
    // Paged by the list controls, or by the endpoint itself (descriptor `pagination`).
    const pagination = shaped.pagination ?? (ownPaging ? ownPaging(data) : undefined)
    let meta: SuccessMeta | undefined
    if (controls.includeMeta) {
      if (call.stale || pagination) {
        meta = { cache: call.cache, category, endpoint: endpoint.name, tier: call.caller.tier }
        if (call.stale) meta.stale = call.stale
        if (pagination) meta.pagination = pagination
      } else {
        meta = plainMeta(call.cache, call.caller.tier)
      }
    }
    const self = controls.includeLinks ? call.target : undefined
    const envelope = successEnvelope(shaped.data, meta, self, call.requestId, isoNow())
    const link = pagination ? pageLinks(url.pathname, url.search, pagination) : undefined
    const response = successResponse(envelope, format, ctx, head, call.header, link, encodedKey)
    if (observe) report(observe, call, 200, started)
    return response
  }

  /** Any failure, from any stage or from building the answer: the error envelope. */
  const fail = async (call: RuntimeCall, thrown: unknown, started: number): Promise<Response> => {
    // Work cut short because the client left (its signal aborted) may throw
    // anything on the way out: that is the client going, not a bug (no 500, no
    // error log).
    const reason = !(thrown instanceof ApiError) && call.request.signal.aborted ? new ClientClosedError() : thrown
    const error = errorHooks.length ? await settle(call, reason) : reason
    if (observe) {
      const info = errorInfo(error)
      report(observe, call, info.status, started, info.error)
    }
    const controls = call.controls
    return errorResponse(error, {
      requestId: call.requestId,
      format: formats.get(controls.format) ?? formats.json,
      formats,
      pretty: controls.pretty,
      endpoint,
      headers: call.headers,
      log,
      head: call.request.method === 'HEAD',
      cors: call.header('origin') !== null,
      header: call.header,
      timestamp: isoNow(),
    })
  }

  /** A worker's answer: its headers, then the ones layers set here (rate limit). */
  const sendRendered = (call: RuntimeCall, rendered: Rendered, started: number): Response => {
    const headers = { ...rendered.headers }
    for (const name in call.headers) headers[name] = call.headers[name]!
    if (observe) report(observe, call, rendered.status, started)
    return new PlainResponse(rendered.body, { status: rendered.status, statusText: STATUS_CODES[rendered.status] ?? '', headers })
  }

  /**
   * A Streamed answer (runtime/streamed.ts): NDJSON lines as its items finish when
   * the endpoint streams and the request asks for it (Accept, and no format=);
   * otherwise the whole data once its producer is done, answered like any other.
   */
  const streamAnswer = (call: RuntimeCall, data: Streamed, started: number): Response | Promise<Response> => {
    const explicitFormat = call.url.search.length > 1 && call.url.searchParams.has('format')
    if (endpoint.stream === undefined || explicitFormat || !acceptsNdjson(call.header('accept'))) {
      return data.whole(call.request.signal).then(
        (whole) => answer(call, whole, started),
        (thrown: unknown) => fail(call, thrown, started),
      )
    }
    const shapeLine = shaper.line(call.controls)
    const headers = baseHeaders(call.requestId, 'application/x-ndjson', call.header('origin') !== null)
    for (const name in call.headers) headers[name] = call.headers[name]!
    headers['cache-control'] ??= 'no-store'
    return ndjsonResponse({
      headers,
      header: call.header,
      produce: data.produce,
      line: shapeLine ? (item) => JSON.stringify(shapeLine(item)) : (item) => JSON.stringify(item),
      plain: !shapeLine,
      failure: (thrown) => {
        // The status went out with the first line: the error is the last line, as its envelope.
        const error = thrown instanceof ApiError ? thrown : new InternalError()
        if (!(thrown instanceof ApiError)) log.error({ request_id: call.requestId, err: thrown }, 'unhandled error')
        return JSON.stringify(errorEnvelope(error.code, error.message, error.details, call.requestId, isoNow()))
      },
      signal: call.request.signal,
      done: observe ? () => report(observe, call, 200, started) : undefined,
    })
  }

  const answer = (call: RuntimeCall, data: unknown, started: number): Response | Promise<Response> => {
    try {
      if (data instanceof Rendered) return sendRendered(call, data, started)
      if (data instanceof Streamed) return streamAnswer(call, data, started)
      const response = succeed(call, data, started)
      // A kept document's coding failing to be made (static-document.ts) fails like any other answer.
      return response instanceof Promise ? response.catch((thrown: unknown) => fail(call, thrown, started)) : response
    } catch (thrown) {
      return fail(call, thrown, started)
    }
  }

  // Not async: when every stage answers synchronously the Response is returned
  // directly, and the request costs no promise at all.
  return (event) => {
    const started = observe ? performance.now() : 0
    const request = event.req
    const url = event.url
    const header = headerReader(event)
    const peer = config.trustProxy.length === 0 ? peerOf(event) : undefined
    const ip = peer?.ip ?? clientIp(request.ip, config.trustProxy.length ? header('x-forwarded-for') : null, config.trustProxy)
    const call: RuntimeCall = {
      endpoint,
      requestId: nextId(),
      request,
      header,
      caller: { tier: 'anonymous', ip, principal: peer?.principal ?? anonymousPrincipal(ip) },
      input: {},
      cache: 'miss',
      ttl: undefined,
      maxAge: undefined,
      headers: {},
      controls: DEFAULT_CONTROLS,
      controlsError: undefined,
      routeParams: event.context.params,
      url,
      target: url.pathname + url.search,
      recent: undefined,
    }
    if (url.search.length > 1) {
      try {
        call.controls = parseControls(url.searchParams, formatNames, claimed)
      } catch (error) {
        // Reported at the validate stage (after auth and rate limit), rendered in
        // the requested format when that one at least is valid.
        call.controlsError = error
        const f = url.searchParams.get('format')?.toLowerCase()
        call.controls = { ...DEFAULT_CONTROLS, format: f && formatNames.has(f) ? f : 'json' }
      }
    }
    let data: unknown
    try {
      data = run(call, 0)
    } catch (thrown) {
      return fail(call, thrown, started)
    }
    if (isPending(data)) {
      return Promise.resolve(data).then(
        (resolved) => answer(call, resolved, started),
        (thrown: unknown) => fail(call, thrown, started),
      )
    }
    return answer(call, data, started)
  }
}
