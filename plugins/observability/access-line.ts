import type { RequestRecord } from '../../runtime/define-plugin.ts'
import { jsonString } from '../../runtime/json-string.ts'

// One JSON access line per request, in pino's own line format, written straight to
// the logger's destination: pino's info() with a field object costs ~6 µs per
// request (measured), a template string ~0.5 µs.
//
// Most values are the service's own text and go in as they are: the request id (a
// ULID), descriptor names, tiers (config allows [a-z0-9_-]), error codes, and the
// method (an HTTP token: node's parser and the fetch Request both refuse quotes,
// backslashes and control characters in it). What the client or an upstream
// chose (the path, the client address, the upstream's name and reason) goes
// through jsonString (runtime/json-string.ts: ~30 ns per plain value; path and
// client together took a line from ~0.26 to ~0.42 µs).
//
// The path is logged without its query string, and the query string not at all.
// The path names the endpoint and what was looked up; the query holds controls
// and free-form parameters, and callers of other APIs habitually put secrets
// there (?api_key=, ?token=): this service takes its key in a header, but a
// client that guesses wrong would have its key written to every log line.

export function accessLine(r: RequestRecord, isoNow: () => string): string {
  let line = `{"level":30,"time":"${isoNow()}","service":"infralens","log":"access","request_id":"${r.requestId}","endpoint":${r.endpoint === null ? 'null' : `"${r.endpoint}"`},"method":"${r.method}","path":${jsonString(r.path)},"client":${jsonString(r.client)},"status":${r.status},"duration_ms":${Math.round(r.durationMs * 100) / 100},"cache":${r.cache === null ? 'null' : `"${r.cache}"`},"tier":${r.tier === null ? 'null' : `"${r.tier}"`}`
  if (r.error) {
    line += `,"error":{"code":"${r.error.code}"`
    if (r.error.upstream !== undefined) line += `,"upstream":${jsonString(r.error.upstream)}`
    if (r.error.reason !== undefined) line += `,"reason":${jsonString(r.error.reason)}`
    line += '}'
  }
  return `${line},"msg":"request"}\n`
}
