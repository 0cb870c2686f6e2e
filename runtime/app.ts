import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DestinationStream, Logger } from 'pino'
import type { Clock } from './clock.ts'
import { defineIsoNow, systemClock } from './clock.ts'
import type { Config } from './config.ts'
import { loadConfig } from './config.ts'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { Plugin, ReadinessCheck, RequestObserver } from './define-plugin.ts'
import { createLogger } from './logger.ts'
import { createDnsClient } from './net/dns/dns-client.ts'
import { dnsHostLookup } from './net/dns-host-lookup.ts'
import { guardDnsServers } from './net/dns-server-guard.ts'
import { createGuardedNetwork } from './net/guarded-network.ts'
import { createUpstreamGuard } from './net/upstream-guard.ts'
import { createInvoker } from './invoke.ts'
import type { ClusterLink } from './cluster/worker-link.ts'
import type { CpuPool } from './cpu/cpu-pool.ts'
import { wireCpu } from './cpu/wire-cpu.ts'
import { createSharedRedis } from './shared-redis.ts'
import type { PipelineDeps } from './pipeline.ts'
import { STAGE_ORDER, createEndpointHandler } from './pipeline.ts'
import { emptyRegistrations, hostPlugins, requireComplete } from './plugin-host.ts'
import { discoverPlugins, orderPlugins } from './plugins.ts'
import { loadRegistry } from './registry.ts'
import { createUlidFactory, cryptoDigits } from './ulid-factory.ts'
import type { Formats } from './respond.ts'
import { createRouteTable } from './route-table.ts'
import type { RecentRoutesH3 } from './recent-routes.ts'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

export interface AppOptions {
  /** Environment to read config from; defaults to process.env. */
  env?: Readonly<Record<string, string | undefined>>
  registryDirs?: readonly string[]
  pluginDirs?: readonly string[]
  /** Plugins beyond the discovered ones. */
  plugins?: readonly Plugin[]
  logStream?: DestinationStream
  /** Where every date comes from (runtime/clock.ts); the host's clock by default. */
  clock?: Clock
  /** In a cluster worker: the line to the primary (runtime/cluster/), for plugins as api.cluster. */
  cluster?: ClusterLink
}

export interface InfralensApp {
  /** The h3 app (routes kept by path: runtime/recent-routes.ts). */
  app: RecentRoutesH3
  config: Config
  endpoints: readonly AnyEndpoint[]
  log: Logger
  /** The request id factory; the server's own refusals (runtime/parser-errors.ts) draw from it too. */
  nextId: () => string
  clock: Clock
  /** The CPU pool of the endpoints marked offload; undefined without any, or with INFRALENS_CPU_WORKERS=0. */
  cpu: CpuPool | undefined
  /** Every readiness check (the plugins' and Redis's): /api/ready runs them, and a serving process before it listens (runtime/warm-up.ts). */
  readinessChecks: ReadonlyArray<{ name: string; check: ReadinessCheck }>
  close(): Promise<void>
}

/**
 * Builds the whole service: config, registry, plugins (hosted by
 * runtime/plugin-host.ts), one compiled handler per endpoint
 * (runtime/pipeline.ts) and the routes to them (runtime/route-table.ts). Throws
 * on any wiring mistake.
 */
export async function createApp(options: AppOptions = {}): Promise<InfralensApp> {
  const env = options.env ?? process.env
  const config = loadConfig(env)
  const clock = options.clock ?? systemClock
  const isoNow = defineIsoNow(clock)
  const log = createLogger(config.logLevel, options.logStream, isoNow)
  const registryDirs = options.registryDirs ?? [join(ROOT, 'registry')]
  const endpoints = await loadRegistry(registryDirs)
  const plugins = orderPlugins([...(await discoverPlugins(options.pluginDirs ?? [join(ROOT, 'plugins')])), ...(options.plugins ?? [])])

  // DNS queries use plain sockets, not the guarded network: they only ever go to the
  // configured resolvers (INFRALENS_DNS_RESOLVERS, IP literals), operator configuration
  // rather than client input, so there is no target to vet. Names a client sends are
  // only asked about, and the addresses they resolve to are vetted before any connection.
  const dns = createDnsClient({
    servers: config.dnsResolvers,
    timeoutMs: config.dnsTimeoutMs,
    retries: 1,
    // A breaker per resolver: one that keeps failing is skipped in favour of the next.
    guard: guardDnsServers(createUpstreamGuard({ threshold: config.breakerThreshold, openMs: config.breakerOpenMs, maxConcurrent: config.dnsConcurrency })),
  })
  const network = createGuardedNetwork({
    policy: { allowLoopback: config.allowPrivateTargets },
    lookup: dnsHostLookup(dns),
    guard: createUpstreamGuard({ threshold: config.breakerThreshold, openMs: config.breakerOpenMs, maxConcurrent: config.upstreamConcurrency }),
    ...(config.extraCaFile ? { extraCa: readFileSync(config.extraCaFile, 'utf8') } : {}),
  })

  const redis = config.redisUrl ? createSharedRedis(config.redisUrl, config.redisPrefix, log.child({ component: 'redis' })) : undefined

  const registered = emptyRegistrations()
  if (redis) {
    // Redis down degrades the service (each process on its own), it does not stop it.
    registered.checks.push({
      name: 'redis',
      check: async () => {
        try {
          await redis.ping()
        } catch (error) {
          return `shared cache and rate limits unavailable (${(error as Error).message}); this process answers on its own`
        }
      },
    })
  }
  const { resolvers, pricers, encoders, upstreams, layers, formats: formatList, closers, observers, rawRoutes, workModules } = await hostPlugins(
    plugins,
    { config, log, clock, dns, network, redis, endpoints, cluster: options.cluster },
    registered,
  )
  const cpu = await wireCpu({ modules: workModules, endpoints, resolvers, formats: formatList, config, env, registryDirs })
  if (cpu) closers.push(() => cpu.close())
  requireComplete(endpoints, registered)

  const json = formatList.find((f) => f.name === 'json')!
  const formatMap = new Map(formatList.map((f) => [f.name, f]))
  const formats: Formats = { get: (name) => formatMap.get(name), json }
  layers.sort((a, b) => STAGE_ORDER.indexOf(a.stage) - STAGE_ORDER.indexOf(b.stage))

  const nextId = createUlidFactory(cryptoDigits, () => clock.now())
  const observe: RequestObserver | undefined =
    observers.length === 0 ? undefined : observers.length === 1 ? observers[0] : (record) => observers.forEach((o) => o(record))
  const invoke = createInvoker({ config, log, layers, upstreams, endpoints, resolvers, clock })
  const deps: PipelineDeps = { config, log, layers, upstreams, formats, formatNames: new Set(formatMap.keys()), nextId, clock, isoNow, observe, invoke, cpu }

  const routes = endpoints.map((endpoint) => ({ endpoint, handler: createEndpointHandler(endpoint, resolvers.get(endpoint.name)!, deps, pricers.get(endpoint.name), encoders.get(endpoint.name)) }))
  const app = createRouteTable({ config, log, routes, rawRoutes, layers, formats, nextId, isoNow, observe })

  return {
    app,
    config,
    endpoints,
    log,
    nextId,
    clock,
    cpu,
    readinessChecks: registered.checks,
    async close() {
      for (const close of closers.reverse()) await close()
      await redis?.close()
      log.flush?.()
    },
  }
}
