import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'

// The network and data endpoints of issue 3 against their documented schemas.
// test/gateway/openapi.test.ts checks every endpoint the same way; this one keeps
// these endpoints covered when another category's endpoint is failing there.

const OURS = [
  'network.ip',
  'network.cidr-analyze',
  'network.cidr-expand',
  'network.cidr-summarize',
  'data.bogons',
  'data.dns-record-types',
  'data.http-status-codes',
  'data.ports',
  'data.tlds',
  'data.resolvers',
]

let t: TestApp
let resolved: Record<string, any>
let ajv: Ajv2020
beforeAll(async () => {
  t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  const validator = new Validator()
  await validator.validate((await t.json('/api/openapi.json')).body)
  resolved = validator.resolveRefs() as Record<string, any>
  ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
})
afterAll(() => t.close())

function fill(path: string, example: Readonly<Record<string, string>> = {}): string {
  const used = new Set<string>()
  const filled = path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, (_, name: string) => {
    used.add(name)
    return encodeURIComponent(example[name] ?? 'x')
  })
  const query = new URLSearchParams(Object.entries(example).filter(([k]) => !used.has(k)))
  return query.size ? `${filled}?${query}` : filled
}

describe('OpenAPI: network and data endpoints', () => {
  it('every GET endpoint has an example whose answer matches its documented 200 schema and its zod schema', async () => {
    const endpoints = t.endpoints.filter((e) => OURS.includes(e.name))
    expect(endpoints.map((e) => e.name).sort()).toEqual([...OURS].sort())
    for (const endpoint of endpoints.filter((e) => e.method === 'GET')) {
      expect(endpoint.example, endpoint.name).toBeDefined()
      const path = endpoint.path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, '{$1}')
      const schema = resolved.paths[path].get.responses['200'].content['application/json'].schema
      const res = await t.json(fill(endpoint.path, endpoint.example))
      expect(res.status, `${endpoint.name}: ${JSON.stringify(res.body)}`).toBe(200)
      const validate = ajv.compile(schema)
      expect(validate(res.body), `${endpoint.name}: ${JSON.stringify(validate.errors)}`).toBe(true)
      const parsed = endpoint.data.safeParse(res.body.data)
      expect(parsed.success, `${endpoint.name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true)
    }
  })

  it('summarize documents a JSON and a text body, and its answer matches the 200 schema', async () => {
    const op = resolved.paths['/api/cidr/summarize'].post
    // text/csv too: json-or-lines bodies take the first cell of each row (runtime/input.ts).
    expect(Object.keys(op.requestBody.content)).toEqual(['application/json', 'text/plain', 'text/csv'])
    const csv = await t.json('/api/cidr/summarize', { method: 'POST', headers: { 'content-type': 'text/csv' }, body: '"192.0.2.0/25",a\n192.0.2.128/25,"b, c"\n' })
    expect(csv.body.data.ipv4).toEqual(['192.0.2.0/24'])
    const res = await t.json('/api/cidr/summarize', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cidrs: ['192.0.2.0/25', '192.0.2.128/25', '2001:db8::/33', '2001:db8:8000::/33', 'nope'] }),
    })
    expect(res.status).toBe(200)
    expect(res.body.data.ipv4).toEqual(['192.0.2.0/24'])
    expect(res.body.data.ipv6).toEqual(['2001:db8::/32'])
    const validate = ajv.compile(op.responses['200'].content['application/json'].schema)
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true)
  })

  it('the cidr path parameters are documented as path parameters', () => {
    for (const path of ['/api/cidr/analyze/{cidr}', '/api/cidr/expand/{cidr}', '/api/ip/{ip}']) {
      const params = resolved.paths[path].get.parameters as Array<{ name?: string; in?: string; required?: boolean }>
      const name = path.endsWith('{ip}') ? 'ip' : 'cidr'
      expect(params.find((p) => p.name === name), path).toMatchObject({ in: 'path', required: true })
    }
    const expand = resolved.paths['/api/cidr/expand/{cidr}'].get.parameters as Array<{ name?: string; in?: string }>
    expect(expand.filter((p) => p.name === 'limit' || p.name === 'offset').map((p) => p.in)).toEqual(['query', 'query'])
  })
})
