import type { Logger } from 'pino'
import type { z } from 'zod'
import type { Call } from './call.ts'
import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { InvokeOptions, Invoked, ResolverContext, UpstreamRegistry } from './define-plugin.ts'

/** Who invokes (ctx.invoke, runtime/invoke.ts): the call it belongs to and the signal its work runs under. */
export interface InvokeParent {
  call: Call
  signal: AbortSignal
}

export type Invoker = (parent: InvokeParent, endpoint: AnyEndpoint, input: Readonly<Record<string, unknown>>, options?: InvokeOptions) => Promise<Invoked<unknown>>

/** What every resolver context of one service shares. */
export interface ResolverContextDeps {
  upstreams: Readonly<Partial<UpstreamRegistry>>
  config: Config
  clock: Clock
  /** Runs another endpoint for ctx.invoke (runtime/invoke.ts). */
  invoke: Invoker
}

/**
 * What a resolver gets, whether its endpoint answers a route (runtime/pipeline.ts)
 * or another resolver's ctx.invoke (runtime/invoke.ts). A class rather than an
 * object literal: a literal with a getter costs ~15 µs per request on this path
 * (measured), a prototype getter nothing.
 */
export class CallContext implements ResolverContext {
  readonly upstreams: Readonly<Partial<UpstreamRegistry>>
  readonly config: Config
  readonly log: Logger
  readonly clock: Clock
  readonly #call: Call
  readonly #deadline: AbortController | undefined
  readonly #aborts: readonly AbortSignal[] | undefined
  readonly #invoke: Invoker

  /**
   * `deadline`: the work has one, which abort() cancels. `aborts`: the signals
   * that cancel the work besides it; left out, the request's own (the client
   * going away), read only when a resolver asks for ctx.signal.
   */
  constructor(call: Call, deps: ResolverContextDeps, log: Logger, deadline: boolean, aborts?: readonly AbortSignal[]) {
    this.#call = call
    this.upstreams = deps.upstreams
    this.config = deps.config
    this.log = log
    this.clock = deps.clock
    this.#deadline = deadline ? new AbortController() : undefined
    this.#aborts = aborts
    this.#invoke = deps.invoke
  }

  #signal: AbortSignal | undefined
  get signal(): AbortSignal {
    // Built on first use: only resolvers that pass it on pay for it.
    if (this.#signal === undefined) {
      const sources = this.#aborts ? [...this.#aborts] : [this.#call.request.signal]
      if (this.#deadline) sources.push(this.#deadline.signal)
      this.#signal = sources.length === 1 ? sources[0]! : AbortSignal.any(sources)
    }
    return this.#signal
  }

  /** The deadline passed: cancel whatever upstream work is still running. */
  abort(reason: Error): void {
    this.#deadline?.abort(reason)
  }

  get caller(): Readonly<Call['caller']> {
    return this.#call.caller
  }

  get requestId(): string {
    return this.#call.requestId
  }

  lowerTtl(seconds: number): void {
    const call = this.#call
    call.ttl = call.ttl === undefined ? seconds : Math.min(call.ttl, seconds)
  }

  invoke<E extends AnyEndpoint>(endpoint: E, input: Readonly<Record<string, unknown>>, options?: InvokeOptions): Promise<Invoked<z.input<E['data']>>> {
    return this.#invoke({ call: this.#call, signal: this.signal }, endpoint, input, options) as Promise<Invoked<z.input<E['data']>>>
  }
}
