import type { Logger } from 'pino'
import type { Call, Layer, MaybePromise, Step } from './call.ts'
import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { Invoked, Resolver, UpstreamRegistry } from './define-plugin.ts'
import { toSeconds } from './duration.ts'
import { raceDeadline } from './deadline.ts'
import type { EndpointShaper } from './endpoint-shaper.ts'
import { defineShaper } from './endpoint-shaper.ts'
import { validateInput } from './input.ts'
import { pagingReader } from './paging-reader.ts'
import { Streamed } from './streamed.ts'
import type { Invoker, ResolverContextDeps } from './resolver-context.ts'
import { CallContext } from './resolver-context.ts'

// ctx.invoke: one endpoint's resolver answering through another endpoint's cache
// layer (a composite answer such as the domain report shares cache entries and
// in-flight work with the parts' own routes). Auth and rate limit belong to the
// request, not to its parts, so only the 'cache' stage runs.

export interface InvokerDeps {
  config: Config
  log: Logger
  layers: readonly Layer[]
  upstreams: Readonly<Partial<UpstreamRegistry>>
  endpoints: readonly AnyEndpoint[]
  resolvers: ReadonlyMap<string, Resolver>
  clock: Clock
}

interface Target {
  endpoint: AnyEndpoint
  resolver: Resolver
  steps: Step[]
  /** The descriptor's TTL in seconds; 0 when it is never cached. */
  ttl: number
  shaper: EndpointShaper
  /** Reads meta.pagination out of the data of an endpoint that pages itself (descriptor `pagination`). */
  ownPaging: ReturnType<typeof pagingReader> | undefined
}

export function createInvoker(deps: InvokerDeps): Invoker {
  const byName = new Map(deps.endpoints.map((e) => [e.name, e]))
  // Compiled on first use, so endpoints nobody invokes cost nothing. The cache
  // layer keeps its store and in-flight map per layer, not per step: a second
  // step for the same endpoint shares both with the route's.
  const targets = new Map<string, Target>()
  const targetOf = (endpoint: AnyEndpoint): Target => {
    let target = targets.get(endpoint.name)
    if (target) return target
    const resolver = deps.resolvers.get(endpoint.name)
    if (!resolver || byName.get(endpoint.name) === undefined) throw new Error(`ctx.invoke: "${endpoint.name}" is not an endpoint of this service`)
    const steps = deps.layers.filter((l) => l.stage === 'cache').flatMap((l) => l.forEndpoint(endpoint) ?? [])
    target = {
      endpoint,
      resolver,
      steps,
      ttl: endpoint.cache === false ? 0 : toSeconds(endpoint.cache.ttl),
      shaper: defineShaper(endpoint),
      ownPaging: endpoint.pagination && pagingReader(endpoint.pagination),
    }
    targets.set(endpoint.name, target)
    return target
  }

  const invoke: Invoker = async (parent, endpoint, raw, options = {}) => {
    const target = targetOf(endpoint)
    const input = validateInput(target.endpoint.params, { ...raw })
    const from = parent.call
    const call: Call = {
      endpoint: target.endpoint,
      requestId: from.requestId,
      request: from.request,
      header: from.header,
      caller: from.caller,
      input,
      cache: 'miss',
      ttl: undefined,
      maxAge: undefined,
      headers: {},
    }
    const timeoutMs = options.timeoutMs
    // The invoked work stops with its caller's, with options.signal, and at its own deadline.
    const aborts = options.signal === undefined ? [parent.signal] : [parent.signal, options.signal]
    const log = deps.log.child({ endpoint: call.endpoint.name, invoked: true })
    const ctx = new CallContext(call, contextDeps, log, timeoutMs !== undefined, aborts)
    const resolve = () => target.resolver(call.input, ctx)
    const run = (index: number): MaybePromise<unknown> => (index < target.steps.length ? target.steps[index]!(call, () => run(index + 1)) : resolve())

    // A streamed answer (runtime/streamed.ts) is wanted whole here, under the same deadline.
    const whole = async (): Promise<unknown> => {
      const data = await run(0)
      return data instanceof Streamed ? data.whole(ctx.signal) : data
    }
    const data: unknown =
      timeoutMs === undefined ? await whole() : await raceDeadline(whole(), timeoutMs, () => ctx.abort(new Error(`${endpoint.name} deadline passed`)))
    // The cache layer says how long the answer stays fresh; without one, the
    // descriptor's TTL as the resolver lowered it.
    const ttl = target.ttl === 0 ? 0 : (call.maxAge ?? Math.max(0, Math.floor(Math.min(target.ttl, call.ttl ?? target.ttl))))
    const answer: Invoked<unknown> = { data, cache: call.cache, ttl }
    if (call.stale) answer.stale = call.stale
    if (options.controls !== undefined) {
      const shaped = target.shaper(data, options.controls)
      answer.data = shaped.data
      const pagination = shaped.pagination ?? target.ownPaging?.(data)
      if (pagination !== undefined) answer.pagination = pagination
    }
    return answer
  }
  const contextDeps: ResolverContextDeps = { upstreams: deps.upstreams, config: deps.config, clock: deps.clock, invoke }
  return invoke
}
