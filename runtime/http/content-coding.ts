import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

// Content codings (RFC 9110 §8.4, §12.5.3): gzip and br, chosen by Accept-Encoding.
//
// Where it happens: in the response builder (runtime/respond.ts), the one place
// every answer's body passes as a string — successes, raw documents, errors from
// the pipeline and from the router, and offloaded answers too, because a CPU
// worker builds its response with this same code: it compresses there, off the
// event loop, and the main thread only moves the bytes. Not a pipeline layer
// (errors and offloaded answers skip layers), not a node-level transform (it
// would have to buffer or stream bytes the builder already holds as one string,
// costs a stream per response, and in-process app.request() would not see it).
//
// Dynamic answers are compressed synchronously, per request, above MIN_BYTES:
// this service's per-request answers are at most a few hundred KB, which the
// levels below compress in ~0.5-2 ms (bench numbers in the README), the same
// order as rendering them; a promise per answer would cost the cheap path more.
// Static documents are compressed once, asynchronously (static-document.ts).

export type Coding = 'br' | 'gzip' | 'identity'

/** Below this many characters a body goes as it is: the header and the CPU cost more than the bytes saved. */
export const MIN_BYTES = 1024

/**
 * Per request: gzip's default level, brotli quality 5. Brotli's default (11) takes
 * 100-400x longer for ~10% less (a 168 KB JSON answer: 1.2 ms at 5, 407 ms at 11).
 */
export const DYNAMIC_GZIP_LEVEL = 6
export const DYNAMIC_BROTLI_QUALITY = 5

/**
 * Types worth compressing: text, and the structured text types this service
 * sends. Everything else (images, archives, fonts: already compressed) and
 * text/event-stream (each event must reach the client when it is written) goes
 * as it is.
 */
const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:json|xml|yaml|x-yaml|javascript|ecmascript|x-ndjson|[\w.-]+\+(?:json|xml))\b|image\/svg\+xml)/i

export function compressible(contentType: string | undefined): boolean {
  return contentType !== undefined && COMPRESSIBLE.test(contentType)
}

/** Adds a token to Vary, once. */
export function addVary(headers: Record<string, string>, token: string): void {
  const vary = headers.vary
  if (vary === undefined) headers.vary = token
  else if (!vary.toLowerCase().split(/\s*,\s*/).includes(token.toLowerCase())) headers.vary = `${vary}, ${token}`
}

/** A qvalue (RFC 9110 §12.4.2), or undefined when it is not one. */
function qvalue(text: string): number | undefined {
  return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text) ? Number(text) : undefined
}

function parse(header: string): Coding {
  let br: number | undefined
  let gzip: number | undefined
  let identity: number | undefined
  let star: number | undefined
  let lowest = 1
  for (const entry of header.split(',')) {
    const [name = '', ...params] = entry.split(';')
    const coding = name.trim().toLowerCase()
    if (coding === '') continue
    let q: number | undefined = 1
    for (const param of params) {
      const eq = param.indexOf('=')
      if (eq !== -1 && param.slice(0, eq).trim().toLowerCase() === 'q') q = qvalue(param.slice(eq + 1).trim())
    }
    // A malformed weight: the entry is ignored rather than guessed at.
    if (q === undefined) continue
    lowest = Math.min(lowest, q)
    if (coding === 'br') br = Math.max(br ?? 0, q)
    else if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, q)
    else if (coding === 'identity') identity = Math.max(identity ?? 0, q)
    else if (coding === '*') star = Math.max(star ?? 0, q)
  }
  // `*` stands for every coding not named. identity not named (and no `*`) is
  // still acceptable, but as the client's last choice: it weighs the lowest
  // weight the header gives (negotiator's rule), so `gzip;q=0.5` still means gzip.
  const qBr = br ?? star ?? 0
  const qGzip = gzip ?? star ?? 0
  const qIdentity = identity ?? star ?? lowest
  // Highest weight wins; on a tie the server's order: br (smallest), gzip, identity.
  // Nothing acceptable at all (`*;q=0`): identity anyway, rather than a 406 for
  // an answer every client can read.
  if (qBr > 0 && qBr >= qGzip && qBr >= qIdentity) return 'br'
  if (qGzip > 0 && qGzip >= qIdentity) return 'gzip'
  return 'identity'
}

// Clients send a handful of distinct Accept-Encoding values: each is parsed once.
const parsed = new Map<string, Coding>()
const MAX_REMEMBERED = 256

/** The coding to answer with. No Accept-Encoding at all: identity (RFC 9110 allows any, but not every client decodes). */
export function negotiate(acceptEncoding: string | null): Coding {
  if (acceptEncoding === null) return 'identity'
  let coding = parsed.get(acceptEncoding)
  if (coding === undefined) {
    coding = parse(acceptEncoding)
    if (parsed.size < MAX_REMEMBERED) parsed.set(acceptEncoding, coding)
  }
  return coding
}

/**
 * Whether a body with these headers goes coded, and in what. `headers` gets Vary
 * (and the caller sets Content-Encoding from the answer). Vary goes on every
 * answer a cache may store (anything but no-store) whatever its size — the same
 * URL may answer 900 bytes today and 90 KB tomorrow — and on every answer past the
 * threshold; a small no-store answer (an error, /api/uuid) has no cache to tell
 * apart and is sent without it: one header less on the cheapest path.
 */
export function chooseCoding(length: number, headers: Record<string, string>, header: (name: string) => string | null): Coding {
  if (headers['content-encoding'] !== undefined || !compressible(headers['content-type'])) return 'identity'
  const stored = !headers['cache-control']?.includes('no-store')
  if (stored) varyStored(headers)
  if (length < MIN_BYTES) return 'identity'
  addVary(headers, 'Accept-Encoding')
  return negotiate(header('accept-encoding'))
}

/**
 * What a stored copy of an answer depends on besides its URL: the coding, and
 * the Origin header, as the CORS headers are sent only when a request has one (a
 * browser's copy fetched without Origin must not answer its cross-origin fetch).
 */
export function varyStored(headers: Record<string, string>): void {
  // Nearly always Vary is not set yet: one assignment, no parsing.
  if (headers.vary === undefined) {
    headers.vary = 'Accept-Encoding, Origin'
    return
  }
  addVary(headers, 'Accept-Encoding')
  addVary(headers, 'Origin')
}

/** The body as it goes on the wire (null for HEAD), compressed when the client accepts it and it is worth it. */
export function encodeBody(body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>, header: (name: string) => string | null, head: boolean): string | Uint8Array<ArrayBuffer> | null {
  // The cheap path first: a small no-store answer costs one comparison and one lookup.
  if (body.length < MIN_BYTES && headers['cache-control'] === 'no-store') return head ? null : body
  const coding = chooseCoding(body.length, headers, header)
  if (coding === 'identity') return head ? null : body
  headers['content-encoding'] = coding
  // HEAD says what GET would send, without spending the CPU on bytes nobody gets.
  if (head) return null
  return compressDynamic(body, coding)
}

export function compressDynamic(body: string | Uint8Array, coding: 'br' | 'gzip'): Uint8Array<ArrayBuffer> {
  const input = typeof body === 'string' ? Buffer.from(body) : body
  return coding === 'gzip'
    ? gzipSync(input, { level: DYNAMIC_GZIP_LEVEL })
    : brotliCompressSync(input, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: input.byteLength,
        },
      })
}
