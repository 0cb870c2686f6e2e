import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import type { ExamplesFile } from '../../plugins/docs/examples.ts'
import { exampleRequest, loadExamples, needsExample, shapeOf } from '../../plugins/docs/examples.ts'
import { collectEndpointExamples, documented, startExampleService } from '../../scripts/docs-examples.ts'

// The example answers of the API reference (plugins/meta/examples.json) are
// recorded by `npm run docs:examples`, never written by hand. This suite fails
// when they no longer are what the service answers: a descriptor without an
// example, an example input that changed, an endpoint with no recorded answer,
// or a recorded answer whose shape (keys and types, not values: request ids,
// times, UUIDs come out different every run) differs from today's answer or
// from the documented schema.

const STALE = 'plugins/meta/examples.json is stale: run `npm run docs:examples`'

let world: Awaited<ReturnType<typeof startExampleService>>
let endpoints: readonly AnyEndpoint[]
let stored: ExamplesFile
let resolved: Record<string, any>
let ajv: Ajv2020
beforeAll(async () => {
  world = await startExampleService()
  endpoints = world.service.endpoints
  stored = loadExamples()
  const doc = (await (await fetch(new URL('/api/openapi.json', world.base))).json()) as Record<string, any>
  const validator = new Validator()
  await validator.validate(doc)
  resolved = validator.resolveRefs() as Record<string, any>
  ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
})
afterAll(async () => {
  await world?.close()
})

function successSchema(endpoint: AnyEndpoint): object {
  const path = endpoint.path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, '{$1}')
  return resolved.paths[path][endpoint.method.toLowerCase()].responses['200'].content['application/json'].schema
}

describe('descriptor examples', () => {
  it('every descriptor with a required parameter has an example', () => {
    const missing = endpoints.filter((e) => needsExample(e) && e.example === undefined).map((e) => `${e.name} (${e.path})`)
    expect(missing, 'add `example: {...}` to these descriptors').toEqual([])
  })

  it('needsExample: path params and required query params or bodies need one; optional params do not', () => {
    const byName = (name: string) => endpoints.find((e) => e.name === name)!
    expect(needsExample(byName('dns.a'))).toBe(true)
    expect(needsExample(byName('utilities.hash'))).toBe(true)
    expect(needsExample(byName('utilities.uuid'))).toBe(false)
    expect(needsExample(byName('meta.health'))).toBe(false)
    const post = endpoints.find((e) => e.body !== undefined)
    if (post) expect(needsExample(post)).toBe(true)
  })
})

describe('recorded example answers (plugins/meta/examples.json)', () => {
  it('cover every endpoint that answers JSON, and no endpoint that is gone', () => {
    const expected = documented(endpoints).map((e) => e.name)
    expect(Object.keys(stored.endpoints).sort(), STALE).toEqual(expected)
  })

  it('were made from the example each descriptor has today', () => {
    for (const endpoint of documented(endpoints)) {
      const example = stored.endpoints[endpoint.name]
      if (!example) continue
      expect(example.request, `${endpoint.name}: ${STALE}`).toEqual(exampleRequest(endpoint))
      expect(example.status).toBe(200)
    }
  })

  it('validate against the current 200 schema of their endpoint', () => {
    for (const endpoint of documented(endpoints)) {
      const example = stored.endpoints[endpoint.name]
      if (!example) continue
      const validate = ajv.compile(successSchema(endpoint))
      expect(validate(example.response), `${endpoint.name}: ${JSON.stringify(validate.errors)} — ${STALE}`).toBe(true)
    }
  })

  it('one real answer per documented error, each an error envelope with its code and status', () => {
    const validate = ajv.compile(resolved.components.schemas.ErrorEnvelope)
    const status: Record<string, number> = { bad_request: 400, invalid_api_key: 401, not_found: 404, payload_too_large: 413, rate_limited: 429, upstream_error: 502, timeout: 504 }
    const expected = Object.keys(status).filter((code) => code !== 'payload_too_large' || endpoints.some((e) => e.body !== undefined))
    expect(Object.keys(stored.errors).sort(), STALE).toEqual(expected.sort())
    for (const [code, example] of Object.entries(stored.errors)) {
      expect(validate(example.response), `${code}: ${JSON.stringify(validate.errors)}`).toBe(true)
      expect((example.response as { error: { code: string } }).error.code).toBe(code)
      expect(example.status).toBe(status[code])
    }
  })

  it('have the shape of what the service answers today (over a socket, against the loopback internet)', async () => {
    const live = await collectEndpointExamples(world.base, endpoints)
    expect(live.failures, 'examples the loopback internet cannot answer').toEqual([])
    const stale: string[] = []
    for (const [name, example] of Object.entries(live.examples)) {
      const recorded = stored.endpoints[name]
      if (recorded && JSON.stringify(shapeOf(recorded.response)) !== JSON.stringify(shapeOf(example.response))) stale.push(name)
    }
    expect(stale, STALE).toEqual([])
  }, 60_000)
})

describe('shapeOf', () => {
  it('ignores values and list lengths, sees keys and types', () => {
    const a = { request_id: '01M8', n: 1, list: [{ x: 1 }, { x: 2, y: 'a' }], when: '2026-01-01T00:00:00Z' }
    const b = { request_id: '01XX', n: 7, list: [{ x: 5, y: 'b' }, { x: 2 }, { x: 3 }], when: '2027-05-05T05:05:05Z' }
    expect(shapeOf(a)).toEqual(shapeOf(b))
    expect(shapeOf({ ...a, n: '1' })).not.toEqual(shapeOf(a))
    expect(shapeOf({ ...a, extra: true })).not.toEqual(shapeOf(a))
    expect(shapeOf({ ...a, list: [{ x: 1, z: 1 }] })).not.toEqual(shapeOf(a))
  })
})

describe('the OpenAPI document', () => {
  it('shows each recorded answer with its operation, and the example input on the parameters', async () => {
    const doc = (await (await fetch(new URL('/api/openapi.json', world.base))).json()) as Record<string, any>
    for (const endpoint of documented(endpoints)) {
      const path = endpoint.path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, '{$1}')
      const op = doc.paths[path][endpoint.method.toLowerCase()]
      const examples = op.responses['200'].content['application/json'].examples as Record<string, { value: unknown; summary: string }> | undefined
      expect(Object.values(examples ?? {})[0]?.value, endpoint.name).toEqual(stored.endpoints[endpoint.name]?.response)
      for (const [name, value] of Object.entries(endpoint.example ?? {})) {
        if (name === 'body') continue
        expect(op.parameters.find((p: { name?: string }) => p.name === name)?.example, `${endpoint.name} ${name}`).toBe(value)
      }
    }
    expect(doc.components.responses.RateLimited.content['application/json'].examples.rate_limited.value).toEqual(stored.errors.rate_limited?.response)
  })

  it('documents the reference page and its script as HTML and JavaScript, without query controls', async () => {
    const doc = (await (await fetch(new URL('/api/openapi.json', world.base))).json()) as Record<string, any>
    expect(Object.keys(doc.paths['/api/docs'].get.responses['200'].content)).toEqual(['text/html'])
    expect(Object.keys(doc.paths['/api/docs/scalar.js'].get.responses['200'].content)).toEqual(['text/javascript'])
    expect(doc.paths['/api/docs'].get.parameters).toEqual([])
  })
})
