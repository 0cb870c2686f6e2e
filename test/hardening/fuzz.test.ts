import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import { CONTROL_NAMES } from '../../runtime/controls.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

// A fuzzer generated from the registry: random path params, endpoint params, query
// controls, headers and bodies for every endpoint. Whatever arrives, the answer is
// an envelope, never a 500, and the process keeps serving. Bigger runs:
// FUZZ_RUNS=5000 npx vitest run test/hardening/fuzz.test.ts

const RUNS = Number(process.env.FUZZ_RUNS ?? 400)

let dns: LoopbackDns
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns({ timeoutMs: 150 })
  t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000000', INFRALENS_REQUEST_TIMEOUT_MS: '2000', LOG_LEVEL: 'error' })
})
afterAll(async () => {
  await t.close()
  await dns.close()
})

const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '%', '%00', '%ZZ', '..', '../../etc/passwd', '\u0000', '\uFFFF', '\uD800', '😀', 'A'.repeat(3000), '-1', '1e309', 'NaN', '__proto__', 'constructor', '[]', '{}', 'null', 'true', '0x10', '::', '[::1]', '127.1', '1.2.3.4/33', 'example.com', 'ex..ample', 'http://10.0.0.1/'),
  fc.domain(),
  fc.ipV4(),
  fc.ipV6(),
)

function pathFor(endpoint: AnyEndpoint, values: string[]): string {
  let i = 0
  return endpoint.path.replace(/(?:\*\*)?:[A-Za-z0-9_]+/g, () => encodeURIComponent(values[i++] ?? 'x'))
}

const controlValue = fc.oneof(nasty, fc.constantFrom('json', 'yaml', 'xml', 'csv', 'true', 'false', '1', '0', 'asc', 'desc', '5', '1000', 'records.ttl', 'data,meta'))

describe('fuzzing every endpoint from the registry', () => {
  it(`${RUNS} random requests: never a 500, always an envelope, process still healthy`, async () => {
    // test.failing answers 500 on purpose and test.slow sleeps; every other endpoint is fair game.
    const endpoints = t.endpoints.filter((e) => e.name !== 'test.failing' && e.name !== 'test.slow')
    const request = fc.record({
      endpoint: fc.constantFrom(...endpoints),
      pathValues: fc.array(nasty, { minLength: 3, maxLength: 3 }),
      params: fc.dictionary(fc.oneof(fc.constantFrom(...new Set(endpoints.flatMap((e) => Object.keys(e.params.shape)))), fc.string({ maxLength: 8 })), nasty, { maxKeys: 4 }),
      controls: fc.dictionary(fc.constantFrom(...CONTROL_NAMES), controlValue, { maxKeys: 5 }),
      apiKey: fc.option(fc.oneof(nasty, fc.constant(`il_${'a'.repeat(40)}`)), { nil: undefined }),
      body: fc.option(fc.oneof(nasty, fc.json(), fc.array(nasty, { maxLength: 20 }).map((a) => a.join('\n'))), { nil: undefined }),
      method: fc.constantFrom('GET', 'GET', 'GET', 'POST', 'HEAD', 'PUT'),
    })
    const problems: string[] = []
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const query = new URLSearchParams()
        for (const [k, v] of Object.entries({ ...r.params, ...r.controls })) query.set(k, v)
        let path: string
        try {
          path = pathFor(r.endpoint, r.pathValues) + (query.size ? `?${query}` : '')
        } catch {
          return // a lone surrogate cannot be put in a URL at all
        }
        const method = r.method === 'POST' ? r.endpoint.method : r.method
        const headers: Record<string, string> = {}
        if (r.apiKey !== undefined && /^[\x20-\x7e]*$/.test(r.apiKey)) headers['x-api-key'] = r.apiKey
        let res: Response
        try {
          res = await t.request(path, { method, headers, ...(r.body !== undefined && method === 'POST' ? { body: r.body } : {}) })
        } catch (error) {
          // A URL the fetch API itself refuses to build never reaches the service.
          if (error instanceof TypeError) return
          throw error
        }
        const text = await res.text()
        if (res.status >= 500 && res.status !== 502 && res.status !== 503 && res.status !== 504) problems.push(`${method} ${path} -> ${res.status} ${text.slice(0, 200)}`)
        if (method === 'HEAD' || res.status === 204 || res.status === 431) return
        const type = res.headers.get('content-type') ?? ''
        if (type.startsWith('application/json')) {
          const body = JSON.parse(text) as Record<string, unknown>
          if (r.endpoint.envelope === false && res.status === 200) return
          if (typeof body.success !== 'boolean' || typeof body.request_id !== 'string' || typeof body.timestamp !== 'string') {
            problems.push(`${method} ${path} -> not an envelope: ${text.slice(0, 200)}`)
          }
          if (body.success === false && typeof (body.error as { code?: unknown })?.code !== 'string') problems.push(`${path}: error without code`)
        }
        expect(res.headers.get('x-request-id') ?? res.headers.get('x-request-id')).toBeTruthy()
      }),
      { numRuns: RUNS },
    )
    expect(problems).toEqual([])
    expect((await t.json('/api/health')).status).toBe(200)
    expect(t.logs.filter((l) => l.msg === 'unhandled error')).toEqual([])
  }, 120_000)
})
