import type { AnyEndpoint, Tag } from '../../runtime/define-endpoint.ts'
import { toSeconds } from '../../runtime/duration.ts'
import { MAX_LIMIT } from '../../runtime/controls.ts'
import { controlsFor } from '../../runtime/control-scope.ts'
import { aliasPath } from '../../runtime/registry.ts'
import type { ExamplesFile, StoredExample } from './examples.ts'
import { describeParams } from './describe-params.ts'
import type { JsonSchema } from './json-schema.ts'
import { toJsonSchema } from './json-schema.ts'

// OpenAPI 3.1 built from the registry alone: adding a descriptor documents it.

const TAG_DESCRIPTIONS: Record<Tag, string> = {
  network: 'IP addresses, prefixes, ASNs, BGP, RPKI and CIDR math',
  dns: 'DNS records, DNSSEC, SPF/DMARC records and propagation',
  domain: 'Registration data (RDAP) and domain intelligence',
  email: 'Email authentication and deliverability',
  tls: 'TLS endpoints, certificates and certificate transparency',
  web: 'HTTP headers, redirects and robots.txt',
  security: 'Blocklists and security.txt',
  utilities: 'Identifiers, hashes and encodings',
  data: 'Reference data: bogons, record types, ports, TLDs',
  flagship: 'One-call reports',
  meta: 'The service itself: health, registry, usage',
}

const bool = { type: 'string', enum: ['true', 'false', '1', '0', 'yes', 'no'] }

// The introduction of the reference (CommonMark): what every endpoint shares.
const DESCRIPTION = `Lookups and analysis of IP addresses, networks, DNS, domains and more, every answer in one envelope.

**Envelope.** A success is \`{"success": true, "data", "meta": {"cache", "category", "endpoint", "tier"}, "links": {"self"}, "timestamp", "request_id"}\`;
an error is \`{"success": false, "error": {"code", "message", "details"}, "request_id", "timestamp"}\`. The request id (a ULID) is also in \`X-Request-Id\`.
Error codes: \`bad_request\` 400 (\`details.param\` names the parameter), \`invalid_api_key\` 401, \`not_found\` 404, \`method_not_allowed\` 405,
\`request_timeout\` 408, \`payload_too_large\` 413, \`rate_limited\` 429 (\`Retry-After\`), \`request_header_fields_too_large\` 431 (URL and headers over 16 KiB),
\`internal_error\` 500, \`upstream_error\` 502 (\`details.upstream\`, \`details.reason\`), \`service_unavailable\` 503, \`timeout\` 504.
Requests the HTTP parser refuses (a malformed request line or header, broken chunked framing; \`details.parse_error\` names the fault) get the same envelope, then the connection closes.

**Query controls**: \`format=json|yaml|xml|csv\`, \`pretty\`, \`fields\` / \`exclude\` (dotted paths into data),
\`compact\` (no meta and links; \`include_meta\` / \`include_links\` win) on every enveloped answer;
\`sort\` + \`order\`, \`limit\` + \`offset\` (adds \`meta.pagination\`) where the answer has lists (elsewhere they are a 400).
Each operation lists the ones it takes. Booleans take \`true/false/1/0/yes/no\`.

**Path or query.** Endpoints that take a domain, host, address, prefix or ASN in the path also answer on the bare path with it as a query parameter
(\`/api/dns/lookup?domain=example.com\`); each such operation says so in its description and in \`x-query-alias\`.

**Keys and limits.** Anonymous use is limited per client IP; an \`x-api-key\` header (\`il_…\`) raises the limit to its tier's.
Limits are per minute in cost units (\`x-cost\` of each operation); every answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` and \`RateLimit-Policy\`.
\`GET /api/usage\` shows yours.

**Examples.** The example answers below were recorded from this service (\`npm run docs:examples\`) while it answered the test suite's offline copy of the internet:
real answers of the current code, with addresses and records from test zones rather than live ones.`

const CONTROL_PARAMETERS: Record<string, JsonSchema> = {
  format: { name: 'format', in: 'query', description: 'Serialization of the response', schema: { type: 'string', enum: ['json', 'yaml', 'xml', 'csv'], default: 'json' } },
  pretty: { name: 'pretty', in: 'query', description: 'Indent JSON output by 2 spaces', schema: bool },
  fields: { name: 'fields', in: 'query', description: 'Comma-separated dotted paths of data to keep', schema: { type: 'string' } },
  exclude: { name: 'exclude', in: 'query', description: 'Comma-separated dotted paths of data to remove', schema: { type: 'string' } },
  include_meta: { name: 'include_meta', in: 'query', description: 'Explicitly include or drop meta (wins over compact)', schema: bool },
  include_links: { name: 'include_links', in: 'query', description: 'Explicitly include or drop links (wins over compact)', schema: bool },
  compact: { name: 'compact', in: 'query', description: 'Drop meta and links', schema: bool },
  sort: { name: 'sort', in: 'query', description: "Dotted key to sort the endpoint's lists by", schema: { type: 'string' } },
  order: { name: 'order', in: 'query', description: 'Sort direction', schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } },
  limit: { name: 'limit', in: 'query', description: `Items per list (1-${MAX_LIMIT})`, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT } },
  offset: { name: 'offset', in: 'query', description: 'Items to skip in each list', schema: { type: 'integer', minimum: 0 } },
}

/**
 * format= of data sent without the envelope (the OpenAPI document): CSV has no form
 * for it (runtime/respond.ts rawResponse answers JSON then), so it is not offered.
 */
const RAW_FORMAT_PARAMETER: JsonSchema = {
  name: 'format',
  in: 'query',
  description: 'Serialization of the document',
  schema: { type: 'string', enum: ['json', 'yaml', 'xml'], default: 'json' },
}

const RATE_HEADERS: Record<string, JsonSchema> = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
}

/** A recorded answer as an OpenAPI Example Object. */
function exampleObject(example: StoredExample): JsonSchema {
  return { summary: `${example.request.method} ${example.request.path}`, value: example.response }
}

function errorResponse(description: string, example: StoredExample | undefined, extraHeaders: Record<string, JsonSchema> = {}): JsonSchema {
  const schema = { $ref: '#/components/schemas/ErrorEnvelope' }
  const json: JsonSchema = { schema }
  if (example) json.examples = { [String((example.response as { error?: { code?: unknown } }).error?.code ?? 'error')]: exampleObject(example) }
  return {
    description,
    headers: { ...RATE_HEADERS, ...extraHeaders },
    content: { 'application/json': json, 'application/yaml': { schema }, 'application/xml': { schema: { type: 'string' } } },
  }
}

function operationId(name: string): string {
  return name.replace(/[.-]([a-z0-9])/g, (_, c: string) => c.toUpperCase())
}

function openApiPath(path: string): string {
  return path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, '{$1}')
}

function successContent(endpoint: AnyEndpoint, example: StoredExample | undefined): JsonSchema {
  if (endpoint.contentType !== undefined) {
    // A document of its own (the reference page, its script): no envelope, no formats.
    return { [endpoint.contentType.split(';')[0]!.trim()]: { schema: { type: 'string' } } }
  }
  const data = toJsonSchema(endpoint.data, 'output')
  const raw = endpoint.envelope === false
  const schema: JsonSchema = raw
    ? data
    : {
        type: 'object',
        required: ['success', 'data', 'timestamp', 'request_id'],
        properties: {
          success: { const: true },
          data,
          meta: { $ref: '#/components/schemas/Meta' },
          links: { $ref: '#/components/schemas/Links' },
          timestamp: { type: 'string', format: 'date-time' },
          request_id: { type: 'string', description: 'ULID', pattern: '^[0-9A-HJKMNP-TV-Z]{26}$' },
        },
      }
  return {
    'application/json': example ? { schema, examples: { [exampleName(endpoint)]: exampleObject(example) } } : { schema },
    'application/yaml': { schema },
    'application/xml': { schema: { type: 'string', description: raw ? 'The data as XML' : 'The envelope as XML: root <response>, list items <item>' } },
    // CSV is a table of data with the envelope in headers; data sent as-is has no such form.
    ...(raw
      ? {}
      : {
          'text/csv': {
            schema: {
              type: 'string',
              description:
                'Every value of data: one row per item of the list the endpoint names (its other values repeated on each row), otherwise one row; columns are dotted paths, lists of plain values a JSON text cell; envelope fields in X-* headers',
            },
          },
        }),
    ...(endpoint.stream === undefined ? {} : { 'application/x-ndjson': { schema: streamedItem(data, endpoint.stream) } }),
  }
}

/**
 * The NDJSON form of an endpoint that streams (descriptor `stream`): one line per
 * item of that list, each the item's schema; asked with Accept: application/x-ndjson.
 */
function streamedItem(data: JsonSchema, path: string): JsonSchema {
  let schema: JsonSchema | undefined = data
  for (const key of path.split('.')) schema = (schema?.properties as Record<string, JsonSchema> | undefined)?.[key]
  const item = (schema?.items as JsonSchema | undefined) ?? {}
  return {
    ...item,
    description: `One line per item of \`${path}\`, each sent as soon as it is ready (Accept: application/x-ndjson, and no format=). If the work fails once lines have gone out, the last line is the error envelope.`,
  }
}

/**
 * The headers of a success: the rate-limit ones always; for cached endpoints the
 * validator and caching ones (runtime/http/entity-tag.ts, content-coding.ts); for
 * paged answers Link (runtime/http/page-links.ts).
 */
function successHeaders(endpoint: AnyEndpoint): JsonSchema {
  const headers: JsonSchema = { ...RATE_HEADERS, 'Content-Encoding': { $ref: '#/components/headers/Content-Encoding' } }
  if (endpoint.cache !== false) {
    headers.ETag = { $ref: '#/components/headers/ETag' }
    headers['Cache-Control'] = { $ref: '#/components/headers/Cache-Control' }
    headers.Vary = { $ref: '#/components/headers/Vary' }
  }
  if (endpoint.pagination !== undefined || controlsFor(endpoint).includes('limit')) headers.Link = { $ref: '#/components/headers/Link' }
  return headers
}

/** The example's name in the reference: its input, e.g. "example.com" or "sha256 hello". */
function exampleName(endpoint: AnyEndpoint): string {
  const values = Object.entries(endpoint.example ?? {})
    .filter(([name]) => name !== 'body')
    .map(([, value]) => value)
  return values.length ? values.join(' ') : 'example'
}

/**
 * The bare path an endpoint also answers on, with its trailing path params as query
 * parameters (descriptor `queryAlias`). It is the same operation, so it is said on
 * the operation (a sentence and `x-query-alias`) rather than made a second path:
 * readers and the reference's sidebar then see each endpoint once.
 */
function queryAlias(endpoint: AnyEndpoint): { sentence: string; extension: JsonSchema } | undefined {
  const path = aliasPath(endpoint)
  if (path === undefined) return undefined
  const names = [...(endpoint.queryAlias ?? [])]
  const query = names.map((name) => `${name}={${name}}`).join('&')
  const params = names.map((name) => `\`${name}\``).join(' and ')
  return {
    sentence: `Also answers \`${endpoint.method} ${path}?${query}\`: the same operation, with ${params} as query ${names.length > 1 ? 'parameters' : 'parameter'}.`,
    extension: { path, parameters: names },
  }
}

function operation(endpoint: AnyEndpoint, example: StoredExample | undefined): JsonSchema {
  const params = describeParams(endpoint)
  const own = params
    .filter((p) => p.in !== 'body')
    .map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      ...(p.description ? { description: p.description } : {}),
      schema: p.schema,
      // What "try it" starts with, and what the example answer was made from.
      ...(endpoint.example?.[p.name] !== undefined ? { example: endpoint.example[p.name] } : {}),
    }))
  // Only the controls the server takes here (runtime/control-scope.ts): a client made
  // from the document then cannot send a call that is refused for one of them.
  const controls = controlsFor(endpoint).map((name) =>
    name === 'format' && endpoint.envelope === false ? RAW_FORMAT_PARAMETER : { $ref: `#/components/parameters/${name}` },
  )
  const op: JsonSchema = {
    operationId: operationId(endpoint.name),
    summary: endpoint.summary,
    tags: [endpoint.tag],
    parameters: [...own, ...controls],
    security: [{}, { apiKey: [] }],
    'x-cost': endpoint.cost,
    // How the cost is counted when it depends on the input (a bulk list).
    ...(endpoint.inputCost === undefined ? {} : { 'x-cost-rule': endpoint.inputCost }),
    'x-cache-ttl-seconds': endpoint.cache === false ? null : toSeconds(endpoint.cache.ttl),
    responses: {
      '200': {
        description: example ? `Success. The example is the answer to \`${example.request.method} ${example.request.path}\`.` : 'Success',
        headers: successHeaders(endpoint),
        content: successContent(endpoint, example),
      },
      '400': { $ref: '#/components/responses/BadRequest' },
      '401': { $ref: '#/components/responses/Unauthorized' },
      '404': { $ref: '#/components/responses/NotFound' },
      '429': { $ref: '#/components/responses/RateLimited' },
      '500': { $ref: '#/components/responses/InternalError' },
      '502': { $ref: '#/components/responses/UpstreamError' },
    },
  }
  if (endpoint.upstreams?.length) (op.responses as JsonSchema)['504'] = { $ref: '#/components/responses/Timeout' }
  // Cached answers carry an ETag; If-None-Match with it is answered 304 (runtime/http/entity-tag.ts).
  if (endpoint.cache !== false && endpoint.method === 'GET') {
    ;(op.responses as JsonSchema)['304'] = {
      description: 'Not Modified: the request\'s If-None-Match names the current ETag. No body; Cache-Control, ETag, Vary and the rate-limit headers as the 200 would have them.',
      headers: { ...RATE_HEADERS, ETag: { $ref: '#/components/headers/ETag' }, 'Cache-Control': { $ref: '#/components/headers/Cache-Control' }, Vary: { $ref: '#/components/headers/Vary' } },
    }
  }
  // A 3.1 reference may carry its own description: the endpoint says when it is unavailable.
  if (endpoint.unavailable !== undefined) (op.responses as JsonSchema)['503'] = { $ref: '#/components/responses/ServiceUnavailable', description: `${endpoint.unavailable} (service_unavailable)` }
  const alias = queryAlias(endpoint)
  const description = [endpoint.description, alias?.sentence].filter((text) => text !== undefined && text !== '').join('\n\n')
  if (description) op.description = description
  if (alias) op['x-query-alias'] = alias.extension
  const body = params.find((p) => p.in === 'body')
  if (body && endpoint.body) {
    const sent = example?.request.body !== undefined ? example.request : undefined
    const bodyExample = (type: string) => (sent && sent.contentType === type ? { examples: { example: { value: type === 'application/json' ? JSON.parse(sent.body!) : sent.body } } } : {})
    op.requestBody = {
      required: true,
      content: {
        'application/json': { schema: body.schema, ...bodyExample('application/json') },
        ...(endpoint.body.kind === 'json-or-lines'
          ? {
              'text/plain': { schema: { type: 'string', description: 'one entry per line' }, ...bodyExample('text/plain') },
              'text/csv': { schema: { type: 'string', description: 'one entry per row: its first cell (rows starting with # skipped)' } },
            }
          : {}),
      },
    }
    ;(op.responses as JsonSchema)['413'] = { $ref: '#/components/responses/PayloadTooLarge' }
  }
  return op
}

/**
 * `examples`: recorded answers (plugins/meta/examples.json, made by
 * `npm run docs:examples`) shown with each operation and error response.
 */
export function buildOpenApi(endpoints: readonly AnyEndpoint[], version: string, examples: ExamplesFile = { endpoints: {}, errors: {} }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {}
  // One operation per endpoint; the query form of an aliased one is part of it (queryAlias()).
  for (const endpoint of [...endpoints].sort((a, b) => a.path.localeCompare(b.path))) {
    const item = (paths[openApiPath(endpoint.path)] ??= {})
    item[endpoint.method.toLowerCase()] = operation(endpoint, examples.endpoints[endpoint.name])
  }
  const usedTags = [...new Set(endpoints.map((e) => e.tag))].sort()
  return {
    openapi: '3.1.0',
    info: {
      title: 'infralens',
      version,
      summary: 'Internet infrastructure lookups behind one envelope',
      description: DESCRIPTION,
    },
    servers: [{ url: '/' }],
    tags: usedTags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'il_ followed by 32+ base62 characters' } },
      parameters: CONTROL_PARAMETERS,
      headers: {
        'X-Request-Id': { description: 'ULID of this request (also request_id in the body)', schema: { type: 'string' } },
        'RateLimit-Limit': { description: 'Requests (cost units) per window for your tier', schema: { type: 'integer' } },
        'RateLimit-Remaining': { description: 'Units left in the current window', schema: { type: 'integer' } },
        'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
        'RateLimit-Policy': { description: 'limit;w=window-seconds', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
        ETag: { description: 'Weak validator of the answer: the data, the request target and the tier (not request_id or timestamp). Send it back in If-None-Match to get 304 while it holds.', schema: { type: 'string' } },
        'Cache-Control': { description: 'private, max-age=<seconds the answer stays fresh>: the body names the caller\'s tier and the headers its limits, so only the caller\'s own cache may keep it', schema: { type: 'string' } },
        Vary: { description: 'Accept-Encoding, Origin: a cached copy is for this coding and this kind of client (CORS headers come only with an Origin)', schema: { type: 'string' } },
        'Content-Encoding': { description: 'gzip or br when the request\'s Accept-Encoding allows it and the answer is 1 KB or more; absent otherwise', schema: { type: 'string', enum: ['gzip', 'br'] } },
        Link: { description: 'RFC 8288 paging links of a paged answer: rel="first", "prev" (not on the first page), "next" (not on the last), "last", each the request with only offset changed', schema: { type: 'string' } },
      },
      schemas: {
        Meta: {
          type: 'object',
          required: ['cache', 'category', 'endpoint', 'tier'],
          properties: {
            cache: { type: 'string', enum: ['hit', 'miss'] },
            category: { type: 'string' },
            endpoint: { type: 'string' },
            tier: { type: 'string', examples: ['anonymous', 'free', 'pro'] },
            stale: {
              type: 'object',
              description: 'Present when a cached answer past its TTL is served because the upstream failed',
              properties: { reason: { type: 'string' }, expired_at: { type: 'string', format: 'date-time' } },
            },
            pagination: {
              type: 'object',
              properties: {
                total: { type: ['integer', 'string'] },
                limit: { type: 'integer' },
                offset: { type: ['integer', 'string'] },
              },
            },
          },
        },
        Links: { type: 'object', required: ['self'], properties: { self: { type: 'string' } } },
        ErrorEnvelope: {
          type: 'object',
          required: ['success', 'error', 'request_id', 'timestamp'],
          properties: {
            success: { const: false },
            error: {
              type: 'object',
              required: ['code', 'message', 'details'],
              properties: {
                code: {
                  type: 'string',
                  enum: ['bad_request', 'invalid_api_key', 'not_found', 'method_not_allowed', 'request_timeout', 'payload_too_large', 'rate_limited', 'request_header_fields_too_large', 'internal_error', 'upstream_error', 'service_unavailable', 'timeout'],
                },
                message: { type: 'string' },
                details: { type: 'object' },
              },
            },
            request_id: { type: 'string' },
            timestamp: { type: 'string', format: 'date-time' },
          },
        },
      },
      responses: {
        BadRequest: errorResponse('Invalid or missing input (bad_request); details.param names the parameter', examples.errors.bad_request),
        Unauthorized: errorResponse('Unknown or malformed API key (invalid_api_key)', examples.errors.invalid_api_key),
        NotFound: errorResponse('No such route, or the object does not exist (not_found)', examples.errors.not_found),
        PayloadTooLarge: errorResponse('Request body too large (payload_too_large)', examples.errors.payload_too_large),
        RateLimited: errorResponse('Rate limit of your tier exceeded (rate_limited)', examples.errors.rate_limited, { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
        InternalError: errorResponse('Bug in the service (internal_error); logged with the request id', examples.errors.internal_error),
        ServiceUnavailable: errorResponse('The service cannot answer this yet (service_unavailable)', examples.errors.service_unavailable),
        Timeout: errorResponse('The request deadline passed before the upstreams answered (timeout)', examples.errors.timeout),
        UpstreamError: errorResponse('An upstream data source failed (upstream_error); details.upstream and details.reason say which and how', examples.errors.upstream_error),
      },
    },
  }
}
