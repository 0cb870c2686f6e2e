import type { z } from 'zod'
import type { Duration } from './duration.ts'
import type { DecodedType } from './net/dns/dns-decoded-types.ts'

export const TAGS = ['network', 'dns', 'domain', 'email', 'tls', 'web', 'security', 'utilities', 'data', 'flagship', 'meta'] as const
export type Tag = (typeof TAGS)[number]

export type HttpMethod = 'GET' | 'POST'

/**
 * How a request body becomes input. The runtime reads and bounds the body; the
 * descriptor's `params` schema then validates `input.body` like any other field.
 * - json: a JSON document
 * - json-or-lines: a JSON document, or plain text read as one entry per non-empty line
 */
export interface BodySpec {
  kind: 'json' | 'json-or-lines'
  /** Bytes accepted before 413. */
  maxBytes: number
}

/** The declarative description of one endpoint: what it is, never how it works. */
export interface EndpointDescriptor<P extends z.ZodObject = z.ZodObject, D extends z.ZodType = z.ZodType> {
  /** Dotted id: meta.endpoint, and the key resolvers register under. */
  name: string
  tag: Tag
  method: HttpMethod
  /** h3 route pattern; `:param` for one segment, `**:param` for the rest of the path. */
  path: string
  /** Path params that may instead arrive as query parameters on the bare path. */
  queryAlias?: readonly string[]
  /** One line: the operation's title in the reference and in /api/endpoints. */
  summary: string
  /**
   * A sentence or two for a user of the API, shown under the title: what it answers,
   * which upstream it asks, what to expect (caching, limits, which outcomes are 200s).
   * Not the summary again. Every descriptor in registry/ has one (a test checks it).
   */
  description?: string
  /** Path params, endpoint query params and `body` together, validated as one object. */
  params: P
  /** Schema of `data`: documents the endpoint (OpenAPI) and is checked in tests. */
  data: D
  body?: BodySpec
  upstreams?: readonly string[]
  /** TTL of the unshaped data; a resolver may lower it. false: never cached. */
  cache: { ttl: Duration } | false
  /**
   * When the endpoint answers 503 service_unavailable (e.g. readiness, data not
   * loaded yet): a sentence for the docs, which then declare the 503 response.
   */
  unavailable?: string
  /**
   * CPU-heavy (tens of ms per request at the input's bounds): after auth and rate
   * limit, the rest of the request (body decoding, params validation, the resolver,
   * shaping, envelope, format) runs in the CPU pool's worker threads
   * (runtime/cpu, INFRALENS_CPU_WORKERS), so it never holds the event loop. The
   * resolver must come from a work module (api.work); the endpoint has no
   * upstreams, is never cached, and says in `unavailable` that a full pool queue
   * answers 503.
   */
  offload?: true
  /**
   * The one DNS record type the endpoint asks for (the /api/dns/<type> family):
   * the plugin that answers reads it here, never out of the name or the path. The
   * dns plugin answers every descriptor that has one. Only types the DNS client
   * decodes (runtime/net/dns/dns-decoded-types.ts): others would be opaque hex.
   */
  dnsType?: DecodedType
  /** Rate-limit weight; 0 reports the limit without spending from it. */
  cost: number
  /**
   * The cost depends on the input (a batch costs what its items cost): a sentence
   * for the docs saying how it is counted (`x-cost-rule`), `cost` then being the
   * unit it is counted in. The plugin that answers registers the pricing with
   * api.price; the rate limit is charged that amount after the input is validated
   * and before the resolver runs (input that fails validation costs 1, like any
   * request refused before the limiter). Not with `offload`.
   */
  inputCost?: string
  /**
   * A list in data (dotted path) that may go out as NDJSON, one line per item as
   * soon as it is ready, when the request asks `Accept: application/x-ndjson` (and
   * names no `format=`). The resolver returns a Streamed answer (runtime/streamed.ts).
   * Needs `cache: false`; not with `offload`.
   */
  stream?: string
  /**
   * A top-level list of data the resolver may answer as its JSON bytes, an
   * EncodedJson (runtime/encoded-json.ts), when building it as objects would
   * cost more than the lookups behind it (100,000 bulk results). JSON answers
   * without shaping controls splice the bytes; everything else gets the list
   * decoded, so the answer is the same either way.
   */
  preEncoded?: string
  /** Dotted paths of the arrays in data that sort/order/limit/offset act on. */
  lists?: readonly string[]
  /**
   * For endpoints that page themselves (their params claim limit/offset, e.g. an
   * address block far too large to build): dotted paths in data whose values
   * become meta.pagination.
   */
  pagination?: { total: string; limit: string; offset: string }
  /** With format=csv, this list becomes the rows (instead of data being one row). */
  csvRows?: string
  /** false: data is sent as-is, without the envelope (e.g. the OpenAPI document itself). */
  envelope?: boolean
  /**
   * Media type of an answer that is not data but a document of its own (e.g.
   * `text/html; charset=utf-8` for the API reference page): the resolver returns
   * the body as a string, sent as-is with this content type; format= does not
   * apply. Needs `envelope: false`.
   */
  contentType?: string
  /**
   * Example input, used by docs (the OpenAPI examples, the committed example
   * answers) and by tests that call every endpoint. Path and query params by name;
   * for endpoints with a body, `body` is the request body as sent.
   * Required when the endpoint has required params (a test checks it).
   */
  example?: Readonly<Record<string, string>>
}

// Descriptors are stored in heterogeneous lists; this erases the schema generics.
export type AnyEndpoint = EndpointDescriptor<z.ZodObject, z.ZodType>

export function defineEndpoint<P extends z.ZodObject, D extends z.ZodType>(
  descriptor: EndpointDescriptor<P, D>,
): Readonly<EndpointDescriptor<P, D>> {
  return Object.freeze(descriptor)
}
