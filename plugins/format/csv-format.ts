import Papa from 'papaparse'
import { defineFormat } from '../../runtime/define-format.ts'
import type { FormatContext } from '../../runtime/define-format.ts'
import type { SuccessEnvelope } from '../../runtime/envelope.ts'
import { itemColumns } from './csv-columns.ts'
import { toTable } from './csv-flatten.ts'

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

/**
 * Cells a spreadsheet would run as a formula (= + - @ tab CR first) get a leading
 * quote so it shows text. A cell that starts with a quote gets one too, so
 * reading back is always "drop one leading quote" (nothing else starts with
 * one). papaparse's own pattern (/^[=+\-@\t\r].*$/) misses a formula followed by
 * a line break: only the first character counts here.
 */
export const FORMULA_START = /^[=+\-@\t\r']/

export const csvFormat = defineFormat({
  name: 'csv',
  contentType: 'text/csv; charset=utf-8',
  success(envelope, ctx) {
    envelopeHeaders(envelope, ctx)
    const endpoint = ctx.endpoint
    const path = endpoint?.csvRows
    const table = toTable(envelope.data, {
      path,
      emptyColumns: () => (endpoint?.data ? itemColumns(endpoint.data, Array.isArray(envelope.data) ? '' : (path ?? '')) : []),
    })
    if (table.fields.length === 0) return ''
    // With one column an empty cell would be an empty line, which readers skip or
    // read as no cells at all: it is written "" instead.
    const single = table.fields.length === 1
    const data = single ? table.data.map((row) => row.map((cell) => cell ?? '')) : table.data
    const text = Papa.unparse({ fields: table.fields, data }, { escapeFormulae: FORMULA_START, newline: '\r\n', quotes: single ? (cell: unknown) => cell === '' : false })
    // papaparse ends the header line itself when no row follows it.
    return data.length === 0 ? text : `${text}\r\n`
  },
})
