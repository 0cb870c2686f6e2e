import type { H3Event } from 'h3'
import type { Logger } from 'pino'
import { FastResponse } from 'srvx'
import type { Caller, Layer } from './call.ts'
import { anonymousPrincipal, clientIp } from './client-ip.ts'
import type { Config } from './config.ts'
import type { AnyEndpoint } from './define-endpoint.ts'
import type { RawRouteHandler, RequestObserver } from './define-plugin.ts'
import { ApiError, InputError, MethodNotAllowedError, NotFoundError } from './errors.ts'
import { encodeBody } from './http/content-coding.ts'
import { RecentRoutesH3 } from './recent-routes.ts'
import { aliasPath } from './registry.ts'
import type { Formats } from './respond.ts'
import { baseHeaders, errorInfo, errorResponse } from './respond.ts'

// The route table: the h3 app that hands each request to its endpoint's handler
// (runtime/pipeline.ts). Paths are grouped so one route answers every method of
// a path: the wrong method is a 405 with Allow, OPTIONS a preflight, and a path
// no endpoint has a 404; those answers are enveloped like any error.

export type EndpointHandler = (event: H3Event) => Promise<Response> | Response

export interface RouteTableDeps {
  config: Config
  log: Logger
  /** Every endpoint with its compiled handler, in registry order. */
  routes: ReadonlyArray<{ endpoint: AnyEndpoint; handler: EndpointHandler }>
  /** Operator routes outside /api and the envelope (PluginApi.rawRoute). */
  rawRoutes: ReadonlyMap<string, RawRouteHandler>
  layers: readonly Layer[]
  formats: Formats
  nextId: () => string
  isoNow: () => string
  observe: RequestObserver | undefined
}

/** The route of every path no endpoint has (the 404). */
const CATCH_ALL = '/**'

export function createRouteTable(deps: RouteTableDeps): RecentRoutesH3 {
  const { config, log, formats, nextId, isoNow, observe } = deps

  // Paths are grouped so one route answers every method: the wrong one is a 405
  // with Allow, instead of the router's 404.
  const groups = new Map<string, Map<string, EndpointHandler>>()
  for (const { endpoint, handler } of deps.routes) {
    const alias = aliasPath(endpoint)
    for (const path of alias ? [endpoint.path, alias] : [endpoint.path]) {
      const methods = groups.get(path) ?? new Map<string, EndpointHandler>()
      methods.set(endpoint.method, handler)
      if (endpoint.method === 'GET') methods.set('HEAD', handler)
      groups.set(path, methods)
    }
  }

  // Requests no endpoint answers still get what layers report about the caller
  // (its rate-limit state): anonymous, by client IP, as no auth ran.
  const unroutedLayers = deps.layers.filter((l) => l.unrouted !== undefined)
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
      format: (f && formats.get(f)) || formats.json,
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

  const app = new RecentRoutesH3(
    {
      // Errors raised by h3 itself (malformed URL, ...) get the same envelope.
      onError: (error, event) => errorFor(event, error.status < 500 ? new ApiError(error.status, error.status === 400 ? 'bad_request' : 'not_found', error.message) : error),
    },
    CATCH_ALL,
  )

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
  for (const [path, handler] of deps.rawRoutes) {
    app.get(path, async (event) => {
      const { contentType, body } = await handler()
      const headers = { 'content-type': contentType, 'cache-control': 'no-store' }
      // Compressed like any answer (a Prometheus scrape asks for gzip).
      const sent = encodeBody(body, headers, (name) => event.req.headers.get(name), event.req.method === 'HEAD')
      return new FastResponse(sent, { status: 200, statusText: 'OK', headers })
    })
  }
  app.all(CATCH_ALL, (event) =>
    errorFor(
      event,
      event.url.pathname.includes('\0')
        ? new InputError('The path contains a NUL byte.')
        : new NotFoundError(`No endpoint at ${event.url.pathname}; GET /api/endpoints lists them all.`, { path: event.url.pathname }),
    ),
  )
  return app
}
