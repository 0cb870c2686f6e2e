import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RoutingWorld } from './support.ts'
import { startRoutingWorld } from './support.ts'

// The routing endpoints' examples against their documented OpenAPI schemas (as
// test/gateway/openapi.test.ts checks every endpoint; this keeps these covered
// when another category's endpoint fails there first).

const OURS = ['network.asn', 'network.bgp-prefix', 'network.bgp-asn', 'network.rpki', 'network.intelligence']

let w: RoutingWorld
let resolved: Record<string, any>
let ajv: Ajv2020
beforeAll(async () => {
  w = await startRoutingWorld()
  const validator = new Validator()
  const doc = (await w.app.json('/api/openapi.json')).body
  const result = await validator.validate(doc)
  expect(result.errors ?? []).toEqual([])
  resolved = validator.resolveRefs() as Record<string, any>
  ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
})
afterAll(() => w.close())

function fill(path: string, example: Readonly<Record<string, string>> = {}): string {
  const used = new Set<string>()
  const filled = path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, (_, name: string) => {
    used.add(name)
    return encodeURIComponent(example[name] ?? 'x')
  })
  const query = new URLSearchParams(Object.entries(example).filter(([k]) => !used.has(k)))
  return query.size ? `${filled}?${query}` : filled
}

describe('OpenAPI: routing endpoints', () => {
  it('each example answers 200 and matches the documented 200 schema and the zod schema', async () => {
    const endpoints = w.app.endpoints.filter((e) => OURS.includes(e.name))
    expect(endpoints.map((e) => e.name).sort()).toEqual([...OURS].sort())
    for (const endpoint of endpoints) {
      const path = endpoint.path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, '{$1}')
      const op = resolved.paths[path].get
      expect(op.tags).toEqual(['network'])
      const res = await w.app.json(fill(endpoint.path, endpoint.example))
      expect(res.status, `${endpoint.name}: ${JSON.stringify(res.body)}`).toBe(200)
      const validate = ajv.compile(op.responses['200'].content['application/json'].schema)
      expect(validate(res.body), `${endpoint.name}: ${JSON.stringify(validate.errors)}`).toBe(true)
      expect(endpoint.data.parse(res.body.data), endpoint.name).toEqual(res.body.data)
    }
  })

  it('/api/rpki documents its optional asn parameter', () => {
    const params = resolved.paths['/api/rpki/{prefix}'].get.parameters as Array<{ name?: string; in?: string; required?: boolean }>
    expect(params).toContainEqual(expect.objectContaining({ name: 'asn', in: 'query', required: false }))
  })
})
