import type { AnyEndpoint } from '../define-endpoint.ts'
import type { Format } from '../define-format.ts'
import type { Resolver } from '../define-plugin.ts'

// A work module is the part of a plugin the CPU pool's worker threads load: pure
// code with no setup (no sockets, no data files, no timers), so a worker can import
// it on its own. A plugin names it with api.work(new URL('./work.ts', import.meta.url));
// the app imports the same module on the main thread, where its resolvers serve
// the endpoints as api.resolve would (ctx.invoke, INFRALENS_CPU_WORKERS=0).

export interface WorkResolver {
  endpoint: AnyEndpoint
  resolve: Resolver
}

export interface WorkModule {
  /** Resolvers of endpoints marked `offload` (their descriptors say so). */
  resolvers?: readonly WorkResolver[]
  /** Formats the pool renders answers in: the same objects the plugin registers with api.format. */
  formats?: readonly Format[]
}

/** One resolver of a work module, typed by its descriptor like api.resolve. */
export function workResolver<E extends AnyEndpoint>(endpoint: E, resolve: Resolver<E>): WorkResolver {
  return { endpoint, resolve: resolve as Resolver }
}

export function defineWork(module: WorkModule): WorkModule {
  return Object.freeze(module)
}

/** True for a work module's default export (what api.work's URL must point at). */
export function isWorkModule(value: unknown): value is WorkModule {
  if (typeof value !== 'object' || value === null) return false
  const { resolvers, formats } = value as WorkModule
  return (resolvers === undefined || Array.isArray(resolvers)) && (formats === undefined || Array.isArray(formats))
}
