import Papa from 'papaparse'
import type { z } from 'zod'
import type { AnyEndpoint, BodySpec } from './define-endpoint.ts'
import { InputError, PayloadTooLargeError } from './errors.ts'
import { nestsDeeperThan } from './json-depth.ts'

// Turns the raw request (path params, query, body) into the descriptor's validated
// input. The messages are for people: they name the parameter and what to send.

function decodeParam(name: string, raw: string): string {
  // Most path parameters (domains, addresses) carry no escape at all.
  if (!raw.includes('%')) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    throw new InputError(`Path parameter "${name}" is not valid percent-encoding: "${raw}".`, { param: name, value: raw })
  }
}

/** Collects the fields the descriptor's params schema knows, path first, then query. */
export function rawInput(
  endpoint: AnyEndpoint,
  queryKeys: readonly string[],
  routeParams: Readonly<Record<string, string>> | undefined,
  query: URLSearchParams,
): Record<string, unknown> {
  const raw: Record<string, unknown> = {}
  for (const key of queryKeys) {
    const value = query.get(key)
    if (value !== null) raw[key] = value
  }
  if (routeParams) for (const name in routeParams) raw[name] = decodeParam(name, routeParams[name]!)
  return raw
}

function describeIssue(issue: z.core.$ZodIssue, raw: Record<string, unknown>): { param: string; message: string } {
  const param = issue.path.length ? issue.path.map(String).join('.') : 'input'
  const top = issue.path[0]
  const missing = issue.code === 'invalid_type' && top !== undefined && raw[String(top)] === undefined && issue.path.length === 1
  if (missing) return { param, message: `Missing required parameter "${param}".` }
  return { param, message: `Invalid "${param}": ${issue.message}` }
}

export function validateInput(schema: z.ZodObject, raw: Record<string, unknown>): Record<string, unknown> {
  const result = schema.safeParse(raw)
  if (result.success) return result.data as Record<string, unknown>
  const issues = result.error.issues.map((issue) => {
    const { param, message } = describeIssue(issue, raw)
    return { param, message, code: issue.code }
  })
  const first = issues[0]!
  const value = raw[first.param.split('.')[0]!]
  throw new InputError(first.message, {
    param: first.param,
    ...(typeof value === 'string' ? { value: value.length > 200 ? `${value.slice(0, 200)}…` : value } : {}),
    issues,
  })
}

/**
 * The body's bytes, refused past maxBytes (413) while streaming. They are a
 * Uint8Array of their own (not a slice of Node's shared buffer pool), so they can
 * be transferred to a CPU worker as they are.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  const tooLarge = () =>
    new PayloadTooLargeError(`Request body exceeds ${maxBytes} bytes; send fewer entries or split the request.`, { max_bytes: maxBytes })
  if (declared > maxBytes) throw tooLarge()
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read().catch(cutShort)
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes
}

/**
 * The body stream failed: the client went away, or broke the chunked framing
 * mid-body (runtime/parser-errors.ts answers that one). The client's doing, not a
 * fault of the service: a 400, not an "unhandled error" in the log.
 */
function cutShort(): never {
  throw new InputError('The request body ended before it was complete: the connection closed, or its chunked encoding broke off.', { param: 'body' })
}

/**
 * How deeply a JSON body may nest. Every body the registry takes is two levels
 * deep ({"cidrs": [...]}); 64 leaves room for any honest document while keeping
 * whatever recurses over it later (validation, String(), JSON.stringify) far from
 * the stack limit.
 */
export const MAX_JSON_DEPTH = 64

/** Reads and decodes the body per the descriptor's BodySpec. */
export async function readBody(request: Request, spec: BodySpec): Promise<unknown> {
  const bytes = await readBodyBytes(request, spec.maxBytes)
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  if (text.trim() === '') throw new InputError('The request body is empty; send JSON (or one entry per line).', { param: 'body' })
  const type = request.headers.get('content-type') ?? ''
  // CSV (a spreadsheet's export, a firewall log): the entry is each row's first
  // cell. Before the JSON sniffing: a CSV row may start with a quoted cell.
  const csv = spec.kind === 'json-or-lines' && /^\s*text\/csv\b/i.test(type)
  if (csv) return csvFirstColumn(text)
  const looksJson = type.includes('json') || /^\s*[[{"]/.test(text)
  if (spec.kind === 'json' || looksJson) {
    // Before JSON.parse: a deep body is refused without building it.
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      throw new InputError(`The JSON body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; send at most ${MAX_JSON_DEPTH} levels (the endpoint's description shows the shape it takes).`, {
        param: 'body',
        max_depth: MAX_JSON_DEPTH,
      })
    }
    try {
      return JSON.parse(text) as unknown
    } catch (error) {
      throw new InputError(`The request body is not valid JSON: ${(error as Error).message}${whereInText(text, (error as Error).message)}`, {
        param: 'body',
        ...positionOf(text, (error as Error).message),
      })
    }
  }
  return entryLines(text)
}

/**
 * One entry per line, trimmed; blank lines and # comments skipped. A scan for
 * "\n" rather than split(/\r?\n/): V8's regexp split spent ~350 ms of a 100k-line
 * body's ~900 ms of CPU (a profile of POST /api/ip/bulk with text/plain); trim()
 * takes the "\r" of CRLF with the other blanks.
 */
export function entryLines(text: string): string[] {
  const entries: string[] = []
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start)
    if (end < 0) end = text.length
    const line = text.slice(start, end).trim()
    if (line !== '' && line.charCodeAt(0) !== 35) entries.push(line)
    start = end + 1
  }
  return entries
}

/** The first cell of every row that has one (quoted cells unquoted by papaparse); rows starting with # are skipped. */
function csvFirstColumn(text: string): string[] {
  const rows = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy', comments: '#' }).data
  const entries: string[] = []
  for (const row of rows) {
    const cell = row[0]?.trim()
    if (cell) entries.push(cell)
  }
  return entries
}

/**
 * Where JSON.parse stopped, as V8 says it ("... at position 17", or the end of
 * the text for "Unexpected end"), with its line and column (1-based): a long
 * list is fixed by going to the place, not by reading it through.
 */
function positionOf(text: string, message: string): { position: number; line: number; column: number } | Record<string, never> {
  const at = /at position (\d+)/.exec(message)
  const position = at ? Number(at[1]) : /end of JSON input/.test(message) ? text.length : undefined
  if (position === undefined) return {}
  let line = 1
  let lineStart = 0
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { position, line, column: position - lineStart + 1 }
}

function whereInText(text: string, message: string): string {
  const where = positionOf(text, message)
  return 'line' in where ? ` (line ${where.line}, column ${where.column})` : ''
}
