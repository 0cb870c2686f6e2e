import { join } from 'node:path'
import fc from 'fast-check'
import { XMLParser } from 'fast-xml-parser'
import { load as loadYaml } from 'js-yaml'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exampleRequest, needsExample } from '../../plugins/docs/examples.ts'
import { ROOT } from '../../runtime/app.ts'
import { CONTROL_NAMES } from '../../runtime/controls.ts'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import { loadRegistry } from '../../runtime/registry.ts'
import type { TestApp } from '../support/app.ts'
import { FIXTURE_REGISTRY, startTestApp } from '../support/app.ts'
import type { LoopbackInternet } from '../support/loopback-internet.ts'
import { startLoopbackInternet } from '../support/loopback-internet.ts'

// A fuzzer generated from the registry, run against the loopback internet so the
// resolvers have real (fake) upstreams to talk to. Every endpoint gets its own
// property with RUNS requests: its descriptor's example as is (so requests pass
// validation and reach the resolver), the example mutated, or random values;
// random query controls and formats, arbitrary header names and values, bodies
// and methods. Whatever arrives, the answer is never a 500: an envelope in the
// requested format (yaml, xml and csv parsed back; errors in the requested
// format, JSON for csv), and the process keeps serving. Coverage per endpoint is
// asserted: every endpoint got its runs, and some of them reached its resolver.
//
// Bigger runs: FUZZ_RUNS=300 npx vitest run test/hardening/fuzz.test.ts

const RUNS = Number(process.env.FUZZ_RUNS ?? 100)
const FORMATS = ['json', 'yaml', 'xml', 'csv'] as const

// Known at collection time, so each endpoint is a test of its own. test.failing
// answers 500 on purpose and test.slow only sleeps.
const endpoints = (await loadRegistry([join(ROOT, 'registry'), FIXTURE_REGISTRY])).filter((e) => e.name !== 'test.failing' && e.name !== 'test.slow')

let internet: LoopbackInternet
let t: TestApp
beforeAll(async () => {
  internet = await startLoopbackInternet()
  t = await startTestApp({ ...internet.env, INFRALENS_RATE_LIMITS: 'anonymous=1000000000', INFRALENS_REQUEST_TIMEOUT_MS: '2000', LOG_LEVEL: 'error' })
  await t.untilReady()
}, 60_000)
afterAll(async () => {
  await t?.close()
  await internet?.close()
})

// ---- values --------------------------------------------------------------------

const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '%', '%00', '%ZZ', '..', '../../etc/passwd', '\u0000', '\uFFFF', '\uD800', '😀', 'A'.repeat(3000), '-1', '1e309', 'NaN', '__proto__', 'constructor', '[]', '{}', 'null', 'true', '0x10', '::', '[::1]', '127.1', '0177.0.0.1', '2130706433', '1.2.3.4/33', 'example.com', 'ex..ample', 'http://10.0.0.1/', 'http://169.254.169.254/', 'localhost:22', 'xn--', 'a.'.repeat(130)),
  fc.domain(),
  fc.ipV4(),
  fc.ipV6(),
)

/** A value near a valid one: most mutations keep it plausible enough to get past a first check. */
const near = (value: string) =>
  fc.oneof(
    fc.constant(value.toUpperCase()),
    fc.constant(` ${value} `),
    fc.constant(`${value}.`),
    fc.constant(value.slice(0, -1)),
    fc.constant(''),
    fc.constant(value.repeat(40)),
    fc.tuple(fc.nat(value.length), nasty).map(([i, s]) => value.slice(0, i) + s + value.slice(i)),
    nasty,
  )

/** Controls any endpoint takes, with valid values; paging and order only where there is a list. */
const safeControls = (endpoint: AnyEndpoint) =>
  fc.oneof(
    fc.dictionary(fc.constantFrom('pretty', 'compact', 'include_meta', 'include_links'), fc.constantFrom('true', 'false', '1', '0', 'yes', 'no'), { maxKeys: 2 }),
    endpoint.lists?.length ? fc.record({ limit: fc.constantFrom('1', '5', '1000'), offset: fc.constantFrom('0', '2'), order: fc.constantFrom('asc', 'desc') }, { requiredKeys: [] }) : fc.constant({}),
  )
const anyControls = fc.dictionary(fc.constantFrom(...CONTROL_NAMES), fc.oneof(nasty, fc.constantFrom('json', 'yaml', 'xml', 'csv', 'true', 'false', '1', '0', 'asc', 'desc', '5', '1000', 'records.ttl', 'data,meta', 'name', '-1')), { maxKeys: 5 })
const format = fc.option(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...FORMATS) }, { weight: 1, arbitrary: nasty }), { nil: undefined, freq: 3 })

const token = fc.stringMatching(/^[a-z0-9!#$%&'*+.^_`|~-]{1,24}$/)
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 120 }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.constantFrom('', ' ', 'a'.repeat(8000), '127.0.0.1', '::1, 10.0.0.1', 'unknown', '*/*', 'application/yaml', 'text/csv;q=0.1', 'gzip, br', 'bytes=0-1', '"etag"', `il_${'a'.repeat(40)}`, 'il_', 'Bearer x'),
  nasty.filter((s) => !/[\u0000-\u0008\u000a-\u001f\u007f\u0100-\uffff]/.test(s)),
)
const headers = fc.dictionary(
  fc.oneof(
    token,
    fc.constantFrom('accept', 'accept-encoding', 'content-type', 'origin', 'x-forwarded-for', 'x-real-ip', 'forwarded', 'if-none-match', 'range', 'x-api-key', 'cookie', 'authorization', 'user-agent', 'accept-language', 'x-request-id', 'expect', 'host', 'content-encoding', 'access-control-request-method'),
  ),
  headerValue,
  { maxKeys: 5 },
)

// ---- requests --------------------------------------------------------------------

interface Fuzzed {
  /** Where the input came from: the example, a mutated example, or random. */
  source: 'example' | 'mutated' | 'random'
  input: Record<string, string>
  controls: Record<string, string>
  format: string | undefined
  headers: Record<string, string>
  method: string
}

function inputFor(endpoint: AnyEndpoint): fc.Arbitrary<Pick<Fuzzed, 'source' | 'input' | 'controls'>> {
  const example = endpoint.example ?? {}
  const keys = [...new Set([...Object.keys(example), ...Object.keys(endpoint.params.shape), ...(endpoint.path.match(/:([A-Za-z0-9_]+)/g) ?? []).map((p) => p.slice(1))])]
  const exact = safeControls(endpoint).map((controls) => ({ source: 'example' as const, input: { ...example }, controls }))
  const mutated = fc
    .record({
      input: fc.record(Object.fromEntries(Object.entries(example).map(([k, v]) => [k, fc.oneof({ weight: 2, arbitrary: fc.constant(v) }, { weight: 1, arbitrary: near(v) })]))),
      drop: fc.subarray(Object.keys(example), { maxLength: Math.min(1, Object.keys(example).length) }),
      extra: fc.dictionary(fc.oneof(keys.length ? fc.constantFrom(...keys) : nasty, fc.string({ maxLength: 8 })), nasty, { maxKeys: 2 }),
      controls: fc.oneof(safeControls(endpoint), anyControls),
    })
    .map(({ input, drop, extra, controls }) => {
      const next: Record<string, string> = { ...extra, ...input }
      for (const k of drop) delete next[k]
      return { source: 'mutated' as const, input: next, controls }
    })
  const random = fc.record({ input: fc.dictionary(keys.length ? fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })) : fc.string({ maxLength: 8 }), nasty, { maxKeys: 4 }), controls: anyControls }).map((r) => ({ source: 'random' as const, ...r }))
  return fc.oneof({ weight: 3, arbitrary: exact }, { weight: 4, arbitrary: mutated }, { weight: 2, arbitrary: random })
}

function fuzzedFor(endpoint: AnyEndpoint): fc.Arbitrary<Fuzzed> {
  return fc.record({
    base: inputFor(endpoint),
    format,
    headers: fc.option(headers, { nil: {}, freq: 2 }),
    method: fc.oneof({ weight: 12, arbitrary: fc.constant(endpoint.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH') }),
  }).map(({ base, format, headers, method }) => ({ ...base, format, headers, method }))
}

/** The request a fuzzed input stands for (path params in the path, the rest as query, `body` as the body). */
function build(endpoint: AnyEndpoint, f: Fuzzed): { path: string; init: RequestInit } {
  const input = { ...f.input }
  // exampleRequest wants every path param; random inputs may lack some.
  for (const [, name] of endpoint.path.matchAll(/:([A-Za-z0-9_]+)/g)) input[name!] ??= 'x'
  const request = exampleRequest({ ...endpoint, example: input })
  const url = new URL(request.path, 'http://fuzz')
  for (const [k, v] of Object.entries(f.controls)) url.searchParams.set(k, v)
  if (f.format !== undefined) url.searchParams.set('format', f.format)
  const headers: Record<string, string> = { ...f.headers }
  if (request.contentType && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = request.contentType
  const sendsBody = f.method === 'POST' || f.method === 'PUT' || f.method === 'PATCH'
  return { path: url.pathname + url.search, init: { method: f.method, headers, ...(sendsBody && request.body !== undefined ? { body: request.body } : {}) } }
}

// ---- checks --------------------------------------------------------------------

const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: false })

/** The envelope of a body in `type`, parsed back; throws when it does not parse. */
function parseEnvelope(type: string, text: string): Record<string, unknown> {
  if (type.startsWith('application/json')) return JSON.parse(text) as Record<string, unknown>
  if (type.startsWith('application/yaml')) return loadYaml(text) as Record<string, unknown>
  if (type.startsWith('application/xml')) {
    const doc = xml.parse(text, true) as { response?: Record<string, unknown> }
    if (!doc.response) throw new Error('no <response> root')
    const r = doc.response
    // XML carries every scalar as text.
    return { ...r, success: r.success === 'true' ? true : r.success === 'false' ? false : r.success }
  }
  throw new Error(`not an envelope type: ${type}`)
}

const ENVELOPE_TYPES: Record<string, string> = { json: 'application/json', yaml: 'application/yaml', xml: 'application/xml', csv: 'text/csv' }

/** What went wrong with one answer, or null. `format` is the format= the request carried. */
function judge(endpoint: AnyEndpoint, f: Fuzzed, format: string | null, status: number, type: string, text: string): string | null {
  if (status >= 500 && status !== 502 && status !== 503 && status !== 504) return `status ${status}: ${text.slice(0, 200)}`
  if (f.method === 'HEAD' || status === 204 || status === 431) return null
  if (endpoint.envelope === false && status === 200) return null
  // The requested format, when it is one (an endpoint may claim `format` as its own parameter).
  const requested = format !== null && (FORMATS as readonly string[]).includes(format) && !('format' in endpoint.params.shape) ? format : undefined
  if (requested === 'csv' && status === 200) {
    if (!type.startsWith('text/csv')) return `format=csv answered ${type}`
    const parsed = Papa.parse(text.trim(), { header: true, delimiter: ',' })
    const broken = parsed.errors.filter((e) => e.type !== 'FieldMismatch')
    return broken.length ? `csv does not parse: ${JSON.stringify(broken.slice(0, 2))}` : null
  }
  // Errors follow the requested format, except csv (JSON).
  const expected = requested === undefined || requested === 'csv' ? (status === 200 ? undefined : 'application/json') : ENVELOPE_TYPES[requested]
  if (expected !== undefined && !type.startsWith(expected)) return `format=${requested ?? '(none)'} ${status} answered ${type}`
  let body: Record<string, unknown>
  try {
    body = parseEnvelope(type, text)
  } catch (error) {
    return `${type} does not parse: ${(error as Error).message}: ${text.slice(0, 120)}`
  }
  if (typeof body.success !== 'boolean' || typeof body.request_id !== 'string' || typeof body.timestamp !== 'string') return `not an envelope: ${text.slice(0, 200)}`
  if (body.success !== status < 400) return `success ${String(body.success)} with status ${status}`
  if (body.success === false && typeof (body.error as { code?: unknown } | undefined)?.code !== 'string') return `error without code: ${text.slice(0, 200)}`
  return null
}

/** The resolver ran (or its cached answer came back): past routing, auth, limits and validation. */
function reachedResolver(status: number, text: string, type: string): boolean {
  if (status === 200 || status === 502 || status === 503 || status === 504) return true
  if (status !== 404 || !type.startsWith('application/json') || text === '') return false
  // a resolver's not_found, not the router's "no endpoint at"
  return !(JSON.parse(text) as { error?: { details?: { path?: unknown } } }).error?.details?.path
}

// ---- the properties ----------------------------------------------------------------

const coverage = new Map<string, { sent: number; reached: number; bySource: Record<Fuzzed['source'], number> }>()

describe(`fuzzing every endpoint from the registry (${RUNS} requests each)`, () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.name} (${endpoint.method} ${endpoint.path})`, async () => {
      const seen = { sent: 0, reached: 0, bySource: { example: 0, mutated: 0, random: 0 } }
      coverage.set(endpoint.name, seen)
      const problems: string[] = []
      await fc.assert(
        fc.asyncProperty(fuzzedFor(endpoint), async (f) => {
          let request: { path: string; init: RequestInit }
          let res: Response
          try {
            request = build(endpoint, f)
            res = await t.request(request.path, request.init)
          } catch (error) {
            // A URL or header the fetch API itself refuses to build never reaches the service.
            if (error instanceof TypeError || error instanceof URIError) return
            throw error
          }
          seen.sent++
          seen.bySource[f.source]++
          const text = await res.text()
          const type = res.headers.get('content-type') ?? ''
          if (reachedResolver(res.status, text, type)) seen.reached++
          const problem = judge(endpoint, f, new URL(request.path, 'http://fuzz').searchParams.get('format'), res.status, type, text)
          if (problem) problems.push(`${f.method} ${request.path} ${JSON.stringify(f.headers)}: ${problem}`)
          if (!res.headers.get('x-request-id')) problems.push(`${f.method} ${request.path}: no X-Request-Id`)
        }),
        { numRuns: RUNS },
      )
      expect(problems).toEqual([])
      // Coverage: the runs happened, and the example made some of them reach the resolver
      // (an endpoint that needs input but has no example, a fixture, can only be hit by chance).
      expect(seen.sent).toBeGreaterThanOrEqual(Math.floor(RUNS * 0.9))
      if (endpoint.example !== undefined || !needsExample(endpoint)) {
        expect(seen.reached, `${endpoint.name}: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(Math.max(1, Math.floor(RUNS / 8)))
      }
    }, 120_000)
  }

  it('every endpoint was fuzzed, and the process is still healthy', async () => {
    expect([...coverage.keys()].sort()).toEqual(endpoints.map((e) => e.name).sort())
    expect((await t.json('/api/health')).status).toBe(200)
    expect(t.logs.filter((l) => l.msg === 'unhandled error')).toEqual([])
  })
})
