import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import type { ExamplesFile } from '../../plugins/meta/examples.ts'
import { exampleRequest, loadExamples, needsExample, shapeOf } from '../../plugins/meta/examples.ts'
import { collectEndpointExamples, collectErrorExamples, documented, maskVolatile, startExampleService } from '../../scripts/docs-examples.ts'

// The example answers of the API reference (plugins/meta/examples.json) are
// recorded by `npm run docs:examples`, never written by hand. This suite fails
// when they no longer are what the service answers: a descriptor without an
// example, an example input that changed, an endpoint with no recorded answer,
// a recorded answer that differs from today's answer in any value except the
// volatile ones (request ids, times, UUIDs/ULIDs, durations, ages, and the test
// world's ports, addresses and certificates: maskVolatile), or from the schema.

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
  it('every descriptor with any parameter has an example', () => {
    const missing = endpoints.filter((e) => needsExample(e) && e.example === undefined).map((e) => `${e.name} (${e.path})`)
    expect(missing, 'add `example: {...}` to these descriptors').toEqual([])
  })

  it('needsExample: any parameter (path, query, optional or not) or a body needs one; none does not', () => {
    const byName = (name: string) => endpoints.find((e) => e.name === name)!
    expect(needsExample(byName('dns.a'))).toBe(true)
    expect(needsExample(byName('utilities.hash'))).toBe(true)
    // only optional query parameters: the reader still needs to see one in use
    expect(Object.values(byName('utilities.uuid').params.shape).every((p) => (p as { safeParse(v: unknown): { success: boolean } }).safeParse(undefined).success)).toBe(true)
    expect(needsExample(byName('utilities.uuid'))).toBe(true)
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

  it('are what the service answers today, value for value, volatile fields masked (over a socket, against the loopback internet)', async () => {
    const live = await collectEndpointExamples(world.base, endpoints)
    expect(live.failures, 'examples the loopback internet cannot answer').toEqual([])
    const stale: string[] = []
    for (const [name, example] of Object.entries(live.examples)) {
      const recorded = stored.endpoints[name]
      if (!recorded) continue
      const difference = firstDifference(maskVolatile(recorded.response), maskVolatile(example.response))
      if (difference) stale.push(`${name}: ${difference}`)
    }
    expect(stale, STALE).toEqual([])
  }, 60_000)

  it('the error examples come out the same again: code, status, shape and masked values', async () => {
    const again = await collectErrorExamples(endpoints)
    expect(again.failures).toEqual([])
    expect(Object.keys(again.examples).sort(), STALE).toEqual(Object.keys(stored.errors).sort())
    for (const [code, example] of Object.entries(again.examples)) {
      const recorded = stored.errors[code]!
      expect(example.status, `${code}: ${STALE}`).toBe(recorded.status)
      expect(example.request, `${code}: ${STALE}`).toEqual(recorded.request)
      expect(shapeOf(example.response), `${code}: ${STALE}`).toEqual(shapeOf(recorded.response))
      expect(firstDifference(maskVolatile(recorded.response), maskVolatile(example.response)), `${code}: ${STALE}`).toBeNull()
    }
  }, 60_000)
})

/** Where two JSON values first differ (path: recorded | live), or null. */
function firstDifference(recorded: unknown, live: unknown, path = ''): string | null {
  if (typeof recorded === 'object' && recorded !== null && typeof live === 'object' && live !== null && Array.isArray(recorded) === Array.isArray(live)) {
    if (Array.isArray(recorded) && Array.isArray(live) && recorded.length !== live.length) return `${path || '.'}: ${recorded.length} items | ${live.length} items`
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(live)])) {
      const found = firstDifference((recorded as Record<string, unknown>)[key], (live as Record<string, unknown>)[key], `${path}.${key}`)
      if (found) return found
    }
    return null
  }
  return JSON.stringify(recorded) === JSON.stringify(live) ? null : `${path || '.'}: ${JSON.stringify(recorded)?.slice(0, 120)} | ${JSON.stringify(live)?.slice(0, 120)}`
}

describe('maskVolatile', () => {
  it('hides ids, clocks, durations and the test world\'s ports, addresses and certificates; keeps every other value, days left included', () => {
    const run = (n: number, id: string, port: number, at: string) => ({
      request_id: id,
      timestamp: at,
      data: {
        uuid: n === 1 ? '01a20d48-59ae-71b9-9df3-9a2dcd2a7a35' : '5cb1c8b8-a9b0-41cd-b0e9-ce1212d9fed2',
        ulids: [n === 1 ? '01M86MGPCYE655HYSR448H5MEK' : '01M86MQ8FBE57FREK71CVY61C4'],
        latency_ms: n * 3.4,
        uptime_seconds: n * 12,
        age_days: 12,
        certificate: { days_left: 1740, days_to_expiry: 30, expires_in_days: 90, validity_days: 398 },
        resolver: { name: `127.0.0.2:${port}`, address: '127.0.0.2', port },
        public: { address: '192.0.2.53', port: 53 },
        url: `http://127.0.0.43:${port}/rdap/domain/example.com`,
        header: n === 1 ? 'Tue, 24 Nov 2026 11:19:35 GMT' : 'Wed, 25 Nov 2026 08:00:01 GMT',
        leaf: { fingerprint_sha256: `${n}A:BC`, subject_key_id: `${n}abc`, pem: `-----BEGIN ${n}` },
        records: [{ address: '192.0.2.10', ttl: 3600 }],
      },
    })
    const a = maskVolatile(run(1, '01M86MGH5K7E1X0K6AXXDN3H00', 40386, '2026-11-24T11:19:29.744Z'))
    const b = maskVolatile(run(2, '01M86MQ5327BA3V9V6MV7YHKHD', 36408, '2026-11-25T08:00:00Z'))
    expect(a).toEqual(b)
    expect(a).toMatchObject({ data: { resolver: { port: '<port>' }, public: { address: '192.0.2.53', port: 53 }, records: [{ address: '192.0.2.10', ttl: 3600 }] } })
    // a real value change is still seen
    const changed = run(1, '01M86MGH5K7E1X0K6AXXDN3H00', 40386, '2026-11-24T11:19:29.744Z')
    changed.data.records[0]!.ttl = 300
    expect(maskVolatile(changed)).not.toEqual(a)
    // Days counted from the clock's now are values: the examples run under a fixed clock.
    expect(a).toMatchObject({ data: { age_days: 12, certificate: { days_left: 1740, validity_days: 398 } } })
    const older = run(1, '01M86MGH5K7E1X0K6AXXDN3H00', 40386, '2026-11-24T11:19:29.744Z')
    older.data.certificate.days_left = 1739
    expect(maskVolatile(older)).not.toEqual(a)
    expect(maskVolatile({ ...run(1, 'x', 1, 'y'), status: 'secure' })).not.toEqual(maskVolatile({ ...run(1, 'x', 1, 'y'), status: 'insecure' }))
  })
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
