import { addRoute, createRouter, findRoute } from 'rou3'
import type { AnyEndpoint } from './define-endpoint.ts'
import { aliasPath } from './registry.ts'

// Which endpoint a path names, the way the route table (runtime/route-table.ts)
// decides it for a request: the same router (rou3, which h3 routes with), the
// same patterns (each path and its queryAlias form), one entry per path holding
// every method. For answering a path that is not a request, such as one item of
// a batch ("/api/dns/mx/example.com?fields=records").

export interface EndpointMatch {
  endpoint: AnyEndpoint
  /** The route's path params as they stand in the path (still percent-encoded). */
  params: Record<string, string>
}

export interface EndpointRouter {
  /**
   * What answers `method` at `pathname` (HEAD answers where GET does):
   * `{ endpoint, params }`, or the methods the path does answer (empty when no
   * endpoint has the path at all).
   */
  find(method: string, pathname: string): EndpointMatch | { allowed: string[] }
}

export function createEndpointRouter(endpoints: readonly AnyEndpoint[]): EndpointRouter {
  const byPath = new Map<string, Map<string, AnyEndpoint>>()
  for (const endpoint of endpoints) {
    const alias = aliasPath(endpoint)
    for (const path of alias ? [endpoint.path, alias] : [endpoint.path]) {
      const methods = byPath.get(path) ?? new Map<string, AnyEndpoint>()
      methods.set(endpoint.method, endpoint)
      byPath.set(path, methods)
    }
  }
  const router = createRouter<Map<string, AnyEndpoint>>()
  for (const [path, methods] of byPath) addRoute(router, '', path, methods)
  return {
    find(method, pathname) {
      const match = findRoute(router, '', pathname)
      if (match === undefined) return { allowed: [] }
      const endpoint = match.data.get(method === 'HEAD' ? 'GET' : method)
      if (endpoint === undefined) return { allowed: [...match.data.keys()] }
      return { endpoint, params: match.params ?? {} }
    },
  }
}
