import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { load } from 'js-yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { definePlugin } from '../../runtime/define-plugin.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'
import type { FakeRdap } from '../support/fake-rdap.ts'
import { RDAP_ZONES, startFakeRdap } from '../support/fake-rdap.ts'
import type { FakeCrtsh } from '../support/fake-crtsh.ts'
import { startFakeCrtsh } from '../support/fake-crtsh.ts'
import type { ExampleTlsHost } from '../support/tls-servers.ts'
import { startExampleTlsHost } from '../support/tls-servers.ts'
import type { FakeRipestat } from '../support/fake-ripestat.ts'
import { startFakeRipestat } from '../support/fake-ripestat.ts'
import type { FakeVrp } from '../support/fake-vrp.ts'
import type { FakeTlsProfiles } from '../support/fake-tls-profiles.ts'
import { startFakeTlsProfiles } from '../support/fake-tls-profiles.ts'
import { startFakeVrp, untilVrpsLoaded } from '../support/fake-vrp.ts'
import { DNSBL_ZONES } from '../support/dnsbl-zones.ts'
import { exampleRequest } from '../../plugins/meta/examples.ts'
import { aliasPath } from '../../runtime/registry.ts'
import type { ExampleWeb } from '../support/fake-web.ts'
import { startExampleWeb } from '../support/fake-web.ts'

let t: TestApp
let doc: Record<string, any>
let dns: LoopbackDns
let rdap: FakeRdap
let web: ExampleWeb
let ripestat: FakeRipestat
let vrp: FakeVrp
let tlsHost: ExampleTlsHost
let crtsh: FakeCrtsh
let profiles: FakeTlsProfiles
beforeAll(async () => {
  web = await startExampleWeb()
  // The TLS examples name valid.tls.test:8443; certificate-transparency asks crt.sh.
  tlsHost = await startExampleTlsHost({ alsoTrust: [web.env.INFRALENS_EXTRA_CA_FILE!] })
  crtsh = await startFakeCrtsh()
  // The TLS profiles (tls.compliance answers 503 without them), a document written for the tests.
  profiles = await startFakeTlsProfiles()
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ...RDAP_ZONES, ...DNSBL_ZONES, web.zone, tlsHost.zone] })
  rdap = await startFakeRdap()
  ripestat = await startFakeRipestat()
  vrp = await startFakeVrp()
  t = await startTestApp({ ...dns.env, ...rdap.env, ...web.env, ...ripestat.env, ...vrp.env, ...tlsHost.env, ...crtsh.env, ...profiles.env, INFRALENS_RATE_LIMITS: 'anonymous=100000' })
  // The RPKI example needs the VRP set, which loads in the background.
  await untilVrpsLoaded(t)
  doc = (await t.json('/api/openapi.json')).body
})
afterAll(async () => {
  await t.close()
  await dns.close()
  await rdap.close()
  await web.close()
  await ripestat.close()
  await vrp.close()
  await tlsHost.close()
  await crtsh.close()
  await profiles.close()
})

const openApiPath = (path: string) => path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, '{$1}')

function fill(path: string, example: Readonly<Record<string, string>> = {}): string {
  const used = new Set<string>()
  const filled = path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, (_, name: string) => {
    used.add(name)
    return encodeURIComponent(example[name] ?? 'x')
  })
  const query = new URLSearchParams(Object.entries(example).filter(([k]) => !used.has(k)))
  return query.size ? `${filled}?${query}` : filled
}

describe('OpenAPI document', () => {
  it('is served raw (no envelope) and passes an OpenAPI 3.1 validator', async () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc).not.toHaveProperty('success')
    const validator = new Validator()
    const result = await validator.validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('describes every registry endpoint with the contract responses, controls and security', async () => {
    for (const endpoint of t.endpoints) {
      const path = endpoint.path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, '{$1}')
      const op = doc.paths[path]?.[endpoint.method.toLowerCase()]
      expect(op, endpoint.name).toBeDefined()
      expect(op.tags).toEqual([endpoint.tag])
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429', '502']))
      const refs = op.parameters.filter((p: { $ref?: string }) => p.$ref).map((p: { $ref: string }) => p.$ref.split('/').pop())
      // Documents of their own (contentType: the reference page, its script) take no controls;
      // data sent without the envelope (the OpenAPI document) only its serialization.
      const shaping = ['fields', 'exclude', 'include_meta', 'include_links', 'compact']
      if (endpoint.contentType !== undefined) expect(refs, endpoint.name).toEqual([])
      else if (endpoint.envelope === false) {
        expect(refs, endpoint.name).toEqual(['pretty'])
        expect(op.parameters.find((p: { name?: string }) => p.name === 'format')?.schema.enum, endpoint.name).toEqual(['json', 'yaml', 'xml'])
      } else for (const c of ['format', 'pretty', ...shaping]) expect(refs, endpoint.name).toContain(c)
      expect(op.security).toEqual([{}, { apiKey: [] }])
    }
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }))
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toEqual(expect.arrayContaining(['meta', 'utilities']))
    expect(doc.info.version).toBe('1.0.0')
  })

  it('declares the 503 of /api/ready (and only where a descriptor says it can happen)', async () => {
    const ready = doc.paths['/api/ready'].get.responses['503']
    expect(ready).toEqual({ $ref: '#/components/responses/ServiceUnavailable', description: expect.stringMatching(/^Not ready: .*\(service_unavailable\)$/) })
    expect(doc.components.responses.ServiceUnavailable.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' })
    expect(doc.components.responses.ServiceUnavailable.headers).toHaveProperty('RateLimit-Remaining')
    expect(doc.paths['/api/uuid'].get.responses).not.toHaveProperty('503')
    // The real 503 matches what is documented.
    const validator = new Validator()
    await validator.validate(structuredClone(doc))
    const resolved = validator.resolveRefs() as Record<string, any>
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    const schema = ajv.compile(resolved.paths['/api/ready'].get.responses['503'].content['application/json'].schema)
    const notReady = await startTestApp({}, { plugins: [definePlugin({ name: 'never-ready', setup: (api) => api.readiness('never', () => { throw new Error('still loading') }) })] })
    try {
      const res = await notReady.json('/api/ready')
      expect(res.status).toBe(503)
      expect(res.body.error.code).toBe('service_unavailable')
      expect(schema(res.body), JSON.stringify(schema.errors)).toBe(true)
    } finally {
      await notReady.close()
    }
  })

  it('is also served as YAML', async () => {
    const res = await t.request('/api/openapi.json?format=yaml')
    expect(res.headers.get('content-type')).toMatch(/yaml/)
    expect(load(await res.text())).toEqual(doc)
  })

  // One request per endpoint, in turn: the time grows with the registry (a TLS probe for dns.dane), past the default 20 s when the machine is busy.
  it("every endpoint's example answer matches its documented 200 schema; errors match the error schema", async () => {
    const validator = new Validator()
    await validator.validate(structuredClone(doc))
    const resolved = validator.resolveRefs() as Record<string, any>
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    const errorSchema = ajv.compile(resolved.components.schemas.ErrorEnvelope)
    let checked = 0
    for (const endpoint of t.endpoints) {
      if (endpoint.method !== 'GET' || endpoint.name.startsWith('test.') || endpoint.contentType !== undefined) continue
      const path = endpoint.path.replace(/(?:\*\*)?:([A-Za-z0-9_]+)/g, '{$1}')
      const schema = resolved.paths[path].get.responses['200'].content['application/json'].schema
      const res = await t.json(fill(endpoint.path, endpoint.example))
      expect(res.status, `${endpoint.name}: ${JSON.stringify(res.body)}`).toBe(200)
      const validate = ajv.compile(schema)
      expect(validate(res.body), `${endpoint.name}: ${JSON.stringify(validate.errors)}`).toBe(true)
      // and the data validates against the descriptor's own zod schema
      const data = endpoint.envelope === false ? res.body : res.body.data
      expect(endpoint.data.safeParse(data).success, endpoint.name).toBe(true)
      checked++
    }
    expect(checked).toBeGreaterThanOrEqual(13)
    for (const path of ['/api/nope', '/api/hash/nope?input=1', '/api/test/failing/upstream']) {
      const res = await t.json(path)
      expect(errorSchema(res.body), JSON.stringify(errorSchema.errors)).toBe(true)
    }
    // Every endpoint's example in turn, /api/tls/analyze's full scan and active checks
    // (issue 24, about a second on its own) among them: more than the default 20 s on a loaded box.
  }, 90_000)

  it('is one operation per endpoint: the ?param= form of a path parameter is said on it, not a second path', async () => {
    const operations = Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    )
    const expected = t.endpoints.map((e) => `${e.method} ${openApiPath(e.path)} ${e.name.replace(/[.-]([a-z0-9])/g, (_, c: string) => c.toUpperCase())}`)
    expect(operations.sort()).toEqual(expected.sort())
    let aliased = 0
    for (const endpoint of t.endpoints) {
      const op = doc.paths[openApiPath(endpoint.path)][endpoint.method.toLowerCase()]
      const bare = aliasPath(endpoint)
      if (bare === undefined) {
        expect(op, endpoint.name).not.toHaveProperty('x-query-alias')
        continue
      }
      aliased++
      expect(op['x-query-alias'], endpoint.name).toEqual({ path: bare, parameters: [...endpoint.queryAlias!] })
      expect(op.description, endpoint.name).toContain(`\`${endpoint.method} ${bare}?${endpoint.queryAlias!.map((n) => `${n}={${n}}`).join('&')}\``)
      // What the description promises, the server keeps: the query form is the same endpoint.
      if (endpoint.name.startsWith('test.') || endpoint.example === undefined) continue
      const query = new URLSearchParams(Object.entries(endpoint.example).filter(([name]) => name !== 'body'))
      const res = await t.json(`${bare}?${query}`)
      expect(res.status, `${endpoint.name}: ${JSON.stringify(res.body.error)}`).toBe(200)
      expect(res.body.meta.endpoint).toBe(endpoint.name)
    }
    expect(aliased).toBeGreaterThan(40)
  })

  // The server is the oracle: each endpoint is called with its example plus one list
  // control. A generated client offers exactly the declared parameters, so a declared
  // one must never be refused, and one the server refuses must not be declared.
  it('declares sort/order/limit/offset exactly where the server takes them', async () => {
    const probes = { limit: 'limit=1', offset: 'offset=1', sort: 'sort=no_such_key' } as const
    let refusedSomewhere = 0
    let declaredSomewhere = 0
    for (const endpoint of t.endpoints) {
      if (endpoint.name.startsWith('test.')) continue
      const op = doc.paths[openApiPath(endpoint.path)][endpoint.method.toLowerCase()]
      const declared = new Set<string>(op.parameters.map((p: { $ref?: string; name?: string }) => (p.$ref ? p.$ref.split('/').pop() : p.name)))
      // order does nothing without sort: the two are declared together.
      expect(declared.has('order'), endpoint.name).toBe(declared.has('sort'))
      const example = exampleRequest(endpoint)
      for (const [name, probe] of Object.entries(probes)) {
        const init: RequestInit = { method: example.method, ...(example.body !== undefined ? { body: example.body, headers: { 'content-type': example.contentType! } } : {}) }
        const res = await t.request(`${example.path}${example.path.includes('?') ? '&' : '?'}${probe}`, init)
        // Documents of their own (HTML, a script) are not JSON; an error always is.
        const body = res.headers.get('content-type')?.startsWith('application/json') ? ((await res.json()) as Record<string, any>) : (await res.text(), {})
        const details = body.error?.details ?? {}
        // "no list to sort/page" (a sort key the list lacks is another 400, naming what it has).
        const refused = res.status === 400 && details.param === name && !('sortable' in details)
        const what = `${endpoint.name} ${probe}: ${res.status} ${JSON.stringify(body.error ?? {})}`
        // Declared: answered (a sort key the example's list lacks is the 400 that lists the keys it has).
        if (declared.has(name)) expect(res.status === 200 || (name === 'sort' && res.status === 400 && 'sortable' in details), what).toBe(true)
        // Enveloped data is shaped, so a control the document leaves out must be one it refuses.
        if (endpoint.envelope !== false && !declared.has(name)) expect(refused, what).toBe(true)
        if (refused) refusedSomewhere++
        if (declared.has(name)) declaredSomewhere++
      }
    }
    expect(refusedSomewhere).toBeGreaterThan(10)
    expect(declaredSomewhere).toBeGreaterThan(100)
  }, 120_000)
})
