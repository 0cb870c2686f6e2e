import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { ITEMS } from '../support/fixture-plugin.ts'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000,free=600,pro=6000' })
})
afterAll(() => t.close())

const data = async (query: string) => {
  const res = await t.json(`/api/test/items${query}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

describe('pretty', () => {
  it('indents JSON by 2 and parses to the same envelope shape', async () => {
    const res = await t.request('/api/test/items?pretty=true')
    const text = await res.text()
    expect(text).toContain('\n  "data": {\n    "count": 4')
    expect(JSON.parse(text).data.count).toBe(4)
    const flat = await (await t.request('/api/test/items')).text()
    expect(flat).not.toContain('\n')
  })
})

describe('fields and exclude', () => {
  it('keep dotted paths, through arrays', async () => {
    const body = await data('?fields=count,items.name,items.owner.name')
    expect(body.data).toEqual({ count: 4, items: ITEMS.map((i) => ({ name: i.name, owner: { name: i.owner.name } })) })
  })

  it('remove dotted paths, through arrays', async () => {
    const body = await data('?exclude=notes,items.owner,items.tags')
    expect(body.data).toEqual({ count: 4, items: ITEMS.map(({ owner: _o, tags: _t, ...rest }) => rest) })
  })

  it('a path the answer cannot have is a 400 naming it and the fields at the level where it goes wrong', async () => {
    const top = await t.json('/api/test/items?fields=count,nope.deeper')
    expect(top.status).toBe(400)
    expect(top.body.error).toMatchObject({
      code: 'bad_request',
      message: 'Query parameter "fields" names "nope.deeper", which does not exist: This endpoint\'s answer has no field "nope". Fields there: count, items, notes.',
      details: { param: 'fields', value: 'nope.deeper', fields: ['count', 'items', 'notes'] },
    })
    const nested = await t.json('/api/test/items?exclude=items.owner.mail')
    expect(nested.status).toBe(400)
    expect(nested.body.error.message).toBe('Query parameter "exclude" names "items.owner.mail", which does not exist: "items.owner" has no field "mail". Fields there: name, email.')
    const below = await t.json('/api/test/items?fields=count.value')
    expect(below.body.error.message).toBe('Query parameter "fields" names "count.value", which does not exist: "count" has no field "value". "count" has no fields below it.')
  })

  it('a field the schema has is fine even when this answer lacks it (optional, or only in list items that are not there)', async () => {
    expect((await t.json('/api/uuid?fields=uuid,version')).status).toBe(200)
    const empty = await t.json('/api/test/items?limit=1&offset=100&fields=items.owner.email')
    expect(empty.status).toBe(200)
    expect(empty.body.data).toEqual({ items: [] })
  })

  it('apply to each item when data is an array', async () => {
    const res = await t.json('/api/endpoints?fields=name,path&limit=3')
    expect(res.body.data).toHaveLength(3)
    for (const e of res.body.data) expect(Object.keys(e).sort()).toEqual(['name', 'path'])
  })

  it('fields then exclude', async () => {
    expect((await data('?fields=items.name,items.id&exclude=items.id')).data).toEqual({ items: ITEMS.map((i) => ({ name: i.name })) })
  })

  it('never change cached data (a later unshaped call sees everything)', async () => {
    await data('?exclude=items&fields=count')
    expect((await data('')).data.items).toEqual(ITEMS)
  })
})

describe('sort and order', () => {
  it('sort the lists by a key, numbers numerically', async () => {
    expect((await data('?sort=id')).data.items.map((i: { id: number }) => i.id)).toEqual([1, 2, 3, 10])
    expect((await data('?sort=id&order=desc')).data.items.map((i: { id: number }) => i.id)).toEqual([10, 3, 2, 1])
  })

  it('sort by a dotted key; strings case-insensitively', async () => {
    expect((await data('?sort=owner.name')).data.items.map((i: { id: number }) => i.id)).toEqual([1, 10, 2, 3])
  })

  it('put items missing the key last in both directions', async () => {
    expect((await data('?sort=score')).data.items.map((i: { id: number }) => i.id)).toEqual([2, 3, 10, 1])
    expect((await data('?sort=score&order=DESC')).data.items.map((i: { id: number }) => i.id)).toEqual([10, 3, 2, 1])
  })

  it('sort by a key no item has is a 400 that lists sortable keys', async () => {
    const res = await t.json('/api/test/items?sort=colour')
    expect(res.status).toBe(400)
    expect(res.body.error.details).toMatchObject({ param: 'sort', value: 'colour' })
    expect(res.body.error.details.sortable).toContain('name')
  })
})

describe('limit and offset', () => {
  it('page every list and report meta.pagination', async () => {
    const body = await data('?sort=id&limit=2&offset=1')
    expect(body.data.items.map((i: { id: number }) => i.id)).toEqual([2, 3])
    expect(body.data.notes).toEqual([{ text: 'n2' }, { text: 'n3' }])
    expect(body.meta.pagination).toEqual({ total: 4, limit: 2, offset: 1, totals: { items: 4, notes: 3 } })
  })

  it('offset alone pages to the end', async () => {
    const body = await data('?offset=3')
    expect(body.data.items).toEqual([ITEMS[3]])
    expect(body.meta.pagination).toMatchObject({ total: 4, offset: 3 })
  })

  it('page data itself when it is an array', async () => {
    const all = (await t.json('/api/endpoints')).body.data as unknown[]
    const res = await t.json('/api/endpoints?limit=2&offset=1')
    expect(res.body.data).toEqual(all.slice(1, 3))
    expect(res.body.meta.pagination).toEqual({ total: all.length, limit: 2, offset: 1 })
  })

  it('sort, limit or offset on an endpoint with no list is a 400 naming the parameter', async () => {
    for (const [query, param, value] of [
      ['sort=foo', 'sort', 'foo'],
      ['limit=2', 'limit', '2'],
      ['offset=1', 'offset', '1'],
      ['sort=a.b&limit=2', 'sort', 'a.b'],
    ] as const) {
      const res = await t.json(`/api/uuid?${query}`)
      expect(res.status, query).toBe(400)
      expect(res.body.error.code).toBe('bad_request')
      expect(res.body.error.details).toEqual({ param, value })
      expect(res.body.error.message).toBe(`Query parameter "${param}" does not apply here: this endpoint has no list to sort/page. Remove it.`)
    }
    // The same for an object answer with parameters of its own.
    expect((await t.json('/api/hash/sha256?input=abc&sort=hex')).body.error.details).toEqual({ param: 'sort', value: 'hex' })
    // order alone changes nothing and stays accepted; so do the other controls.
    expect((await t.json('/api/uuid?order=desc&fields=uuid')).status).toBe(200)
  })

  it('no pagination meta without limit/offset', async () => {
    expect((await data('')).meta).not.toHaveProperty('pagination')
  })
})

describe('compact, include_meta, include_links', () => {
  it('compact drops meta and links', async () => {
    const body = await data('?compact=true')
    expect(Object.keys(body)).toEqual(['success', 'data', 'timestamp', 'request_id'])
  })

  it('explicit include_meta / include_links win over compact', async () => {
    expect(Object.keys(await data('?compact=1&include_meta=yes'))).toEqual(['success', 'data', 'meta', 'timestamp', 'request_id'])
    expect(Object.keys(await data('?compact=true&include_links=true'))).toEqual(['success', 'data', 'links', 'timestamp', 'request_id'])
    expect(Object.keys(await data('?include_meta=false'))).toEqual(['success', 'data', 'links', 'timestamp', 'request_id'])
    expect(Object.keys(await data('?include_links=no'))).toEqual(['success', 'data', 'meta', 'timestamp', 'request_id'])
    expect(Object.keys(await data('?compact=false'))).toEqual(['success', 'data', 'meta', 'links', 'timestamp', 'request_id'])
  })
})

describe('bad control values are 400 naming the parameter', () => {
  const cases: Array<[string, string]> = [
    ['format=html', 'format'],
    ['pretty=maybe', 'pretty'],
    ['compact=2', 'compact'],
    ['include_meta=on', 'include_meta'],
    ['include_links=nah', 'include_links'],
    ['order=up', 'order'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=-1', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=x', 'offset'],
    ['fields=', 'fields'],
    ['fields=a..b', 'fields'],
    ['exclude=,', 'exclude'],
    ['sort=a.', 'sort'],
  ]
  for (const [query, param] of cases) {
    it(`${query}`, async () => {
      const res = await t.json(`/api/test/items?${query}`)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('bad_request')
      expect(res.body.error.details.param).toBe(param)
      expect(res.body.error.message).toContain(`"${param}"`)
    })
  }

  it('a bad control still gets rate-limit headers (validation runs after the limiter)', async () => {
    const res = await t.request('/api/test/items?limit=0')
    expect(res.headers.get('ratelimit-limit')).toBe('100000')
  })

  it('a bad control is reported in the requested format when that is valid', async () => {
    const res = await t.request('/api/test/items?format=yaml&limit=0')
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/)
  })
})
