import { createHash } from 'node:crypto'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { load as loadYaml } from 'js-yaml'
import Papa from 'papaparse'
import { parseDocument } from 'yaml'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import { FORMATS } from './fuzz-cases.ts'

// Whether one answer is acceptable, whatever the request was: never a 500,
// always an envelope in the requested format (errors in the requested format,
// JSON for csv), parsed back by real parsers — JSON.parse; js-yaml and the `yaml`
// package in strict mode (YAML 1.2, unique keys, no warnings), which must agree;
// fast-xml-parser after XMLValidator plus a check that every character is one
// XML 1.0 allows; papaparse for csv — in UTF-8 that decodes without a
// replacement. A sample of the YAML and XML answers goes to PyYAML and expat
// afterwards (fuzz-oracles.ts), the strict readers, which are too slow per answer.

/** Statuses an answer may have. 500 never is one; neither is anything not listed. */
export const ALLOWED_STATUSES = new Set([200, 201, 202, 204, 206, 304, 400, 401, 404, 405, 413, 414, 429, 431, 502, 503, 504])

export interface Answer {
  status: number
  headers: Headers
  /** The body as received (before content decoding). */
  bytes: Uint8Array
}

export interface Judged {
  /** What is wrong with the answer, or undefined. */
  problem?: string
  /** The decoded body text. */
  text: string
  /** The media type the body had (no parameters). */
  type: string
  /** The envelope, parsed back (json, yaml, xml answers with one). */
  envelope?: Envelope
  /** The resolver ran (or its cached answer came back): past routing, auth, limits and validation. */
  reached: boolean
}

interface Envelope {
  success: unknown
  request_id: unknown
  timestamp: unknown
  error?: { code?: unknown; message?: unknown; details?: { path?: unknown } }
}

/** Large envelope-less documents that parsed (by type and SHA-1): the same bytes come back request after request. */
const judgedDocuments = new Set<string>()

const TYPES: Record<string, string> = { json: 'application/json', yaml: 'application/yaml', xml: 'application/xml', csv: 'text/csv' }

/**
 * fast-xml-parser refuses to read elements named __proto__ or constructor at all
 * ("[SECURITY] Invalid name"), a limit of the parser, not of the document: every
 * name is read with "=" in front (no XML name holds "="), and taken off again.
 */
const xmlParser = new XMLParser({ parseTagValue: false, ignoreAttributes: false, processEntities: true, transformTagName: (n) => `=${n}`, transformAttributeName: (n) => `=${n}` })

/** Characters XML 1.0 cannot carry, even escaped. */
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u
/** Character references to those. */
const BAD_CHAR_REF = /&#(?:x0*(?:[0-8bcef]|1[0-9a-f]|d[89a-f][0-9a-f]{2}|fff[ef])|0*(?:[0-8]|1[1-24-9]|2\d|3[01]|5529[6-9]|55[3-9]\d\d|5[6-7]\d{3}|6[0-4]\d{3}|6553[45]));/i

function xmlText(node: unknown): string | undefined {
  if (typeof node === 'string') return node
  if (node && typeof node === 'object' && '#text' in node) return String((node as Record<string, unknown>)['#text'])
  if (node && typeof node === 'object' && Object.keys(node).length === 0) return ''
  return undefined
}

function parseXmlEnvelope(text: string, enveloped: boolean): Envelope | undefined {
  const valid = XMLValidator.validate(text)
  if (valid !== true) throw new Error(`not well-formed: ${valid.err.msg} (line ${valid.err.line})`)
  if (NOT_XML_CHAR.test(text)) throw new Error('a character XML 1.0 does not allow')
  if (BAD_CHAR_REF.test(text)) throw new Error(`a character reference XML 1.0 does not allow: ${BAD_CHAR_REF.exec(text)![0]}`)
  if (!/^<\?xml version="1\.0" encoding="UTF-8"\?>/.test(text)) throw new Error('no XML declaration')
  const doc = xmlParser.parse(text, true) as Record<string, unknown>
  const roots = Object.keys(doc).filter((k) => k !== '?xml')
  if (roots.length !== 1) throw new Error(`${roots.length} root elements`)
  if (!enveloped) return undefined
  const r = doc['=response'] as Record<string, unknown> | undefined
  if (!r) throw new Error('no <response> root')
  const success = xmlText(r['=success'])
  const error = r['=error'] as Record<string, unknown> | undefined
  return {
    success: success === 'true' ? true : success === 'false' ? false : success,
    request_id: xmlText(r['=request_id']),
    timestamp: xmlText(r['=timestamp']),
    ...(error ? { error: { code: xmlText(error['=code']), message: xmlText(error['=message']), details: { path: (error['=details'] as Record<string, unknown> | undefined)?.['=path'] } } } : {}),
  }
}

/** js-yaml and the strict `yaml` reader; both must read it, without warnings, to the same value. */
function parseYaml(text: string): unknown {
  const lenient = loadYaml(text)
  const doc = parseDocument(text, { strict: true, uniqueKeys: true, prettyErrors: false, version: '1.2' })
  if (doc.errors.length) throw new Error(`yaml (strict): ${doc.errors[0]!.message}`)
  if (doc.warnings.length) throw new Error(`yaml (strict) warns: ${doc.warnings[0]!.message}`)
  const strict = doc.toJS({ maxAliasCount: 0 }) as unknown
  if (canonical(lenient) !== canonical(strict)) throw new Error(`js-yaml and yaml read it differently: ${canonical(lenient).slice(0, 200)} vs ${canonical(strict).slice(0, 200)}`)
  return strict
}

/** JSON text of a value with own keys only (a "__proto__" key counts as one). */
function canonical(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk)
    if (v instanceof Date) return v.toISOString()
    if (v && typeof v === 'object') {
      const out: Array<[string, unknown]> = []
      for (const k of Object.getOwnPropertyNames(v)) out.push([k, walk((v as Record<string, unknown>)[k])])
      return out
    }
    return v
  }
  return JSON.stringify(walk(value))
}

function decode(answer: Answer): { text?: string; problem?: string } {
  const coding = answer.headers.get('content-encoding')
  let bytes = Buffer.from(answer.bytes)
  try {
    if (coding === 'gzip') bytes = gunzipSync(bytes)
    else if (coding === 'br') bytes = brotliDecompressSync(bytes)
    else if (coding !== null && coding !== 'identity') return { problem: `unknown Content-Encoding ${coding}` }
  } catch (error) {
    return { problem: `Content-Encoding ${coding} does not decode: ${(error as Error).message}` }
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) }
  } catch {
    return { problem: `the body is not UTF-8: ${bytes.subarray(0, 80).toString('hex')}` }
  }
}

/**
 * `format`: the format= the service read from the request (the first one, as
 * URLSearchParams.get gives it), or null. `clientGone`: the client went away
 * before the answer (its signal aborted).
 */
export function judge(endpoint: AnyEndpoint | undefined, method: string, format: string | null, answer: Answer, clientGone = false): Judged {
  const { status, headers } = answer
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim()
  const fail = (problem: string, text = ''): Judged => ({ problem, text, type, reached: false })
  // 499 client_closed_request: what the CPU pool answers a client that went away (nobody reads it).
  if (!ALLOWED_STATUSES.has(status) && !(clientGone && status === 499)) return fail(`status ${status}`, Buffer.from(answer.bytes).toString('utf8').slice(0, 300))
  const id = headers.get('x-request-id')
  if (!id) return fail('no X-Request-Id')
  const head = method === 'HEAD'
  if (status === 204 || status === 304 || head) {
    // No body, whatever the coding header says (it is the one the GET would have had).
    return answer.bytes.byteLength === 0 ? { text: '', type, reached: status === 304 || (head && status < 300) } : fail(`${head ? 'HEAD' : status} with a body`, Buffer.from(answer.bytes).toString('latin1').slice(0, 200))
  }
  const decoded = decode(answer)
  if (decoded.problem !== undefined) return fail(decoded.problem)
  const text = decoded.text!
  const f = format?.toLowerCase()
  const requested = f !== undefined && (FORMATS as readonly string[]).includes(f) ? f : undefined
  // No endpoint: the router's own 404 (and 400 for a NUL), always an envelope.
  const enveloped = endpoint?.envelope !== false || status !== 200
  // What the answer must be.
  let expected: string | undefined
  if (status === 200 && !enveloped) expected = endpoint?.contentType ? endpoint.contentType.split(';')[0] : requested === 'yaml' || requested === 'xml' ? TYPES[requested] : TYPES.json
  else if (status < 300) expected = TYPES[requested ?? 'json']
  else expected = requested === 'yaml' || requested === 'xml' ? TYPES[requested] : TYPES.json
  if (type !== expected) return fail(`format=${format ?? '(none)'} ${status} answered ${type || '(no type)'}, expected ${expected}`, text)
  if (!/charset=utf-8/i.test(headers.get('content-type')!) ) return fail(`Content-Type ${headers.get('content-type')} names no UTF-8 charset`, text)

  // A large body that was judged already (a static document: the OpenAPI document, the reference page) is not parsed again.
  const memoKey = text.length > 64 * 1024 ? `${type} ${enveloped} ${createHash('sha1').update(text).digest('hex')}` : undefined
  if (memoKey !== undefined && judgedDocuments.has(memoKey)) return { text, type, reached: true }
  let envelope: Envelope | undefined
  try {
    switch (type) {
      case 'application/json': {
        const parsed = JSON.parse(text) as unknown
        if (enveloped) envelope = parsed as Envelope
        break
      }
      case 'application/yaml': {
        const parsed = parseYaml(text)
        if (enveloped) envelope = parsed as Envelope
        break
      }
      case 'application/xml':
        envelope = parseXmlEnvelope(text, enveloped)
        break
      case 'text/csv': {
        const parsed = Papa.parse<string[]>(text, { header: false, delimiter: ',', newline: '\r\n', skipEmptyLines: false })
        if (parsed.errors.length) return fail(`csv does not parse: ${JSON.stringify(parsed.errors.slice(0, 2))}`, text)
        const rows = text === '' ? [] : parsed.data.slice(0, text.endsWith('\r\n') ? -1 : undefined)
        const width = rows[0]?.length
        const ragged = rows.findIndex((r) => r.length !== width)
        if (ragged >= 0) return fail(`csv row ${ragged} has ${rows[ragged]!.length} cells, the header ${width}`, text)
        return { text, type, reached: true }
      }
      default:
        // A document of the endpoint's own type (the reference page, its script): not empty is all we know.
        return text.length ? { text, type, reached: true } : fail('empty document', text)
    }
  } catch (error) {
    return fail(`${type} does not parse: ${(error as Error).message}`, text)
  }
  if (!enveloped) {
    if (memoKey !== undefined) judgedDocuments.add(memoKey)
    return { text, type, reached: true }
  }
  if (!envelope || typeof envelope !== 'object') return fail('not an envelope', text)
  if (envelope.success !== status < 400) return fail(`success ${String(envelope.success)} with status ${status}`, text)
  if (envelope.request_id !== id) return fail(`request_id ${String(envelope.request_id)} is not the X-Request-Id ${id}`, text)
  if (typeof envelope.timestamp !== 'string' || Number.isNaN(Date.parse(envelope.timestamp))) return fail(`timestamp ${String(envelope.timestamp)}`, text)
  if (status >= 400 && (typeof envelope.error?.code !== 'string' || typeof envelope.error.message !== 'string')) return fail('error without code or message', text)
  // A resolver's not_found, not the router's "no endpoint at" (which names the path).
  const reached = status === 200 || status === 502 || status === 503 || status === 504 || (status === 404 && envelope.error?.details?.path === undefined)
  return { text, type, envelope, reached }
}
