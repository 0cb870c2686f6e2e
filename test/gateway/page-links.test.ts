import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pageLinks } from '../../runtime/http/page-links.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { ITEMS } from '../support/fixture-plugin.ts'

// The Link header of paged answers (RFC 8288; runtime/http/page-links.ts): for the
// list controls (limit/offset), and for endpoints that page themselves (descriptor
// `pagination`: cidr/expand, offloaded to the CPU pool, so its header is made in
// the worker).

/** rel -> target of a Link header. */
function parseLink(header: string | null): Record<string, string> {
  const links: Record<string, string> = {}
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>;\s*rel="([^"]+)"$/.exec(part.trim())
    if (match) links[match[2]!] = match[1]!
  }
  return links
}

const offsets = (header: string | undefined) => Object.fromEntries(Object.entries(parseLink(header ?? null)).map(([rel, target]) => [rel, new URL(target, 'http://x').searchParams.get('offset')]))

describe('pageLinks', () => {
  it.each([
    // total, limit, offset -> offsets of first, prev, next, last
    [10, 3, 0, { first: '0', next: '3', last: '9' }],
    [10, 3, 3, { first: '0', prev: '0', next: '6', last: '9' }],
    [10, 3, 9, { first: '0', prev: '6', last: '9' }],
    [9, 3, 6, { first: '0', prev: '3', last: '6' }],
    [3, 10, 0, { first: '0', last: '0' }],
    [0, 10, 0, { first: '0', last: '0' }],
    // Off the grid of 0: prev and next keep the request's alignment, last is on it.
    [16, 8, 4, { first: '0', prev: '0', next: '12', last: '12' }],
    // Past the end: prev is the last page with items, no next.
    [16, 8, 40, { first: '0', prev: '8', last: '8' }],
    [3, 8, 5, { first: '0', prev: '0', last: '0' }],
  ])('total %d, limit %d, offset %d', (total, limit, offset, expected) => {
    expect(offsets(pageLinks('/api/x', `?limit=${limit}&offset=${offset}`, { total, limit, offset }))).toEqual(expected)
  })

  it('without a limit the page runs to the end: only first', () => {
    expect(offsets(pageLinks('/api/x', '?offset=2', { total: 10, limit: undefined, offset: 2 }))).toEqual({ first: '0' })
  })

  it('totals and offsets past 2^53, as decimal strings (an IPv6 /0)', () => {
    const total = (1n << 128n).toString()
    const links = offsets(pageLinks('/api/cidr/expand/::/0', '?offset=18446744073709551616', { total, limit: 4096, offset: '18446744073709551616' }))
    expect(links).toEqual({
      first: '0',
      prev: String((1n << 64n) - 4096n),
      next: String((1n << 64n) + 4096n),
      // 2^128 - 1 rounded down to the grid of the offset (2^64 is a multiple of 4096).
      last: String(((1n << 128n) - 1n) / 4096n * 4096n),
    })
  })

  it('replaces offset and keeps every other parameter as written; adds offset when the query has none', () => {
    const header = pageLinks('/api/data/tlds', '?fields=tld&limit=2&offset=4&q=a%2Cb&offset=9', { total: 10, limit: 2, offset: 4 })
    expect(parseLink(header ?? null)).toEqual({
      first: '/api/data/tlds?fields=tld&limit=2&offset=0&q=a%2Cb',
      prev: '/api/data/tlds?fields=tld&limit=2&offset=2&q=a%2Cb',
      next: '/api/data/tlds?fields=tld&limit=2&offset=6&q=a%2Cb',
      last: '/api/data/tlds?fields=tld&limit=2&offset=8&q=a%2Cb',
    })
    expect(parseLink(pageLinks('/api/x', '?limit=2', { total: 3, limit: 2, offset: 0 }) ?? null)).toEqual({ first: '/api/x?limit=2&offset=0', next: '/api/x?limit=2&offset=2', last: '/api/x?limit=2&offset=2' })
    // An offset spelled with escapes is the same parameter.
    expect(parseLink(pageLinks('/api/x', '?off%73et=2&limit=2', { total: 9, limit: 2, offset: 2 }) ?? null).next).toBe('/api/x?offset=4&limit=2')
  })

  it('escapes what may not stand between < and >, and leaves % escapes alone', () => {
    const header = pageLinks('/api/a b/é', '?q=<x>&r="%41"', { total: 4, limit: 2, offset: 0 })!
    expect(parseLink(header).next).toBe('/api/a%20b/%C3%A9?q=%3Cx%3E&r=%22%41%22&offset=2')
    expect(header).toMatch(/^[\x20-\x7E]+$/)
  })
})

let pooled: TestApp
let inProcess: TestApp
beforeAll(async () => {
  pooled = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000000', INFRALENS_CPU_WORKERS: '1' })
  inProcess = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000000', INFRALENS_CPU_WORKERS: '0' })
})
afterAll(async () => {
  await pooled.close()
  await inProcess.close()
})

describe('Link on paged answers', () => {
  it('limit/offset over a list: following next from first visits every item once, in order', async () => {
    const seen: unknown[] = []
    let path: string | undefined = '/api/test/items?limit=1&sort=id'
    const rels: string[][] = []
    while (path !== undefined) {
      const res = await pooled.request(path)
      const body = await res.json()
      seen.push(...body.data.items)
      const links = parseLink(res.headers.get('link'))
      rels.push(Object.keys(links))
      path = links.next
    }
    expect(seen).toEqual([...ITEMS].sort((a, b) => a.id - b.id))
    expect(rels).toEqual([
      ['first', 'next', 'last'],
      ['first', 'prev', 'next', 'last'],
      ['first', 'prev', 'next', 'last'],
      ['first', 'prev', 'last'],
    ])
  })

  it('first, prev, next and last point where meta.pagination says', async () => {
    const res = await pooled.request('/api/data/tlds?limit=100&offset=200&fields=tlds.tld')
    const { meta } = await res.json()
    const total = meta.pagination.total as number
    expect(offsets(res.headers.get('link') ?? undefined)).toEqual({ first: '0', prev: '100', next: '300', last: String(Math.floor((total - 1) / 100) * 100) })
    const last = await (await pooled.request(parseLink(res.headers.get('link')).last!)).json()
    expect(last.data.tlds.length).toBe(total - Math.floor((total - 1) / 100) * 100)
  })

  it('no Link when nothing is paged', async () => {
    const res = await pooled.request('/api/test/items')
    await res.arrayBuffer()
    expect(res.headers.get('link')).toBeNull()
  })

  it('csv: the paging links follow its rel="self"', async () => {
    const res = await pooled.request('/api/test/items?format=csv&limit=2')
    await res.arrayBuffer()
    expect(res.headers.get('link')).toBe(
      '</api/test/items?format=csv&limit=2>; rel="self", </api/test/items?format=csv&limit=2&offset=0>; rel="first", </api/test/items?format=csv&limit=2&offset=2>; rel="next", </api/test/items?format=csv&limit=2&offset=2>; rel="last"',
    )
  })

  it('cidr/expand pages itself, in the CPU pool: the same Link as in-process, BigInt totals', async () => {
    const path = '/api/cidr/expand/2001:db8::/32?limit=4096&offset=8192'
    const before = pooled.cpu!.stats().completed
    const fromWorker = await pooled.request(path)
    const body = await fromWorker.json()
    expect(pooled.cpu!.stats().completed).toBe(before + 1)
    expect(inProcess.cpu).toBeUndefined()
    const here = await inProcess.request(path)
    await here.arrayBuffer()
    expect(fromWorker.headers.get('link')).toBe(here.headers.get('link'))
    const total = 1n << 96n
    expect(body.meta.pagination.total).toBe(total.toString())
    expect(offsets(fromWorker.headers.get('link') ?? undefined)).toEqual({ first: '0', prev: '4096', next: '12288', last: String(((total - 1n) / 4096n) * 4096n) })
    // The last page is the one whose next_offset is null.
    const last = await (await pooled.request(parseLink(fromWorker.headers.get('link')).last!)).json()
    expect(last.data.next_offset).toBeNull()
    expect(last.data.addresses).toHaveLength(4096)
    expect(last.data.addresses.at(-1)).toBe('2001:db8:ffff:ffff:ffff:ffff:ffff:ffff')
  })

  it('cidr/expand with include_meta=false still says how it is paged, in Link', async () => {
    const res = await pooled.request('/api/cidr/expand?cidr=192.0.2.0/28&limit=8&include_meta=false')
    expect((await res.json()).meta).toBeUndefined()
    expect(parseLink(res.headers.get('link'))).toEqual({
      first: '/api/cidr/expand?cidr=192.0.2.0/28&limit=8&include_meta=false&offset=0',
      next: '/api/cidr/expand?cidr=192.0.2.0/28&limit=8&include_meta=false&offset=8',
      last: '/api/cidr/expand?cidr=192.0.2.0/28&limit=8&include_meta=false&offset=8',
    })
  })
})
