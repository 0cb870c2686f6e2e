import type { Logger } from 'pino'
import type { Layer } from './call.ts'
import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { Format } from './define-format.ts'
import type { DataEncoder, Plugin, PluginApi, Pricer, RawRouteHandler, ReadinessCheck, RequestObserver, Resolver, UpstreamRegistry } from './define-plugin.ts'
import type { DnsClient } from './net/dns/dns-client.ts'
import type { GuardedNetwork } from './net/guarded-network.ts'
import { PluginError } from './plugins.ts'
import type { SharedRedis } from './shared-redis.ts'
import type { ClusterLink } from './cluster/worker-link.ts'

// The plugin host: runs each plugin's setup with a PluginApi of its own and
// collects what the plugins register (resolvers, upstreams, layers, formats,
// readiness checks, ...), refusing wiring mistakes as they happen. What becomes
// of the registrations (the pipeline, the routes) is runtime/app.ts's business.

/** The service's shared parts every plugin is given. */
export interface PluginHostDeps {
  config: Config
  log: Logger
  clock: Clock
  dns: DnsClient
  network: GuardedNetwork
  redis: SharedRedis | undefined
  endpoints: readonly AnyEndpoint[]
  /** The line to the cluster's primary, in a cluster worker. */
  cluster: ClusterLink | undefined
}

/** Everything registered so far, each kind in the order it was registered. */
export interface Registrations {
  resolvers: Map<string, Resolver>
  /** Prices of the endpoints whose cost depends on their input (descriptor `inputCost`). */
  pricers: Map<string, Pricer>
  /** Hand-written JSON encoders of endpoints' data (api.encodeJson). */
  encoders: Map<string, DataEncoder>
  upstreams: Partial<UpstreamRegistry>
  layers: Layer[]
  formats: Format[]
  checks: Array<{ name: string; check: ReadinessCheck }>
  closers: Array<() => Promise<void> | void>
  observers: RequestObserver[]
  rawRoutes: Map<string, RawRouteHandler>
  /** Work modules for the CPU pool (runtime/cpu/wire-cpu.ts). */
  workModules: URL[]
}

export function emptyRegistrations(): Registrations {
  return { resolvers: new Map(), pricers: new Map(), encoders: new Map(), upstreams: {}, layers: [], formats: [], checks: [], closers: [], observers: [], rawRoutes: new Map(), workModules: [] }
}

/** The PluginApi one plugin's setup gets: what it registers lands in `into`. */
function pluginApi(plugin: Plugin, deps: PluginHostDeps, known: ReadonlySet<string>, into: Registrations): PluginApi {
  const { config, log, clock, dns, network, redis, endpoints, cluster } = deps
  const { resolvers, pricers, encoders, upstreams, layers, formats, checks, closers, observers, rawRoutes, workModules } = into
  return {
    config,
    log: log.child({ plugin: plugin.name }),
    clock,
    dns,
    network,
    redis,
    cluster,
    endpoints: () => endpoints,
    resolve(endpoint, resolver) {
      if (!known.has(endpoint.name)) {
        throw new PluginError(`Plugin "${plugin.name}" registers a resolver for "${endpoint.name}", which has no descriptor under registry/`)
      }
      if (resolvers.has(endpoint.name)) throw new PluginError(`Two resolvers for "${endpoint.name}" (second from plugin "${plugin.name}")`)
      resolvers.set(endpoint.name, resolver as Resolver)
    },
    price(endpoint, pricer) {
      if (endpoint.inputCost === undefined) {
        throw new PluginError(`Plugin "${plugin.name}" prices "${endpoint.name}", whose descriptor has no inputCost (its cost is the descriptor's \`cost\`)`)
      }
      if (pricers.has(endpoint.name)) throw new PluginError(`Two prices for "${endpoint.name}" (second from plugin "${plugin.name}")`)
      pricers.set(endpoint.name, pricer as Pricer)
    },
    encodeJson(endpoint, encoder) {
      if (!known.has(endpoint.name)) throw new PluginError(`Plugin "${plugin.name}" registers a JSON encoder for "${endpoint.name}", which has no descriptor under registry/`)
      if (encoders.has(endpoint.name)) throw new PluginError(`Two JSON encoders for "${endpoint.name}" (second from plugin "${plugin.name}")`)
      encoders.set(endpoint.name, encoder as DataEncoder)
    },
    upstream(name, client) {
      if (name in upstreams) throw new PluginError(`Upstream "${String(name)}" is registered twice (second from plugin "${plugin.name}")`)
      upstreams[name] = client
    },
    work: (module) => void workModules.push(module),
    layer: (layer) => void layers.push(layer),
    format: (format) => void formats.push(format),
    readiness: (name, check) => void checks.push({ name, check }),
    readinessChecks: () => checks,
    onClose: (close) => void closers.push(close),
    observe: (observer) => void observers.push(observer),
    rawRoute(path, handler) {
      if (path.startsWith('/api/')) throw new PluginError(`Raw route ${path} would shadow the registry; /api/ belongs to descriptors`)
      if (rawRoutes.has(path)) throw new PluginError(`Raw route ${path} is registered twice`)
      rawRoutes.set(path, handler)
    },
  }
}

/**
 * Runs the plugins' setups one after the other, in the order given (dependencies
 * first: runtime/plugins.ts orderPlugins), adding what they register to `into`.
 */
export async function hostPlugins(plugins: readonly Plugin[], deps: PluginHostDeps, into: Registrations): Promise<Registrations> {
  const known = new Set(deps.endpoints.map((e) => e.name))
  for (const plugin of plugins) await plugin.setup(pluginApi(plugin, deps, known, into))
  return into
}

/**
 * Start-up fails loudly when the registrations do not cover the registry: a
 * descriptor without a resolver, an upstream no plugin provides, no json format.
 */
export function requireComplete(endpoints: readonly AnyEndpoint[], registered: Registrations): void {
  const missing = endpoints.filter((e) => !registered.resolvers.has(e.name)).map((e) => e.name)
  if (missing.length) throw new PluginError(`No resolver registered for: ${missing.join(', ')}`)
  const unpriced = endpoints.filter((e) => e.inputCost !== undefined && !registered.pricers.has(e.name)).map((e) => e.name)
  if (unpriced.length) throw new PluginError(`No price (api.price) registered for: ${unpriced.join(', ')}, whose cost depends on the input (inputCost)`)
  for (const e of endpoints) {
    for (const u of e.upstreams ?? []) {
      if (!(u in registered.upstreams)) throw new PluginError(`${e.name} needs upstream "${u}", which no plugin provides`)
    }
  }
  if (!registered.formats.some((f) => f.name === 'json')) throw new PluginError('No "json" format registered (the format plugin is missing)')
}
