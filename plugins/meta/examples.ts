import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'

// The example answers of the API reference. They are not written by hand:
// `npm run docs:examples` (scripts/docs-examples.ts) calls every endpoint with its
// descriptor's `example` against the loopback internet of the tests and stores
// what came back in plugins/meta/examples.json; the OpenAPI document shows them;
// test/gateway/docs-examples.test.ts fails when they no longer match the service.

export const EXAMPLES_FILE = join(dirname(fileURLToPath(import.meta.url)), 'examples.json')

/** One request as sent. */
export interface ExampleRequest {
  method: 'GET' | 'POST'
  /** Path and query string. */
  path: string
  contentType?: string
  body?: string
  /** Headers the example depends on (e.g. an x-api-key). */
  headers?: Record<string, string>
}

/** One request and the answer the service gave. */
export interface StoredExample {
  request: ExampleRequest
  status: number
  response: unknown
}

export interface ExamplesFile {
  $comment?: string
  /** By endpoint name: the example of its 200 answer. */
  endpoints: Record<string, StoredExample>
  /** By error code: one real error answer each. */
  errors: Record<string, StoredExample>
}

const EMPTY: ExamplesFile = { endpoints: {}, errors: {} }

/** The stored examples; none (and the document just has no examples) when the file is missing. */
export function loadExamples(file: string = EXAMPLES_FILE): ExamplesFile {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY
    throw error
  }
  const parsed = JSON.parse(text) as Partial<ExamplesFile>
  return { endpoints: parsed.endpoints ?? {}, errors: parsed.errors ?? {} }
}

/**
 * Endpoints whose answer is a document of its own (the reference page and its
 * script): no JSON example to show.
 */
export function hasJsonAnswer(endpoint: AnyEndpoint): boolean {
  return endpoint.contentType === undefined
}

/**
 * Descriptors that must carry an `example`: any that takes input. Without one,
 * nobody (docs, tests) knows a valid call, and an optional parameter the example
 * never uses is one the reference never shows working.
 */
export function needsExample(endpoint: AnyEndpoint): boolean {
  return /(?:^|\/)(?:\*\*)?:/.test(endpoint.path) || Object.keys(endpoint.params.shape).length > 0 || endpoint.body !== undefined
}

/** The request an endpoint's `example` stands for: path params filled in, the rest as query, `body` as the body. */
export function exampleRequest(endpoint: AnyEndpoint): ExampleRequest {
  const example = endpoint.example ?? {}
  const used = new Set<string>(['body'])
  const path = endpoint.path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, (_, name: string) => {
    used.add(name)
    const value = example[name]
    if (value === undefined) throw new Error(`${endpoint.name}: example has no value for path param "${name}"`)
    return encodeURIComponent(value)
  })
  const query = new URLSearchParams(Object.entries(example).filter(([name]) => !used.has(name)))
  const request: ExampleRequest = { method: endpoint.method, path: query.size ? `${path}?${query}` : path }
  if (endpoint.body && example.body !== undefined) {
    request.body = example.body
    request.contentType = endpoint.body.kind === 'json' || looksLikeJson(example.body) ? 'application/json' : 'text/plain'
  }
  return request
}

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * The OpenAPI document is its own endpoint's answer; stored whole it would contain
 * itself again (examples included) and change with every descriptor. The example
 * keeps its frame and one operation.
 */
export function abridgeOpenApi(document: Record<string, unknown>, keep = '/api/uuid'): Record<string, unknown> {
  const paths = (document.paths ?? {}) as Record<string, unknown>
  const name = keep in paths ? keep : Object.keys(paths)[0]
  const strip = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(strip)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'examples' && k !== 'example').map(([k, v]) => [k, strip(v)]))
        : value
  return {
    openapi: document.openapi,
    info: { title: (document.info as { title?: unknown } | undefined)?.title, version: (document.info as { version?: unknown } | undefined)?.version },
    servers: document.servers,
    tags: ((document.tags ?? []) as unknown[]).slice(0, 2),
    paths: name === undefined ? {} : { [name]: strip(paths[name]) },
    components: { securitySchemes: (document.components as { securitySchemes?: unknown } | undefined)?.securitySchemes },
  }
}

/**
 * The shape of a JSON value: its object keys and value types, all the way down,
 * array items merged into one shape. Values do not count: a new request id, time,
 * UUID or uptime is the same shape, a renamed or retyped field is not.
 */
export type Shape = string | { object: Record<string, Shape> } | { array: Shape | null } | { anyOf: Shape[] }

export function shapeOf(value: unknown): Shape {
  if (value === null) return 'null'
  if (Array.isArray(value)) return { array: value.length ? value.map(shapeOf).reduce(mergeShapes) : null }
  if (typeof value === 'object') {
    const object: Record<string, Shape> = {}
    for (const key of Object.keys(value).sort()) object[key] = shapeOf((value as Record<string, unknown>)[key])
    return { object }
  }
  return typeof value === 'number' ? 'number' : typeof value
}

function mergeShapes(a: Shape, b: Shape): Shape {
  if (JSON.stringify(a) === JSON.stringify(b)) return a
  if (typeof a === 'object' && typeof b === 'object') {
    if ('object' in a && 'object' in b) {
      // Items of one list may differ in optional keys: a key missing from some items is "absent" there.
      const object: Record<string, Shape> = {}
      for (const key of [...new Set([...Object.keys(a.object), ...Object.keys(b.object)])].sort()) {
        const x = a.object[key] ?? 'absent'
        const y = b.object[key] ?? 'absent'
        object[key] = mergeShapes(x, y)
      }
      return { object }
    }
    if ('array' in a && 'array' in b) return { array: a.array === null ? b.array : b.array === null ? a.array : mergeShapes(a.array, b.array) }
  }
  const members = [...(typeof a === 'object' && 'anyOf' in a ? a.anyOf : [a]), ...(typeof b === 'object' && 'anyOf' in b ? b.anyOf : [b])]
  const unique = [...new Map(members.map((m) => [JSON.stringify(m), m])).values()].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))
  return unique.length === 1 ? unique[0]! : { anyOf: unique }
}
