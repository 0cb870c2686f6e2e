import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { H3 } from 'h3'
import type { H3Event } from 'h3'
import type { DestinationStream, Logger } from 'pino'
import { FastResponse } from 'srvx'
import type { Caller, Layer } from './call.ts'
import { anonymousPrincipal, clientIp } from './client-ip.ts'
import type { Clock } from './clock.ts'
import { defineIsoNow, systemClock } from './clock.ts'
import type { Config } from './config.ts'
import { loadConfig } from './config.ts'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { Format } from './define-format.ts'
import type { Plugin, PluginApi, RawRouteHandler, ReadinessCheck, RequestObserver, Resolver, UpstreamRegistry } from './define-plugin.ts'
import { MethodNotAllowedError, NotFoundError, InputError, ApiError } from './errors.ts'
import { createLogger } from './logger.ts'
import { createDnsClient } from './net/dns/dns-client.ts'
import { dnsHostLookup } from './net/dns-host-lookup.ts'
import { guardDnsServers } from './net/dns-server-guard.ts'
import { createGuardedNetwork } from './net/guarded-network.ts'
import { createUpstreamGuard } from './net/upstream-guard.ts'
import { createInvoker } from './invoke.ts'
import type { CpuPool } from './cpu/cpu-pool.ts'
import { wireCpu } from './cpu/wire-cpu.ts'
import { createSharedRedis } from './shared-redis.ts'
import type { PipelineDeps } from './pipeline.ts'
import { STAGE_ORDER, createEndpointHandler } from './pipeline.ts'
import { discoverPlugins, orderPlugins, PluginError } from './plugins.ts'
import { aliasPath, loadRegistry } from './registry.ts'
import { createUlidFactory, cryptoDigits } from './ulid-factory.ts'
import type { Formats } from './respond.ts'
import { baseHeaders, errorInfo, errorResponse } from './respond.ts'
import { encodeBody } from './http/content-coding.ts'

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
}

export interface InfralensApp {
  app: H3
  config: Config
  endpoints: readonly AnyEndpoint[]
  log: Logger
  /** The request id factory; the server's own refusals (runtime/parser-errors.ts) draw from it too. */
  nextId: () => string
  clock: Clock
  /** The CPU pool of the endpoints marked offload; undefined without any, or with INFRALENS_CPU_WORKERS=0. */
  cpu: CpuPool | undefined
  close(): Promise<void>
}

type Handler = (event: H3Event) => Promise<Response> | Response

/** Builds the whole service: config, registry, plugins, generated routes. Throws on any wiring mistake. */
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

  const resolvers = new Map<string, Resolver>()
  const upstreams: Partial<UpstreamRegistry> = {}
  const layers: Layer[] = []
  const formatList: Format[] = []
  const checks: Array<{ name: string; check: ReadinessCheck }> = []
  const closers: Array<() => Promise<void> | void> = []
  const observers: RequestObserver[] = []
  const rawRoutes = new Map<string, RawRouteHandler>()
  const workModules: URL[] = []
  if (redis) {
    // Redis down degrades the service (each process on its own), it does not stop it.
    checks.push({
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
  const known = new Set(endpoints.map((e) => e.name))

  for (const plugin of plugins) {
    const api: PluginApi = {
      config,
      log: log.child({ plugin: plugin.name }),
      clock,
      dns,
      network,
      redis,
      endpoints: () => endpoints,
      resolve(endpoint, resolver) {
        if (!known.has(endpoint.name)) {
          throw new PluginError(`Plugin "${plugin.name}" registers a resolver for "${endpoint.name}", which has no descriptor under registry/`)
        }
        if (resolvers.has(endpoint.name)) throw new PluginError(`Two resolvers for "${endpoint.name}" (second from plugin "${plugin.name}")`)
        resolvers.set(endpoint.name, resolver as Resolver)
      },
      upstream(name, client) {
        if (name in upstreams) throw new PluginError(`Upstream "${String(name)}" is registered twice (second from plugin "${plugin.name}")`)
        upstreams[name] = client
      },
      work: (module) => void workModules.push(module),
      layer: (layer) => void layers.push(layer),
      format: (format) => void formatList.push(format),
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
    await plugin.setup(api)
  }
  const cpu = await wireCpu({ modules: workModules, endpoints, resolvers, formats: formatList, config, env, registryDirs })
  if (cpu) closers.push(() => cpu.close())

  const missing = endpoints.filter((e) => !resolvers.has(e.name)).map((e) => e.name)
  if (missing.length) throw new PluginError(`No resolver registered for: ${missing.join(', ')}`)
  for (const e of endpoints) {
    for (const u of e.upstreams ?? []) {
      if (!(u in upstreams)) throw new PluginError(`${e.name} needs upstream "${u}", which no plugin provides`)
    }
  }
  const json = formatList.find((f) => f.name === 'json')
  if (!json) throw new PluginError('No "json" format registered (the format plugin is missing)')
  const formatMap = new Map(formatList.map((f) => [f.name, f]))
  const formats: Formats = { get: (name) => formatMap.get(name), json }
  layers.sort((a, b) => STAGE_ORDER.indexOf(a.stage) - STAGE_ORDER.indexOf(b.stage))

  const nextId = createUlidFactory(cryptoDigits, () => clock.now())
  const observe: RequestObserver | undefined =
    observers.length === 0 ? undefined : observers.length === 1 ? observers[0] : (record) => observers.forEach((o) => o(record))
  const invoke = createInvoker({ config, log, layers, upstreams, endpoints, resolvers, clock })
  const deps: PipelineDeps = { config, log, layers, upstreams, formats, formatNames: new Set(formatMap.keys()), nextId, clock, isoNow, observe, invoke, cpu }

  // Paths are grouped so one route answers every method: the wrong one is a 405
  // with Allow, instead of the router's 404.
  const groups = new Map<string, Map<string, Handler>>()
  for (const endpoint of endpoints) {
    const handler = await createEndpointHandler(endpoint, resolvers.get(endpoint.name)!, deps)
    const alias = aliasPath(endpoint)
    for (const path of alias ? [endpoint.path, alias] : [endpoint.path]) {
      const methods = groups.get(path) ?? new Map<string, Handler>()
      methods.set(endpoint.method, handler)
      if (endpoint.method === 'GET') methods.set('HEAD', handler)
      groups.set(path, methods)
    }
  }

  // Requests no endpoint answers still get what layers report about the caller
  // (its rate-limit state): anonymous, by client IP, as no auth ran.
  const unroutedLayers = layers.filter((l) => l.unrouted !== undefined)
  const clientOf = (event: H3Event): string => clientIp(event.req.ip, config.trustProxy.length ? event.req.headers.get('x-forwarded-for') : null, config.trustProxy)
  const unroutedHeaders = async (event: H3Event, ip: string = clientOf(event)): Promise<Record<string, string>> => {
    const headers: Record<string, string> = {}
    if (unroutedLayers.length === 0) return headers
    const caller: Caller = { tier: 'anonymous', ip, principal: anonymousPrincipal(ip) }
    for (const layer of unroutedLayers) {
      await layer.unrouted!(caller, headers).catch((error: unknown) => log.warn({ err: error, layer: layer.name }, 'layer failed on an unrouted request'))
    }
    return headers
  }

  const errorFor = async (event: H3Event, error: unknown, endpoint?: AnyEndpoint): Promise<Response> => {
    const f = event.url.searchParams.get('format')?.toLowerCase()
    const requestId = nextId()
    const client = clientOf(event)
    const headers = await unroutedHeaders(event, client)
    if (observe) {
      const info = errorInfo(error)
      observe({ requestId, endpoint: null, tag: null, method: event.req.method, path: event.url.pathname, client, status: info.status, durationMs: 0, cache: null, tier: null, error: info.error })
    }
    return errorResponse(error, {
      requestId,
      format: (f && formatMap.get(f)) || json,
      formats,
      pretty: event.url.searchParams.has('pretty'),
      endpoint,
      headers,
      log,
      head: event.req.method === 'HEAD',
      cors: event.req.headers.has('origin'),
      header: (name) => event.req.headers.get(name),
      timestamp: isoNow(),
    })
  }

  const app = new H3({
    // Errors raised by h3 itself (malformed URL, ...) get the same envelope.
    onError: (error, event) => errorFor(event, error.status < 500 ? new ApiError(error.status, error.status === 400 ? 'bad_request' : 'not_found', error.message) : error),
  })

  for (const [path, methods] of groups) {
    const allowed = [...methods.keys()].filter((m) => m !== 'HEAD')
    const allow = [...methods.keys(), 'OPTIONS'].join(', ')
    const preflight = async (event: H3Event): Promise<Response> =>
      new FastResponse(null, {
        status: 204,
        statusText: 'No Content',
        headers: {
          ...(await unroutedHeaders(event)),
          ...baseHeaders(nextId(), 'text/plain', true),
          allow,
          'access-control-allow-methods': allow,
          'access-control-allow-headers': 'x-api-key, content-type',
          'access-control-max-age': '86400',
        },
      })
    // Not async: a routed request goes straight to its handler, no extra promise.
    app.all(path, (event) => {
      const handler = methods.get(event.req.method)
      if (handler) return handler(event)
      if (event.req.method === 'OPTIONS') return preflight(event)
      return errorFor(event, new MethodNotAllowedError(event.req.method, allowed))
    })
  }
  for (const [path, handler] of rawRoutes) {
    app.get(path, async (event) => {
      const { contentType, body } = await handler()
      const headers = { 'content-type': contentType, 'cache-control': 'no-store' }
      // Compressed like any answer (a Prometheus scrape asks for gzip).
      const sent = encodeBody(body, headers, (name) => event.req.headers.get(name), event.req.method === 'HEAD')
      return new FastResponse(sent, { status: 200, statusText: 'OK', headers })
    })
  }
  app.all('/**', (event) =>
    errorFor(
      event,
      event.url.pathname.includes('\0')
        ? new InputError('The path contains a NUL byte.')
        : new NotFoundError(`No endpoint at ${event.url.pathname}; GET /api/endpoints lists them all.`, { path: event.url.pathname }),
    ),
  )

  return {
    app,
    config,
    endpoints,
    log,
    nextId,
    clock,
    cpu,
    async close() {
      for (const close of closers.reverse()) await close()
      await redis?.close()
      log.flush?.()
    },
  }
}
