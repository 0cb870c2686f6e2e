import { spawnSync } from 'node:child_process'
import { load as loadYaml } from 'js-yaml'
import Papa from 'papaparse'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { PROTO_KEYS_JSON } from '../support/fixture-plugin.ts'

// A client-chosen string is never a key of a plain object nor a property path
// walked on one (issue 18, item 1). Before: GET /api/uuid?fields=__proto__.polluted
// answered 200 and set Object.prototype.polluted for the whole process (the
// fields tree was a plain object), and fields=constructor.prototype.x was a 500.
// Now such names are ordinary names: unknown ones are a 400 like any typo, and a
// field that really is called "__proto__" (JSON.parse makes one from an upstream's
// answer) is shaped and formatted like any other.

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(() => t?.close())

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype]
const snapshot = () => PROTOTYPES.map((p) => Object.getOwnPropertyNames(p).sort().join(','))
const before = snapshot()
afterEach(() => {
  expect(snapshot(), 'a built-in prototype changed').toEqual(before)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

const NAMES = ['__proto__', 'constructor', 'prototype', '__proto__.polluted', 'constructor.prototype.polluted', 'constructor.prototype', '__defineGetter__', 'hasOwnProperty', 'toString.call']

describe('controls naming prototype members', () => {
  for (const param of ['fields', 'exclude'] as const) {
    it.each(NAMES)(`${param}=%s on an answer without such a field is a 400 naming it and the fields there`, async (name) => {
      const res = await t.json(`/api/uuid?${param}=${encodeURIComponent(name)}`)
      expect(res.status, JSON.stringify(res.body)).toBe(400)
      expect(res.body.error.code).toBe('bad_request')
      expect(res.body.error.details).toMatchObject({ param, value: name })
      expect(res.body.error.message).toContain(`"${name}"`)
      expect(res.body.error.message).toContain('Fields there: uuid, version')
    })
  }

  it.each(NAMES)('sort=%s on a list is a 400 naming the sortable fields', async (name) => {
    const res = await t.json(`/api/test/items?sort=${encodeURIComponent(name)}`)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error.details).toMatchObject({ param: 'sort', value: name })
  })

  it('many requests later the process still answers, and its metrics still render', async () => {
    for (const name of NAMES) await t.json(`/api/uuid?fields=${encodeURIComponent(name)}&exclude=${encodeURIComponent(name)}`)
    const metrics = await t.request('/metrics')
    expect(metrics.status).toBe(200)
    expect(await metrics.text()).toContain('process_cpu')
    expect((await t.json('/api/uuid')).status).toBe(200)
  })
})

describe('data whose own keys are named like prototype members', () => {
  const upstream = JSON.parse(PROTO_KEYS_JSON) as Record<string, unknown>

  it('comes back whole in JSON, own keys and all', async () => {
    const res = await t.request('/api/test/proto-keys')
    const text = await res.text()
    expect(res.status).toBe(200)
    expect(JSON.parse(text).data).toEqual(upstream)
    expect(Object.hasOwn(JSON.parse(text).data, '__proto__')).toBe(true)
  })

  it('fields= keeps a field called __proto__ as a field, not a prototype', async () => {
    const res = await t.request('/api/test/proto-keys?fields=__proto__.polluted,constructor.prototype')
    const data = JSON.parse(await res.text()).data as Record<string, unknown>
    expect(res.status).toBe(200)
    expect(Object.keys(data)).toEqual(['__proto__', 'constructor'])
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toEqual({ polluted: 'via data' })
    expect(data.constructor).toEqual({ prototype: { polluted: 'via data' } })
  })

  it('exclude= and sort= through lists whose items have a __proto__ field', async () => {
    const res = await t.request('/api/test/proto-keys?exclude=constructor,prototype,list.valueOf&sort=__proto__&order=desc')
    const data = JSON.parse(await res.text()).data as Record<string, unknown>
    expect(res.status).toBe(200)
    expect(Object.keys(data)).toEqual(['__proto__', 'toString', 'hasOwnProperty', 'list'])
    expect((data.list as Array<Record<string, unknown>>).map((i) => Object.getOwnPropertyDescriptor(i, '__proto__')?.value)).toEqual(['b', 'a'])
    const sorted = await t.request('/api/test/proto-keys?sort=valueOf')
    expect((JSON.parse(await sorted.text()).data.list as unknown[]).map((i) => (i as Record<string, number>).valueOf)).toEqual([1, 2])
  })

  it('yaml, xml and csv carry every such key', async () => {
    const yaml = loadYaml(await (await t.request('/api/test/proto-keys?format=yaml')).text()) as { data: Record<string, unknown> }
    expect(Object.keys(yaml.data).sort()).toEqual(Object.keys(upstream).sort())
    // fast-xml-parser refuses to read elements called __proto__ or constructor at
    // all: python's strict ElementTree reads the document instead.
    const xmlText = await (await t.request('/api/test/proto-keys?format=xml')).text()
    const script = 'import sys, xml.etree.ElementTree as ET\nr = ET.fromstring(sys.stdin.buffer.read())\nprint(",".join(c.tag for c in r.find("data")))'
    const tags = spawnSync('python3', ['-c', script], { input: xmlText, encoding: 'utf8' })
    expect(tags.stderr).toBe('')
    expect(tags.stdout.trim().split(',')).toEqual(Object.keys(upstream))
    // CSV rows are the list's items (list.*), every other value on each row: a
    // column called __proto__ (or constructor.prototype...) is a column.
    const csv = Papa.parse<string[]>((await (await t.request('/api/test/proto-keys?format=csv')).text()).trim())
    expect(csv.data).toEqual([
      ['__proto__.polluted', 'constructor.prototype.polluted', 'prototype', 'toString', 'hasOwnProperty', 'list.__proto__', 'list.valueOf'],
      ['via data', 'via data', 'p', 't', '1', 'a', '2'],
      ['via data', 'via data', 'p', 't', '1', 'b', '1'],
    ])
  })
})
