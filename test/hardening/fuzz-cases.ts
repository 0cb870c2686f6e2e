import fc from 'fast-check'
import { describeParams } from '../../plugins/meta/describe-params.ts'
import { loadExamples } from '../../plugins/meta/examples.ts'
import { CONTROL_NAMES } from '../../runtime/controls.ts'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import { aliasPath, pathParams } from '../../runtime/registry.ts'
import { address, addressWithPort, cidr, host, hostName, port, publicAddressesIn, url } from './fuzz-addresses.ts'
import type { BodyCase, EncoderName } from './fuzz-arbitraries.ts'
import { anyValue, bodyCase, boolish, ENCODERS, encoderName, headerPair, headerName, knownHeaderValues, numberish, otherMethod, overLong, protoKey, PROTO_NAMES, PROTO_PATHS, weirdString } from './fuzz-arbitraries.ts'

// Requests for one endpoint, built from its descriptor: its example as is (so
// requests pass validation and reach the resolver), the example mutated, or
// values made for each parameter's kind; then, independently, each input
// position is attacked or not — path parameters, the path's shape, the
// endpoint's own query parameters, unknown and repeated query names, the query
// controls, the query's encoding, header names, header values, the body and the
// method. Every case records the positions it attacked, so a run can show that
// each endpoint had every position fuzzed.

export const POSITIONS = ['path-param', 'path', 'query-own', 'query-unknown', 'query-repeat', 'controls', 'query-encoding', 'header-name', 'header-value', 'body', 'method'] as const
export type Position = (typeof POSITIONS)[number]

export const FORMATS = ['json', 'yaml', 'xml', 'csv'] as const

/** name=value, or a bare name (no "="). */
export type Pair = [name: string, value: string | null]

export interface FuzzCase {
  source: 'example' | 'mutated' | 'random'
  /** The endpoint's own parameters (path and query), by name. */
  params: Pair[]
  /** Path params go as query parameters on the alias path (descriptor queryAlias). */
  alias: boolean
  pathShape: PathShape | null
  pathEncoder: EncoderName
  /** Unknown, prototype-named and repeated query parameters. */
  extraQuery: Pair[]
  controls: Pair[]
  queryEncoder: EncoderName
  querySeparator: string
  headers: Array<[string, string]>
  body: BodyCase | null
  method: string
  /** After a 200 with an ETag, the same request again with If-None-Match made from it (a 304, or not). */
  revalidate: Revalidation | null
  /** The client goes away this many ms after sending (its signal aborts, as Node aborts a request whose socket closed). */
  disconnectAfterMs: number | null
  positions: Position[]
}

export type Revalidation = 'exact' | 'strong' | 'in-list' | 'star' | 'changed'

/** The If-None-Match a revalidation sends for an ETag. */
export function ifNoneMatch(etag: string, how: Revalidation): string {
  switch (how) {
    case 'exact':
      return etag
    case 'strong':
      return etag.replace(/^W\//, '')
    case 'in-list':
      return `"other", ${etag}, W/"x"`
    case 'star':
      return '*'
    case 'changed':
      return `${etag.slice(0, -2)}x"`
  }
}

/** The request a case stands for. `target` is path and query as sent. */
export interface FuzzRequest {
  method: string
  target: string
  headers: Array<[string, string]>
  body: string | Uint8Array | undefined
}

/** Replaced, when the request is built, by the ETag the endpoint last answered with (304s). */
export const LAST_ETAG = '<last-etag>'

// ---- the loopback world's examples ----------------------------------------------------------

/**
 * A descriptor's example with public IPv4 addresses (8.8.8.8, 1.1.1.1,
 * 193.0.0.0/21) and private ones (192.168.1.77/24) replaced by documentation
 * ones: the fuzzer sends nothing else, not even as a value.
 */
export function inWorld(value: string): string {
  if (publicAddressesIn(value).length === 0) return value
  const cidrMatch = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(value)
  if (cidrMatch) return `198.51.100.${Number(cidrMatch[5]) >= 24 ? cidrMatch[4] : '0'}/${Math.max(24, Number(cidrMatch[5]))}`
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(value)
  if (v4) return `192.0.2.${Number(v4[4]) || 1}`
  return value.replace(/\d+\.\d+\.\d+\.\d+/g, '192.0.2.1')
}

export function worldExample(endpoint: AnyEndpoint): Record<string, string> | undefined {
  if (!endpoint.example) return undefined
  return Object.fromEntries(Object.entries(endpoint.example).map(([k, v]) => [k, k === 'body' ? bodyInWorld(v) : inWorld(v)]))
}

/**
 * An example body that lists addresses (POST /api/ip/bulk: a JSON array of them)
 * with each public one moved into the world as inWorld moves a parameter, IPv6
 * into 2001:db8::/32; otherwise, or if anything public is left, the body as it was
 * (a case carrying it is then never sent: staysOnTheBox).
 */
function bodyInWorld(body: string): string {
  if (publicAddressesIn(body).length === 0) return body
  let list: unknown
  try {
    list = JSON.parse(body)
  } catch {
    return body
  }
  if (!Array.isArray(list)) return body
  const moved = list.map((entry: unknown, i) => {
    if (typeof entry !== 'string' || publicAddressesIn(entry).length === 0) return entry
    return entry.includes(':') ? `2001:db8::${(i + 1).toString(16)}` : inWorld(entry)
  })
  const text = JSON.stringify(moved)
  return publicAddressesIn(text).length === 0 ? text : body
}

// ---- field names, from the stored example answers ---------------------------------------------

const STORED = loadExamples().endpoints

function walkPaths(value: unknown, prefix: string, depth: number, out: Set<string>): void {
  if (depth > 3 || value === null || typeof value !== 'object') return
  const target = Array.isArray(value) ? value[0] : value
  if (target === null || typeof target !== 'object' || Array.isArray(target)) return
  for (const key of Object.keys(target)) {
    const path = prefix ? `${prefix}.${key}` : key
    out.add(path)
    walkPaths((target as Record<string, unknown>)[key], path, depth + 1, out)
  }
}

/** Dotted field paths of the endpoint's data, as its stored example answer has them. */
export function fieldPaths(endpoint: AnyEndpoint): string[] {
  const data = (STORED[endpoint.name]?.response as { data?: unknown } | undefined)?.data
  const out = new Set<string>()
  walkPaths(data, '', 0, out)
  return [...out]
}

/** Keys of the items of the endpoint's lists: what sort= may name. */
function sortKeys(endpoint: AnyEndpoint): string[] {
  const data = (STORED[endpoint.name]?.response as { data?: unknown } | undefined)?.data
  const out = new Set<string>()
  for (const list of endpoint.lists ?? []) {
    let at: unknown = data
    for (const part of list.split('.')) at = (at as Record<string, unknown> | undefined)?.[part]
    if (Array.isArray(at) && at[0] && typeof at[0] === 'object') for (const key of Object.keys(at[0] as object)) out.add(key)
  }
  return [...out]
}

// ---- values per parameter --------------------------------------------------------------------------

const asn = fc.oneof(
  fc.integer({ min: 0, max: 4_294_967_295 }).map((n) => `AS${n}`),
  fc.constantFrom('AS64496', 'AS64511', 'AS65536', 'as13335', 'AS 13335', 'AS', 'AS-1', 'AS4294967296', 'AS1.1', 'AS00001', 'ASN13335', '13335', '0', 'AS0x10', 'AS１３３３５', `AS${'9'.repeat(400)}`),
)

/** What a parameter of this name and schema may be given: its kind's values, and anything. */
function valuesFor(endpoint: AnyEndpoint, name: string, enumValues: string[] | undefined): fc.Arbitrary<string> {
  if (endpoint.name === 'test.cached' && name === 'delay') return fc.constantFrom('0', '1', '2')
  const own = ((): fc.Arbitrary<string> | undefined => {
    if (enumValues?.length) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...enumValues) }, { weight: 1, arbitrary: fc.constantFrom(...enumValues).map((v) => v.toUpperCase()) })
    switch (name) {
      case 'domain':
        return fc.oneof({ weight: 4, arbitrary: hostName }, { weight: 1, arbitrary: url }, { weight: 1, arbitrary: host }, { weight: 1, arbitrary: address })
      case 'host':
        return fc.oneof({ weight: 3, arbitrary: host }, { weight: 2, arbitrary: url }, { weight: 2, arbitrary: hostName.map((h) => `${h}:8443`) })
      case 'ip':
        return fc.oneof({ weight: 4, arbitrary: address }, { weight: 1, arbitrary: cidr }, { weight: 1, arbitrary: addressWithPort }, { weight: 1, arbitrary: hostName })
      case 'cidr':
      case 'prefix':
      case 'cidrs':
        return fc.oneof({ weight: 4, arbitrary: cidr }, { weight: 1, arbitrary: address })
      case 'asn':
        return asn
      case 'port':
        return port
      case 'selectors':
        return fc.oneof(fc.constantFrom('mail2026', 'default', 'a,b,c', 'selector1,selector2', ',', '_domainkey', 'a.b', '*'), fc.array(fc.constantFrom('s1', 's2', 'x'), { minLength: 1, maxLength: 300 }).map((a) => a.join(',')))
      case 'sender':
        return fc.oneof(hostName.map((h) => `user@${h}`), fc.constantFrom('@', 'a@b@c', '<>', 'postmaster', '"a b"@example.net', 'user@[192.0.2.1]'))
      case 'helo':
        return fc.oneof(hostName, address)
      case 'input':
        return fc.oneof(weirdString, fc.constantFrom('aGVsbG8gd29ybGQ=', 'aGVsbG8', '====', '', 'zz', '00ff', 'a'.repeat(65_536), 'a'.repeat(131_072)), overLong)
      case 'count':
      case 'limit':
      case 'offset':
      case 'ttl':
      case 'ms':
        return numberish
      case 'key':
        return fc.oneof(fc.string({ maxLength: 12 }), protoKey)
      default:
        return undefined
    }
  })()
  return own ? fc.oneof({ weight: 5, arbitrary: own }, { weight: 2, arbitrary: anyValue }) : anyValue
}

/** A value near a valid one: most mutations keep it plausible enough to get past a first check. */
function near(value: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(value.toUpperCase()),
    fc.constant(` ${value} `),
    fc.constant(`${value}.`),
    fc.constant(`${value}..`),
    fc.constant(value.slice(0, -1)),
    fc.constant(''),
    fc.constant(value.repeat(40)),
    fc.constant(value.replace(/\./g, '\u3002')),
    fc.constant(value.replace(/\./g, '%2e')),
    fc.constant(`${value}\u0000`),
    fc.constant(`\uFEFF${value}`),
    fc.constant(value.normalize('NFD')),
    fc.constant(value.replace(/[a-z]/, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))),
    fc.tuple(fc.nat(value.length), fc.oneof(weirdString, protoKey)).map(([i, s]) => value.slice(0, i) + s + value.slice(i)),
  )
}

// ---- controls ---------------------------------------------------------------------------------------

const format = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...FORMATS) }, { weight: 1, arbitrary: fc.constantFrom('JSON', 'Yaml', 'XML', 'CSV', 'html', 'txt', 'json ', '', 'xml\u0000', '__proto__', 'constructor', 'toString') })

/** Controls with valid values: what the example requests carry. */
function validControls(endpoint: AnyEndpoint, claimed: Set<string>): fc.Arbitrary<Pair[]> {
  const fields = fieldPaths(endpoint)
  const sorts = sortKeys(endpoint)
  const top = fields.filter((f) => !f.includes('.'))
  const parts: Array<fc.Arbitrary<Pair[]>> = [
    // format= in two requests of three (fc.option's freq: nil once in freq)
    fc.option(format.map((f): Pair[] => [['format', f]]), { nil: [] as Pair[], freq: 3 }),
    fc.subarray(['pretty', 'compact', 'include_meta', 'include_links']).chain((names) => fc.tuple(...names.map((n) => fc.constantFrom('true', 'false', '1', '0', 'yes', 'no').map((v): Pair => [n, v])))),
  ]
  // fields= or exclude= in one request of four (a field of the stored answer may be missing from another one: a 400).
  if (top.length) {
    const shaping = fc.subarray(top, { minLength: 1, maxLength: Math.min(3, top.length) }).chain((f) => fc.constantFrom<Pair[]>([['fields', f.join(',')]], [['exclude', f.join(',')]]))
    parts.push(fc.oneof({ weight: 3, arbitrary: fc.constant<Pair[]>([]) }, { weight: 1, arbitrary: shaping }))
  }
  if (endpoint.lists?.length) {
    parts.push(
      fc.record(
        {
          limit: fc.constantFrom('1', '2', '5', '1000'),
          offset: fc.constantFrom('0', '1', '2'),
          order: fc.constantFrom('asc', 'desc'),
          ...(sorts.length ? { sort: fc.constantFrom(...sorts) } : {}),
        },
        { requiredKeys: [] },
      ).map((r) => Object.entries(r) as Pair[]),
    )
  }
  return fc.tuple(...parts).map((p) => p.flat().filter(([name]) => !claimed.has(name)))
}

/** Controls with any values: prototype paths, empty segments, 65 fields, numbers out of range. */
function anyControls(endpoint: AnyEndpoint): fc.Arbitrary<Pair[]> {
  const fields = fieldPaths(endpoint)
  const fieldValue = fc.oneof(
    fields.length ? fc.subarray(fields, { minLength: 1 }).map((f) => f.join(',')) : fc.constant('data'),
    fc.constantFrom(...PROTO_PATHS, ...PROTO_NAMES),
    fc.constantFrom('', ',', '.', 'a..b', '.a', 'a.', ' , ', 'a,,b', Array.from({ length: 65 }, (_, i) => `f${i}`).join(','), 'records.ttl.x.y.z', 'data', 'meta', 'success', '*', 'records[0]', 'records.0'),
    fc.array(fc.constantFrom(...PROTO_NAMES, ...fields.slice(0, 5), 'x'), { minLength: 1, maxLength: 8 }).map((p) => p.join('.')),
    weirdString,
  )
  const valueFor = (name: string): fc.Arbitrary<string | null> => {
    const kind = ((): fc.Arbitrary<string> => {
      switch (name) {
        case 'format':
          return format
        case 'fields':
        case 'exclude':
        case 'sort':
          return fieldValue
        case 'order':
          return fc.constantFrom('asc', 'desc', 'ASC', 'Desc', '', 'up', '-1', '__proto__')
        case 'limit':
        case 'offset':
          return numberish
        default:
          return boolish
      }
    })()
    return fc.oneof({ weight: 6, arbitrary: kind }, { weight: 2, arbitrary: anyValue }, { weight: 1, arbitrary: fc.constant(null) })
  }
  return fc.array(
    fc.constantFrom(...CONTROL_NAMES).chain((name) => valueFor(name).map((v): Pair => [name, v])),
    { minLength: 1, maxLength: 5 },
  )
}

// ---- path shapes --------------------------------------------------------------------------------

export type PathShape = 'trailing-slash' | 'double-slash' | 'upper-case' | 'dot-segments' | 'encoded-slash' | 'extra-segment' | 'matrix' | 'backslash' | 'dot-dot-encoded' | 'missing-param' | 'long' | 'no-api-prefix' | 'empty-param'

const pathShape = fc.constantFrom<PathShape>('trailing-slash', 'double-slash', 'upper-case', 'dot-segments', 'encoded-slash', 'extra-segment', 'matrix', 'backslash', 'dot-dot-encoded', 'missing-param', 'long', 'no-api-prefix', 'empty-param')

// ---- the case -----------------------------------------------------------------------------------------

/**
 * Two cases in five attack nothing (so the example gets through to the
 * resolver); in the others each position is attacked with this weight out of
 * 10, independently: a position is attacked in ~0.24 of all cases, and missed by
 * all of 60 runs with odds of ~1e-7.
 */
const ATTACK = 4

function maybe<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: 10 - ATTACK, arbitrary: fc.constant(null) }, { weight: ATTACK, arbitrary: arb })
}

const NO_ATTACKS = { pathParam: null, path: null, queryOwn: null, queryUnknown: null, queryRepeat: null, controls: null, queryEncoding: null, headerName: null, headerValue: null, body: null, method: null } as const

/** The positions an endpoint has: path-param only where the path has parameters. */
export function positionsOf(endpoint: AnyEndpoint): Position[] {
  return POSITIONS.filter((p) => p !== 'path-param' || pathParams(endpoint.path).length > 0)
}

export function fuzzCase(endpoint: AnyEndpoint): fc.Arbitrary<FuzzCase> {
  const params = describeParams(endpoint)
  const inPath = pathParams(endpoint.path)
  const claimed = new Set(params.map((p) => p.name))
  const own = params.filter((p) => p.in !== 'body')
  const ownQuery = own.filter((p) => p.in === 'query')
  const example = worldExample(endpoint) ?? {}
  const exampleParams = Object.entries(example).filter(([k]) => k !== 'body')
  const value = (name: string) => valuesFor(endpoint, name, own.find((p) => p.name === name)?.enum)
  const names = own.map((p) => p.name)

  // Where the values come from.
  const fromExample = fc.constant({ source: 'example' as const, params: exampleParams as Pair[] })
  const mutated = fc
    .record({
      values: fc.tuple(...exampleParams.map(([k, v]) => fc.oneof({ weight: 2, arbitrary: fc.constant(v) }, { weight: 1, arbitrary: near(v) }, { weight: 1, arbitrary: value(k) }).map((x): Pair => [k, x]))),
      drop: fc.subarray(exampleParams.map(([k]) => k), { maxLength: Math.min(1, exampleParams.length) }),
    })
    .map(({ values, drop }) => ({ source: 'mutated' as const, params: values.filter(([k]) => !drop.includes(k)) }))
  const random = fc
    .tuple(...inPath.map((name) => value(name).map((v): Pair => [name, v])), fc.subarray(ownQuery.map((p) => p.name)).chain((qs) => fc.tuple(...qs.map((q) => value(q).map((v): Pair => [q, v])))))
    .map((parts) => ({ source: 'random' as const, params: [...(parts.slice(0, inPath.length) as Pair[]), ...(parts.at(-1) as Pair[])] }))
  const base = fc.oneof({ weight: 3, arbitrary: fromExample }, { weight: 4, arbitrary: mutated }, { weight: 2, arbitrary: random })

  const unknownName = fc.oneof({ weight: 3, arbitrary: protoKey }, { weight: 2, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 1, arbitrary: weirdString }, { weight: 1, arbitrary: fc.constantFrom('', 'body', 'input', 'data', 'meta', ...names) })
  const extraName = fc.oneof(unknownName, fc.constantFrom(...CONTROL_NAMES), ...(names.length ? [fc.constantFrom(...names)] : []))
  const repeated = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(extraName, fc.array(anyValue, { minLength: 2, maxLength: 5 })).map(([n, vs]) => vs.map((v): Pair => [n, v])) },
    { weight: 1, arbitrary: fc.tuple(extraName, fc.constantFrom(100, 1000, 3000), fc.string({ maxLength: 8 })).map(([n, k, v]) => Array.from({ length: k }, (_, i): Pair => [n, i % 2 ? v : String(i)])) },
  )

  const attacks = fc.record({
    pathParam: maybe(inPath.length ? fc.constantFrom(...inPath).chain((name) => fc.oneof(anyValue, value(name), overLong, protoKey).map((v): [string, string] => [name, v])) : fc.constant(null)),
    path: maybe(fc.record({ shape: pathShape, alias: fc.boolean(), encoder: encoderName })),
    queryOwn: maybe(own.length ? fc.array(fc.constantFrom(...names).chain((n) => fc.oneof(value(n), anyValue, overLong).map((v): Pair => [n, v])), { minLength: 1, maxLength: 3 }) : fc.array(fc.tuple(fc.constantFrom('domain', 'host', 'ip', 'input', 'type'), anyValue), { minLength: 1, maxLength: 2 })),
    queryUnknown: maybe(fc.array(fc.tuple(unknownName, fc.option(anyValue, { nil: null, freq: 6 })), { minLength: 1, maxLength: 4 })),
    queryRepeat: maybe(repeated),
    controls: maybe(anyControls(endpoint)),
    queryEncoding: maybe(fc.record({ encoder: encoderName, separator: fc.constantFrom('&', ';', '&&', '&amp;', '%26') })),
    headerName: maybe(fc.array(fc.tuple(headerName.filter((h) => knownHeaderValues(h) === undefined), anyValue.filter((v) => /^[\t\x20-\x7E\x80-\xFF]*$/.test(v))), { minLength: 1, maxLength: 3 })),
    headerValue: maybe(
      fc.array(
        fc.oneof(
          { weight: 5, arbitrary: headerPair },
          { weight: 2, arbitrary: fc.constantFrom<[string, string]>(['if-none-match', LAST_ETAG], ['If-None-Match', `"x", ${LAST_ETAG}`], ['if-none-match', `${LAST_ETAG}x`]) },
        ),
        { minLength: 1, maxLength: 4 },
      ),
    ),
    body: maybe(bodyCase(endpoint.body?.maxBytes)),
    method: maybe(otherMethod),
  })

  return fc
    .record({
      clean: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 2, arbitrary: fc.constant(true) }),
      base,
      safe: validControls(endpoint, claimed),
      attacks,
      // A body endpoint's ordinary request carries its example body (or one of its kind).
      ordinaryBody: endpoint.body ? fc.oneof({ weight: 2, arbitrary: fc.constant<BodyCase>({ bytes: example.body ?? '[]', contentType: 'application/json' }) }, { weight: 1, arbitrary: bodyCase(endpoint.body.maxBytes) }) : fc.constant(null),
      revalidate: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom<Revalidation>('exact', 'exact', 'strong', 'in-list', 'star', 'changed') }),
      disconnectAfterMs: fc.oneof({ weight: 11, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 40 }) }),
      // (fc.option's freq: nil once in freq, here the other two in three have some.)
      safeHeaders: fc.option(fc.array(fc.constantFrom<[string, string]>(['accept-encoding', 'gzip, br'], ['accept', 'application/json'], ['origin', 'https://example.net'], ['x-forwarded-for', '192.0.2.7']), { maxLength: 2 }), { nil: [], freq: 3 }),
    })
    .map(({ clean, base, safe, attacks: attacked, ordinaryBody, revalidate, disconnectAfterMs, safeHeaders }): FuzzCase => {
      const a = clean ? NO_ATTACKS : attacked
      const positions: Position[] = []
      const params = [...base.params]
      if (a.pathParam) {
        positions.push('path-param')
        const [name, v] = a.pathParam
        const i = params.findIndex(([k]) => k === name)
        if (i >= 0) params[i] = [name, v]
        else params.push([name, v])
      }
      if (a.queryOwn) {
        positions.push('query-own')
        params.push(...a.queryOwn)
      }
      const extraQuery: Pair[] = []
      if (a.queryUnknown) {
        positions.push('query-unknown')
        extraQuery.push(...a.queryUnknown)
      }
      if (a.queryRepeat) {
        positions.push('query-repeat')
        extraQuery.push(...a.queryRepeat)
      }
      let controls = safe
      if (a.controls) {
        positions.push('controls')
        controls = [...safe, ...a.controls]
      }
      if (a.path) positions.push('path')
      if (a.queryEncoding) positions.push('query-encoding')
      const headers: Array<[string, string]> = [...safeHeaders]
      if (a.headerName) {
        positions.push('header-name')
        headers.push(...a.headerName)
      }
      if (a.headerValue) {
        positions.push('header-value')
        headers.push(...a.headerValue)
      }
      let body = ordinaryBody
      if (a.body) {
        positions.push('body')
        body = a.body
      }
      let method: string = endpoint.method
      if (a.method) {
        positions.push('method')
        method = a.method
      } else if (a.body && endpoint.method === 'GET') {
        // A body needs a method that may carry one.
        method = 'POST'
      }
      return {
        source: base.source,
        params,
        alias: a.path?.alias ?? false,
        pathShape: a.path?.shape ?? null,
        pathEncoder: a.path?.encoder ?? 'component',
        extraQuery,
        controls,
        queryEncoder: a.queryEncoding?.encoder ?? 'component',
        querySeparator: a.queryEncoding?.separator ?? '&',
        headers,
        body,
        method,
        revalidate,
        disconnectAfterMs,
        positions,
      }
    })
}

// ---- building the request --------------------------------------------------------------------------

const SENDS_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'QUERY', 'FOO', 'post', 'patch'])

export function buildRequest(endpoint: AnyEndpoint, c: FuzzCase, lastEtag: string | undefined): FuzzRequest {
  const inPath = pathParams(endpoint.path)
  const values = new Map<string, string | null>()
  const query: Pair[] = []
  for (const [k, v] of c.params) {
    // A path param given twice (attacked): the first goes in the path, the next as a query parameter.
    if (inPath.includes(k) && !values.has(k)) values.set(k, v)
    else query.push([k, v])
  }
  const alias = c.alias ? aliasPath(endpoint) : undefined
  const encodePath = ENCODERS[c.pathEncoder]
  let path: string
  if (alias) {
    path = alias
    for (const name of endpoint.queryAlias ?? []) if (values.has(name)) query.unshift([name, values.get(name) ?? ''])
  } else {
    path = endpoint.path.replace(/(\*\*)?:([A-Za-z0-9_]+)/g, (_, star: string | undefined, name: string) => {
      const v = values.get(name) ?? 'x'
      // A rest-of-path param takes a URL as typed (slashes and all) when the encoder is raw.
      return star && c.pathEncoder === 'raw' ? v : encodePath(v)
    })
  }
  path = reshape(path, c.pathShape)
  const encodeQuery = ENCODERS[c.queryEncoder]
  const pairs = [...query, ...c.extraQuery, ...c.controls].map(([k, v]) => (v === null ? encodeQuery(k) : `${encodeQuery(k)}=${encodeQuery(v)}`))
  const target = pairs.length ? `${path}?${pairs.join(c.querySeparator)}` : path
  const headers = c.headers.map(([k, v]): [string, string] => [k, v.replace(LAST_ETAG, lastEtag ?? '"no-etag-yet"')])
  let body: string | Uint8Array | undefined
  if (c.body && SENDS_BODY.has(c.method)) {
    body = c.body.bytes
    if (c.body.contentType !== undefined && !headers.some(([k]) => k.toLowerCase() === 'content-type')) headers.push(['content-type', c.body.contentType])
  }
  return { method: c.method, target, headers, body }
}

function reshape(path: string, shape: PathShape | null): string {
  switch (shape) {
    case null:
      return path
    case 'trailing-slash':
      return `${path}/`
    case 'double-slash':
      return path.replace(/\//g, '//')
    case 'upper-case':
      return path.toUpperCase()
    case 'dot-segments':
      return path.replace(/^\/api\//, '/api/./x/../')
    case 'encoded-slash':
      return path.replace(/^\/api\//, '/api%2F')
    case 'extra-segment':
      return `${path}/extra/segment`
    case 'matrix':
      return `${path};a=b`
    case 'backslash':
      return path.replace(/\//g, '\\')
    case 'dot-dot-encoded':
      return `/api/%2e%2e/${path.slice(5)}`
    case 'missing-param':
      return path.replace(/\/[^/]*$/, '/')
    case 'long':
      return `${path}${'/a'.repeat(5000)}`
    case 'no-api-prefix':
      return path.replace(/^\/api/, '')
    case 'empty-param':
      return path.replace(/\/[^/]*$/, '/%20')
  }
}

/** Every string of a request that could name a host to the service (path, query, body). */
export function requestTexts(request: FuzzRequest): string[] {
  const texts = [request.target]
  for (const [k, v] of request.headers) if (/^(host|origin|referer|forwarded|x-forwarded-for|x-forwarded-host|x-real-ip)$/i.test(k)) texts.push(v)
  if (typeof request.body === 'string') texts.push(request.body)
  else if (request.body) texts.push(Buffer.from(request.body).toString('utf8'), Buffer.from(request.body).toString('latin1'))
  return texts
}

