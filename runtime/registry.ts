import { relative, sep } from 'node:path'
import type { AnyEndpoint } from './define-endpoint.ts'
import { TAGS } from './define-endpoint.ts'
import { importDefault, listModules } from './discover.ts'
import { CONTROL_NAMES } from './controls.ts'

export class RegistryError extends Error {
  override name = 'RegistryError'
}

function isDescriptor(value: unknown): value is AnyEndpoint {
  return typeof value === 'object' && value !== null && 'name' in value && 'path' in value && 'params' in value && 'method' in value
}

/** `:name` and `**:name` params of a route pattern, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/(?:^|\/)(?:\*\*)?:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!)
}

/** The route pattern with param names erased: two patterns with one shape collide. */
export function routeShape(path: string): string {
  return path.replace(/\*\*:[A-Za-z0-9_]+/g, '**').replace(/:[A-Za-z0-9_]+/g, ':')
}

/** The path without its trailing aliased params (/api/dns/a/:domain -> /api/dns/a). */
export function aliasPath(endpoint: AnyEndpoint): string | undefined {
  if (!endpoint.queryAlias?.length) return undefined
  let path = endpoint.path
  for (const name of [...endpoint.queryAlias].reverse()) {
    const suffix = new RegExp(`/(?:\\*\\*)?:${name}$`)
    if (!suffix.test(path)) {
      throw new RegistryError(`${endpoint.name}: queryAlias "${name}" must be a trailing path param of ${endpoint.path}`)
    }
    path = path.replace(suffix, '')
  }
  return path
}

function check(endpoint: AnyEndpoint, where: string): void {
  const fail = (message: string): never => {
    throw new RegistryError(`${where}: ${endpoint.name || '(unnamed)'}: ${message}`)
  }
  if (!/^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$/.test(endpoint.name)) fail('name must be dotted lowercase, like "dns.lookup"')
  if (!(TAGS as readonly string[]).includes(endpoint.tag)) fail(`tag must be one of ${TAGS.join(', ')}`)
  if (!endpoint.path.startsWith('/api/')) fail('path must start with /api/')
  if (endpoint.cost < 0 || !Number.isFinite(endpoint.cost)) fail('cost must be >= 0')
  const shape = endpoint.params.shape as Record<string, unknown>
  for (const p of pathParams(endpoint.path)) if (!(p in shape)) fail(`path param "${p}" is missing from params`)
  for (const key of Object.keys(shape)) {
    if (key === 'body' && !endpoint.body) fail('params has "body" but the descriptor declares no body')
    if ((CONTROL_NAMES as readonly string[]).includes(key) && key !== 'limit' && key !== 'offset') {
      fail(`param "${key}" clashes with a query control`)
    }
  }
  if (endpoint.body && endpoint.method !== 'POST') fail('only POST endpoints take a body')
  if (endpoint.contentType !== undefined && endpoint.envelope !== false) fail('contentType needs envelope: false (the resolver returns the body as-is)')
  if (endpoint.pagination && !('limit' in shape && 'offset' in shape)) fail('pagination needs limit and offset in params (the endpoint pages itself)')
  if (endpoint.offload) {
    // A worker has no network, and its answer comes back rendered (request id, timestamp): nothing to cache.
    if (endpoint.upstreams?.length) fail('offload endpoints cannot have upstreams (the CPU pool runs pure computations)')
    if (endpoint.cache !== false) fail('offload endpoints are never cached: set cache: false')
    if (endpoint.unavailable === undefined) fail('offload endpoints answer 503 when the CPU pool is full: say so in `unavailable`')
    // The worker validates the input, after the rate limit was charged on the main thread.
    if (endpoint.inputCost !== undefined) fail('offload endpoints cannot have an inputCost (their input is read in the worker, after the rate limit)')
    if (endpoint.stream !== undefined) fail('offload endpoints cannot stream (the worker renders the whole answer)')
  }
  if (endpoint.inputCost !== undefined && endpoint.inputCost.trim() === '') fail('inputCost is the sentence that says how the cost is counted; it cannot be empty')
  if (endpoint.stream !== undefined) {
    // A streamed answer is made while it is sent: there is no whole answer to keep.
    if (endpoint.cache !== false) fail('stream endpoints are never cached: set cache: false')
    if (!(endpoint.lists ?? []).includes(endpoint.stream)) fail(`stream "${endpoint.stream}" must be one of the endpoint's lists`)
  }
  if (endpoint.preEncoded !== undefined) {
    // Spliced as bytes only where nothing reads the list (no cache keeps it, no ETag hashes it).
    if (endpoint.cache !== false) fail('preEncoded endpoints are never cached: set cache: false')
    if (endpoint.envelope === false) fail('preEncoded needs the envelope (the json format splices the list into it)')
    if (endpoint.offload) fail('offload endpoints cannot be preEncoded (the worker renders the whole answer)')
    if (endpoint.preEncoded.includes('.') || !(endpoint.lists ?? []).includes(endpoint.preEncoded)) {
      fail(`preEncoded "${endpoint.preEncoded}" must be a top-level list of data named in the endpoint's lists`)
    }
  }
  aliasPath(endpoint)
}

/**
 * The folder of what a tag's descriptors share (registry/<tag>/schemas/: data
 * schemas, params, finding ids, constants of the contract): imported by
 * descriptors, never descriptors themselves, so the loader skips it.
 */
export const SCHEMAS_FOLDER = 'schemas'

const isDescriptorFile = (dir: string) => (file: string) => !relative(dir, file).split(sep).includes(SCHEMAS_FOLDER)

/** Imports every descriptor file under the given directories and checks them as a set. */
export async function loadRegistry(dirs: readonly string[]): Promise<AnyEndpoint[]> {
  const endpoints: AnyEndpoint[] = []
  const byName = new Map<string, string>()
  const byRoute = new Map<string, string>()
  for (const dir of dirs) {
    for (const file of await listModules(dir, isDescriptorFile(dir))) {
      const where = relative(process.cwd(), file)
      const descriptor = await importDefault(file)
      if (!isDescriptor(descriptor)) throw new RegistryError(`${where}: default export is not an endpoint descriptor (use defineEndpoint)`)
      check(descriptor, where)
      const prior = byName.get(descriptor.name)
      if (prior) throw new RegistryError(`${where}: endpoint name "${descriptor.name}" is already defined in ${prior}`)
      byName.set(descriptor.name, where)
      const alias = aliasPath(descriptor)
      for (const path of alias ? [descriptor.path, alias] : [descriptor.path]) {
        const key = `${descriptor.method} ${routeShape(path)}`
        const clash = byRoute.get(key)
        if (clash) throw new RegistryError(`${where}: ${descriptor.method} ${path} is already claimed by ${clash}`)
        byRoute.set(key, `${descriptor.name} (${where})`)
      }
      endpoints.push(descriptor)
    }
  }
  return endpoints
}
