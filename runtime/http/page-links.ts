import type { Pagination } from '../envelope.ts'

// The Link header of a paged answer (RFC 8288): first, prev, next, last, as
// targets relative to the request — its path and query, with the offset replaced
// and everything else (limit, format, fields...) kept as the client wrote it.
//
// Pages step by `limit` from the request's own offset, so prev and next keep its
// alignment (offset 4, limit 8: prev 0, next 12) and `last` is the last page on
// that same grid: the one a client following `next` ends on. Totals and offsets
// may exceed 2^53 (an IPv6 block's addresses, sent as decimal strings): the
// arithmetic is BigInt. Without a limit the page runs to the end of the list:
// only `first` can be told.

/**
 * The request's path and query are percent-encoded already (the URL parser's
 * work): only what may not stand between < and > in a header value is escaped,
 * as UTF-8 bytes — the rule csv's rel="self" link follows (plugins/format/csv-format.ts).
 */
const NOT_IN_TARGET = /[^\x21-\x7E]|[<>"]/gu

function percentEncode(char: string): string {
  let out = ''
  for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  return out
}

/** The query (with its "?", or empty) with `offset` set to `value`, other parameters untouched. */
function withOffset(search: string, value: bigint): string {
  const kept: string[] = []
  let replaced = false
  for (const pair of search.length > 1 ? search.slice(1).split('&') : []) {
    if (pair === '') continue
    const eq = pair.indexOf('=')
    let name = eq === -1 ? pair : pair.slice(0, eq)
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '))
    } catch {
      // Not percent-encoding: the name stands as written (and is not "offset").
    }
    if (name !== 'offset') kept.push(pair)
    else if (!replaced) {
      kept.push(`offset=${value}`)
      replaced = true
    }
  }
  if (!replaced) kept.push(`offset=${value}`)
  return `?${kept.join('&')}`
}

/** The Link header value for a paged answer, or undefined when the numbers are not ones. */
export function pageLinks(pathname: string, search: string, pagination: Pick<Pagination, 'total' | 'limit' | 'offset'>): string | undefined {
  let total: bigint
  let offset: bigint
  try {
    total = BigInt(pagination.total)
    offset = BigInt(pagination.offset)
  } catch {
    return undefined
  }
  if (total < 0n || offset < 0n) return undefined
  const path = pathname.replace(NOT_IN_TARGET, percentEncode)
  const query = search.replace(NOT_IN_TARGET, percentEncode)
  const link = (to: bigint, rel: string) => `<${path}${withOffset(query, to)}>; rel="${rel}"`
  const links = [link(0n, 'first')]
  if (pagination.limit !== undefined && pagination.limit > 0) {
    const limit = BigInt(pagination.limit)
    // Last page on the request's grid (offset mod limit); a grid with no page
    // inside the list (offset 5 of 3 items) falls back to the grid from 0.
    const phase = offset % limit
    const last = total > phase ? phase + ((total - 1n - phase) / limit) * limit : total > 0n ? ((total - 1n) / limit) * limit : 0n
    if (offset > 0n) {
      // Past the end, the previous page is the last one that has items.
      const prev = offset > last ? last : offset > limit ? offset - limit : 0n
      links.push(link(prev, 'prev'))
    }
    if (offset + limit < total) links.push(link(offset + limit, 'next'))
    links.push(link(last, 'last'))
  }
  return links.join(', ')
}
