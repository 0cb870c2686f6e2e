import Papa from 'papaparse'
import { defineFormat } from '../../runtime/define-format.ts'
import type { FormatContext } from '../../runtime/define-format.ts'
import type { SuccessEnvelope } from '../../runtime/envelope.ts'
import { toTable } from './csv-flatten.ts'

function getPath(value: unknown, path: string): unknown {
  let current = value
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

// links.self is the request URL as the WHATWG parser left it, percent-encoded
// already: encodeURI would encode each % again (%3D -> %253D). Only what may not
// stand between < and > in a header value is escaped, as UTF-8 bytes.
const NOT_IN_LINK = /[^\x21-\x7E]|[<>"]/gu

function percentEncode(char: string): string {
  let out = ''
  for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  return out
}

export function linkTarget(url: string): string {
  return url.replace(NOT_IN_LINK, percentEncode)
}

/** CSV carries data only; the envelope travels in headers so nothing is lost. */
function envelopeHeaders(envelope: SuccessEnvelope, ctx: FormatContext): void {
  const h = ctx.headers
  h['x-timestamp'] = envelope.timestamp
  if (envelope.meta) {
    h['x-cache'] = envelope.meta.cache
    h['x-endpoint'] = envelope.meta.endpoint
    h['x-category'] = envelope.meta.category
    h['x-tier'] = envelope.meta.tier
    if (envelope.meta.pagination) h['x-total-count'] = String(envelope.meta.pagination.total)
  }
  if (envelope.links) h.link = `<${linkTarget(envelope.links.self)}>; rel="self"`
}

export const csvFormat = defineFormat({
  name: 'csv',
  contentType: 'text/csv; charset=utf-8',
  success(envelope, ctx) {
    envelopeHeaders(envelope, ctx)
    const rowsPath = ctx.endpoint?.csvRows
    const source = rowsPath !== undefined && !Array.isArray(envelope.data) ? getPath(envelope.data, rowsPath) : envelope.data
    const rows = Array.isArray(source) ? source : source === undefined ? [] : [source]
    const table = toTable(rows)
    if (table.fields.length === 0) return ''
    // escapeFormulae: cells starting with = + - @ tab or CR get a leading quote so a
    // spreadsheet shows them as text instead of running them.
    return Papa.unparse(table, { escapeFormulae: true, newline: '\r\n' }) + '\r\n'
  },
})
