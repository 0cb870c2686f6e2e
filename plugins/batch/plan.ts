import type { Controls } from '../../runtime/controls.ts'
import { CONTROL_NAMES, parseControls } from '../../runtime/controls.ts'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import type { EndpointRouter } from '../../runtime/endpoint-router.ts'
import type { ApiError } from '../../runtime/errors.ts'
import { InputError, NotFoundError } from '../../runtime/errors.ts'
import { rawInput } from '../../runtime/input.ts'
import { pathParams } from '../../runtime/registry.ts'
import { targetKey } from './target-key.ts'

// A batch read into what will run: per request its endpoint, raw input (as a
// request to that path would carry it), shaping controls and target, or the
// error it answers without running. Planned once, before anything is charged:
// the plan prices the batch (the sum of its endpoints' costs).
//
// What refuses the whole batch (a 400 naming the position) rather than one item:
// a request for an endpoint a batch cannot run at all — a POST endpoint (this one
// included: batches do not nest), a CPU-pool endpoint (it would run on the event
// loop here), a document endpoint (its answer is a page, not data). Everything
// else wrong with one request (a path no endpoint has, a bad parameter or
// control, an item that is neither a path nor an object) is that item's error.

export interface PlannedItem {
  index: number
  /** Undefined when the item names no endpoint (then `error` says why). */
  endpoint: AnyEndpoint | undefined
  raw: Record<string, unknown>
  controls: Controls | undefined
  /** What the per-target bound counts: the registrable domain or address asked about; undefined for endpoints with no upstream. */
  target: string | undefined
  /** The item's answer when it cannot run (it is answered without running). */
  error: ApiError | undefined
}

export interface Plan {
  items: PlannedItem[]
  /** Rate-limit units: the sum of the items' endpoints' costs, at least 1. */
  cost: number
}

/** Longest item text: a single call's URL and headers may be 16 KiB in all. */
export const MAX_ITEM_CHARS = 8 * 1024

/** Controls that shape one answer and so may be given per request. */
const ITEM_CONTROLS: ReadonlySet<string> = new Set(['fields', 'exclude', 'sort', 'order', 'limit', 'offset'])
/** Controls of the representation, which only the whole batch has. */
const BATCH_CONTROLS = CONTROL_NAMES.filter((name) => !ITEM_CONTROLS.has(name))

/** Items' format= is refused before parseControls sees it: no format name is accepted per item. */
const NO_FORMATS: ReadonlySet<string> = new Set()

const BASE = 'http://batch.invalid'

export interface Planner {
  plan(body: readonly unknown[]): Plan
}

export function definePlanner(endpoints: readonly AnyEndpoint[], router: EndpointRouter, self: AnyEndpoint): Planner {
  const byName = new Map(endpoints.map((e) => [e.name, e]))
  const compiled = new Map<string, { claimed: Set<string>; queryKeys: string[]; own: Set<string>; targetParam: string | undefined }>()
  const infoOf = (endpoint: AnyEndpoint) => {
    let info = compiled.get(endpoint.name)
    if (info === undefined) {
      const keys = Object.keys(endpoint.params.shape as Record<string, unknown>)
      const queryKeys = keys.filter((k) => k !== 'body')
      info = { claimed: new Set(keys), queryKeys, own: new Set(queryKeys), targetParam: pathParams(endpoint.path)[0] }
      compiled.set(endpoint.name, info)
    }
    return info
  }

  /** An endpoint no batch may hold: the whole batch is refused, naming the position. */
  const refuseKind = (endpoint: AnyEndpoint, index: number, how: string): void => {
    const why =
      endpoint === self
        ? 'a batch cannot hold /api/batch itself (batches do not nest); send its requests in this one'
        : endpoint.method !== 'GET'
          ? `${endpoint.method} ${endpoint.path} is a ${endpoint.method} endpoint; a batch holds GET requests only: send it on its own`
          : endpoint.offload
            ? `${endpoint.path} runs on the CPU pool, off the event loop; a batch runs its requests on the event loop: send it on its own`
            : `${endpoint.path} answers a document (${endpoint.contentType ?? 'not data'}), not data a batch can list: send it on its own`
    throw new InputError(`Request ${index} of the batch (${how}) cannot be batched: ${why}.`, { param: 'body', index, endpoint: endpoint.name })
  }
  const batchable = (endpoint: AnyEndpoint) => endpoint !== self && endpoint.method === 'GET' && !endpoint.offload && endpoint.contentType === undefined

  const item = (index: number, endpoint: AnyEndpoint | undefined, fields: Partial<PlannedItem>): PlannedItem => ({
    index,
    endpoint,
    raw: {},
    controls: undefined,
    target: undefined,
    error: undefined,
    ...fields,
  })

  /** The controls of one request, from its query (or the control names of its params). */
  const controlsOf = (endpoint: AnyEndpoint, query: URLSearchParams): Controls => {
    for (const name of BATCH_CONTROLS) {
      if (query.has(name) && !infoOf(endpoint).claimed.has(name)) {
        throw new InputError(`"${name}" applies to the whole batch, not to one request: put it on /api/batch (e.g. /api/batch?${name}=...) and remove it here.`, { param: name })
      }
    }
    return parseControls(query, NO_FORMATS, infoOf(endpoint).claimed)
  }

  const targetOf = (endpoint: AnyEndpoint, raw: Record<string, unknown>): string | undefined => {
    if (!endpoint.upstreams?.length) return undefined
    const param = infoOf(endpoint).targetParam
    const value = param === undefined ? undefined : raw[param]
    return typeof value === 'string' ? targetKey(value) : endpoint.name
  }

  const fromPath = (index: number, text: string): PlannedItem => {
    if (text.length > MAX_ITEM_CHARS) {
      return item(index, undefined, { error: new InputError(`Request ${index} is ${text.length} characters long; at most ${MAX_ITEM_CHARS} are allowed per request.`, { param: 'body', index }) })
    }
    if (!text.startsWith('/') || text.startsWith('//')) {
      return item(index, undefined, { error: new InputError(`Request ${index} must be a path starting with "/api/", like "/api/dns/mx/example.com"; got "${text.slice(0, 100)}".`, { param: 'body', index }) })
    }
    let url: URL
    try {
      url = new URL(text, BASE)
    } catch {
      return item(index, undefined, { error: new InputError(`Request ${index} is not a valid path: "${text.slice(0, 100)}".`, { param: 'body', index }) })
    }
    if (url.origin !== BASE) {
      return item(index, undefined, { error: new InputError(`Request ${index} must be a path on this service, like "/api/dns/mx/example.com".`, { param: 'body', index }) })
    }
    const found = router.find('GET', url.pathname)
    if (!('endpoint' in found)) {
      if (found.allowed.length === 0) {
        return item(index, undefined, { error: new NotFoundError(`No endpoint at ${url.pathname}; GET /api/endpoints lists them all.`, { path: url.pathname, index }) })
      }
      const other = router.find(found.allowed[0]!, url.pathname) as { endpoint: AnyEndpoint }
      refuseKind(other.endpoint, index, url.pathname)
    }
    const { endpoint, params } = found as { endpoint: AnyEndpoint; params: Record<string, string> }
    if (!batchable(endpoint)) refuseKind(endpoint, index, url.pathname)
    try {
      const raw = rawInput(endpoint, infoOf(endpoint).queryKeys, params, url.searchParams)
      return item(index, endpoint, { raw, controls: controlsOf(endpoint, url.searchParams), target: targetOf(endpoint, raw) })
    } catch (error) {
      return item(index, endpoint, { error: error as ApiError })
    }
  }

  const fromObject = (index: number, value: Record<string, unknown>): PlannedItem => {
    const shape = `Request ${index} must be a path string or {"endpoint": "<name>", "params": {...}}`
    for (const key of Object.keys(value)) {
      if (key !== 'endpoint' && key !== 'params') return item(index, undefined, { error: new InputError(`${shape}; "${key.slice(0, 50)}" is not one of its fields.`, { param: 'body', index }) })
    }
    const name = value.endpoint
    if (typeof name !== 'string') return item(index, undefined, { error: new InputError(`${shape}; "endpoint" must be the endpoint's dotted name, like "dns.mx".`, { param: 'body', index }) })
    const endpoint = byName.get(name)
    if (endpoint === undefined) {
      return item(index, undefined, { error: new NotFoundError(`No endpoint named "${name.slice(0, 100)}"; GET /api/endpoints lists them all (their "name").`, { index, endpoint: name.slice(0, 100) }) })
    }
    if (!batchable(endpoint)) refuseKind(endpoint, index, `"${name}"`)
    const params = value.params ?? {}
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      return item(index, endpoint, { error: new InputError(`${shape}; "params" must be an object of parameter names and values.`, { param: 'body', index }) })
    }
    const info = infoOf(endpoint)
    const raw: Record<string, unknown> = {}
    const query = new URLSearchParams()
    for (const key of Object.keys(params)) {
      const given = (params as Record<string, unknown>)[key]
      if (typeof given !== 'string' && typeof given !== 'number' && typeof given !== 'boolean') {
        return item(index, endpoint, { error: new InputError(`Parameter "${key.slice(0, 50)}" of request ${index} must be a string, number or boolean, as in a query string.`, { param: key.slice(0, 50), index }) })
      }
      const text = String(given)
      if (info.own.has(key)) raw[key] = text
      else if ((CONTROL_NAMES as readonly string[]).includes(key)) query.set(key, text)
      else {
        const names = [...info.own]
        return item(index, endpoint, {
          error: new InputError(`${name} has no parameter "${key.slice(0, 50)}"; ${names.length ? `its parameters: ${names.join(', ')}` : 'it takes no parameters'} (and the controls ${[...ITEM_CONTROLS].join(', ')}).`, { param: key.slice(0, 50), index }),
        })
      }
    }
    try {
      return item(index, endpoint, { raw, controls: controlsOf(endpoint, query), target: targetOf(endpoint, raw) })
    } catch (error) {
      return item(index, endpoint, { error: error as ApiError })
    }
  }

  return {
    plan(body) {
      const items: PlannedItem[] = []
      let cost = 0
      for (let index = 0; index < body.length; index++) {
        const value = body[index]
        const planned =
          typeof value === 'string'
            ? fromPath(index, value)
            : typeof value === 'object' && value !== null && !Array.isArray(value)
              ? fromObject(index, value as Record<string, unknown>)
              : item(index, undefined, {
                  error: new InputError(`Request ${index} must be a path string or {"endpoint": "<name>", "params": {...}}; got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}.`, { param: 'body', index }),
                })
        // What the request would cost on its own; a path no endpoint has costs nothing, as a 404 does.
        cost += planned.endpoint?.cost ?? 0
        items.push(planned)
      }
      return { items, cost: Math.max(1, cost) }
    },
  }
}
