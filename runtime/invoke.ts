import type { Logger } from 'pino'
import type { z } from 'zod'
import type { Call, Layer, MaybePromise, Step } from './call.ts'
import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { InvokeOptions, Invoked, Resolver, ResolverContext, UpstreamRegistry } from './define-plugin.ts'
import { toSeconds } from './duration.ts'
import { DeadlineError } from './errors.ts'
import { validateInput } from './input.ts'

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

/** Who invokes: the call it belongs to and the signal its work runs under. */
export interface InvokeParent {
  call: Call
  signal: AbortSignal
}

export type Invoker = (parent: InvokeParent, endpoint: AnyEndpoint, input: Readonly<Record<string, unknown>>, options?: InvokeOptions) => Promise<Invoked<unknown>>

interface Target {
  endpoint: AnyEndpoint
  resolver: Resolver
  steps: Step[]
  /** The descriptor's TTL in seconds; 0 when it is never cached. */
  ttl: number
}

/** The context an invoked resolver gets: the parent's caller, its own signal and TTL. */
class InvokedContext implements ResolverContext {
  readonly upstreams: Readonly<Partial<UpstreamRegistry>>
  readonly config: Config
  readonly log: Logger
  readonly signal: AbortSignal
  readonly clock: Clock
  readonly #call: Call
  readonly #invoke: Invoker

  constructor(call: Call, signal: AbortSignal, deps: InvokerDeps, invoke: Invoker) {
    this.#call = call
    this.signal = signal
    this.upstreams = deps.upstreams
    this.config = deps.config
    this.clock = deps.clock
    this.log = deps.log.child({ endpoint: call.endpoint.name, invoked: true })
    this.#invoke = invoke
  }

  get caller(): Readonly<Call['caller']> {
    return this.#call.caller
  }

  lowerTtl(seconds: number): void {
    const call = this.#call
    call.ttl = call.ttl === undefined ? seconds : Math.min(call.ttl, seconds)
  }

  invoke<E extends AnyEndpoint>(endpoint: E, input: Readonly<Record<string, unknown>>, options?: InvokeOptions): Promise<Invoked<z.input<E['data']>>> {
    return this.#invoke({ call: this.#call, signal: this.signal }, endpoint, input, options) as Promise<Invoked<z.input<E['data']>>>
  }
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
    target = { endpoint, resolver, steps, ttl: endpoint.cache === false ? 0 : toSeconds(endpoint.cache.ttl) }
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
    const deadline = options.timeoutMs === undefined ? undefined : new AbortController()
    const signals = [parent.signal, options.signal, deadline?.signal].filter((s): s is AbortSignal => s !== undefined)
    const ctx = new InvokedContext(call, signals.length === 1 ? signals[0]! : AbortSignal.any(signals), deps, invoke)
    const resolve = () => target.resolver(call.input, ctx)
    const run = (index: number): MaybePromise<unknown> => (index < target.steps.length ? target.steps[index]!(call, () => run(index + 1)) : resolve())

    let data: unknown
    if (deadline === undefined) data = await run(0)
    else {
      const ms = options.timeoutMs!
      let timer: NodeJS.Timeout | undefined
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          deadline.abort(new Error(`${endpoint.name} deadline passed`))
          reject(new DeadlineError(ms))
        }, ms)
      })
      try {
        data = await Promise.race([run(0), expired])
      } finally {
        clearTimeout(timer)
      }
    }
    // The cache layer says how long the answer stays fresh; without one, the
    // descriptor's TTL as the resolver lowered it.
    const ttl = target.ttl === 0 ? 0 : (call.maxAge ?? Math.max(0, Math.floor(Math.min(target.ttl, call.ttl ?? target.ttl))))
    const answer: Invoked<unknown> = { data, cache: call.cache, ttl }
    if (call.stale) answer.stale = call.stale
    return answer
  }
  return invoke
}
