import { join } from 'node:path'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import type { SuccessEnvelope } from '../../runtime/envelope.ts'
import { ROOT } from '../../runtime/app.ts'
import { loadRegistry } from '../../runtime/registry.ts'
import { hasJsonAnswer, loadExamples } from '../../plugins/meta/examples.ts'
import { csvFormat } from '../../plugins/format/csv-format.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { primePython, readCsvTable, unquote } from '../support/csv-oracles.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

// CSV keeps what JSON has (README, "format=csv"). For every endpoint's recorded
// example answer, every value of `data` must be a cell of the CSV, under its
// dotted path: the rows list's items one per row (records.type, the index left
// out), every other value on every row; a list of plain values, an empty list or
// object is one cell of JSON text. Nothing travels as a header but the envelope,
// so no header is consulted here.

const endpoints = (await loadRegistry([join(ROOT, 'registry')])).filter((e) => hasJsonAnswer(e) && e.envelope !== false)
const examples = loadExamples().endpoints

type Scalar = string | number | boolean | null

/** Where one value of data must be: a column, and its row (undefined: every row). */
interface Expected {
  column: string
  row: number | undefined
  /** The scalar, or the JSON value a JSON-text cell must hold. */
  value: unknown
  json: boolean
  path: string
}

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value !== 'object'
}

/** What the README's rule says data becomes, worked out from the data alone. */
function expectations(data: unknown, rowsPath: string | undefined): { expected: Expected[]; items: number | undefined; listColumn: string | undefined } {
  const expected: Expected[] = []
  let items: number | undefined
  let listColumn: string | undefined
  const visit = (value: unknown, path: string[], column: string[], row: number | undefined): void => {
    const name = column.join('.') || 'value'
    if (isScalar(value)) {
      expected.push({ column: name, row, value, json: false, path: path.join('.') })
      return
    }
    if (row === undefined && rowsPath !== undefined && path.join('.') === rowsPath && Array.isArray(value)) {
      items = value.length
      listColumn = rowsPath
      value.forEach((item, i) => visit(item, [...path, String(i)], column, i))
      return
    }
    if (Array.isArray(value)) {
      if (value.every(isScalar)) expected.push({ column: name, row, value, json: true, path: path.join('.') })
      else value.forEach((item, i) => visit(item, [...path, String(i)], [...column, String(i)], row))
      return
    }
    const entries = Object.entries(value as Record<string, unknown>)
    if (entries.length === 0) expected.push({ column: name, row, value: {}, json: true, path: path.join('.') })
    for (const [key, v] of entries) visit(v, [...path, key], [...column, key], row)
  }
  if (Array.isArray(data)) {
    items = data.length
    listColumn = ''
    data.forEach((item, i) => visit(item, [String(i)], [], i))
  } else visit(data, [], [], undefined)
  return { expected, items, listColumn }
}

/** Every value of data is its cell; nothing else is in the table; as many rows as the rule says. */
function checkCsv(name: string, data: unknown, rowsPath: string | undefined, text: string): { fields: string[]; rows: Array<Record<string, string>> } {
  const table = readCsvTable(text)
  const { fields, rows } = table
  const { expected, items, listColumn } = expectations(data, rowsPath)
  const rest = expected.some((e) => e.row === undefined)
  const rowCount = items === undefined ? 1 : items > 0 ? items : rest ? 1 : 0
  expect(rows, `${name}: rows`).toHaveLength(rowCount)
  const missing: string[] = []
  for (const e of expected) {
    for (const [i, row] of rows.entries()) {
      if (e.row !== undefined && e.row !== i) continue
      const cell = row[e.column]
      const ok =
        cell !== undefined &&
        (e.json ? safeJson(unquote(cell)) === JSON.stringify(e.value) : unquote(cell) === (e.value === null ? '' : String(e.value)))
      if (!ok) missing.push(`${e.path} (${JSON.stringify(e.value)}) not under "${e.column}" in row ${i}: ${JSON.stringify(cell)}`)
    }
  }
  expect(missing, `${name}: values of data missing from the CSV`).toEqual([])
  // The other way round: a column holds a value of data, or is an empty list's own.
  const claimed = new Set(expected.map((e) => e.column))
  const emptyList = items === 0 && listColumn !== undefined
  const inList = (f: string) => emptyList && (listColumn === '' || f === listColumn || f.startsWith(`${listColumn}.`))
  expect(fields.filter((f) => !claimed.has(f) && !inList(f)), `${name}: columns that hold nothing of data`).toEqual([])
  if (emptyList) for (const row of rows) for (const f of fields.filter(inList)) expect(row[f], `${name}: ${f} of an empty list`).toBe('')
  return table
}

function safeJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text))
  } catch {
    return `not JSON: ${text}`
  }
}

function render(endpoint: AnyEndpoint, envelope: SuccessEnvelope): string {
  return csvFormat.success(envelope, { pretty: false, endpoint, headers: {} })
}

/** The keys one item of the rows list must have, from the descriptor's zod schema. */
function requiredItemKeys(endpoint: AnyEndpoint): string[] | undefined {
  if (!(endpoint.data instanceof z.ZodObject) || endpoint.csvRows === undefined) return undefined
  let list: unknown = endpoint.data.shape[endpoint.csvRows]
  while (list instanceof z.ZodOptional || list instanceof z.ZodNullable) list = list.unwrap()
  if (!(list instanceof z.ZodArray)) return undefined
  const item: unknown = list.element
  if (!(item instanceof z.ZodObject)) return []
  return Object.entries(item.shape as Record<string, z.ZodType>)
    .filter(([, schema]) => !schema.safeParse(undefined).success)
    .map(([key]) => key)
}

/** The example answer, and the same with its rows list emptied (the NXDOMAIN case of every list). */
const cases = endpoints.map((endpoint) => {
  const stored = examples[endpoint.name]
  const envelope = stored ? (structuredClone(stored.response) as SuccessEnvelope) : undefined
  let emptied: SuccessEnvelope | undefined
  if (envelope && endpoint.csvRows !== undefined) {
    emptied = structuredClone(envelope)
    const data = emptied.data as Record<string, unknown>
    if (Array.isArray(data[endpoint.csvRows])) data[endpoint.csvRows] = []
  }
  return {
    name: endpoint.name,
    endpoint,
    envelope,
    text: envelope ? render(endpoint, envelope) : '',
    emptied,
    emptiedText: emptied ? render(endpoint, emptied) : '',
  }
})

beforeAll(() => primePython(cases.flatMap((c) => [c.text, c.emptiedText]).filter(Boolean)))

describe('every endpoint\'s CSV carries every value of its JSON data', () => {
  it('covers every endpoint with a JSON answer', () => {
    expect(endpoints.length).toBeGreaterThan(50)
    expect(cases.filter((c) => !c.envelope).map((c) => `${c.name}: no recorded example (npm run docs:examples)`)).toEqual([])
  })

  it.each(cases.filter((c) => c.envelope).map((c) => [c.name, c] as const))('%s', (name, c) => {
    checkCsv(name, c.envelope!.data, c.endpoint.csvRows, c.text)
  })
})

describe('an empty rows list', () => {
  it.each(cases.filter((c) => c.emptied).map((c) => [c.name, c] as const))('%s: header names the list\'s columns (from the schema), one row carries the rest', (name, c) => {
    const list = c.endpoint.csvRows!
    const data = c.emptied!.data as Record<string, unknown>
    expect(data[list], `${name}: data.${list} is a list`).toEqual([])
    const { fields } = checkCsv(name, data, list, c.emptiedText)
    const keys = requiredItemKeys(c.endpoint)
    if (keys === undefined || keys.length === 0) expect(fields.some((f) => f === list || f.startsWith(`${list}.`)), `${name}: a column for ${list}`).toBe(true)
    else for (const key of keys) expect(fields.some((f) => f === `${list}.${key}` || f.startsWith(`${list}.${key}.`)), `${name}: column ${list}.${key}`).toBe(true)
  })
})

describe('NXDOMAIN through the service', () => {
  let dns: LoopbackDns
  let t: TestApp
  beforeAll(async () => {
    dns = await startLoopbackDns()
    t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  })
  afterAll(async () => {
    await t?.close()
    await dns?.close()
  })

  it('is a header naming the record columns and one row with rcode, not an empty body', async () => {
    const json = await t.json('/api/dns/a/nope.infralens.test')
    expect(json.body.data).toMatchObject({ rcode: 'NXDOMAIN', records: [] })
    const res = await t.request('/api/dns/a/nope.infralens.test?format=csv')
    expect(res.status).toBe(200)
    const text = await res.text()
    checkCsv('dns.a NXDOMAIN', json.body.data, 'records', text)
    const { fields, rows } = readCsvTable(text)
    expect(fields).toEqual(expect.arrayContaining(['domain', 'rcode', 'status', 'records.name', 'records.type', 'records.ttl']))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ domain: 'nope.infralens.test', rcode: 'NXDOMAIN', status: 'nxdomain', 'records.name': '', 'records.type': '' })
  })

  it('an empty list with nothing else around it is the header alone', async () => {
    const text = await (await t.request('/api/dns/a/nope.infralens.test?format=csv&fields=records')).text()
    expect(readCsvTable(text)).toEqual({ fields: ['records.name', 'records.type', 'records.ttl'], rows: [] })
  })
})
