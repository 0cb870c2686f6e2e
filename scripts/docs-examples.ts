// npm run docs:examples — records the example answers of the API reference.
//
// Starts the service on 127.0.0.1 against the loopback internet of the tests (no
// packet leaves the machine: test/support/loopback-only.ts is loaded first), calls
// every endpoint with its descriptor's `example` over a real socket, calls a few
// requests that fail in each documented way, and writes what came back to
// plugins/meta/examples.json, which the OpenAPI document (/api/openapi.json and
// the reference at /api/docs) shows. test/gateway/docs-examples.test.ts fails
// when the stored answers no longer match what the service answers.
//
//   npm run docs:examples            write plugins/meta/examples.json
//   npm run docs:examples -- --check exit 1 if the file would change (volatile fields masked)

import '../test/support/loopback-only.ts'
import { request as httpRequest } from 'node:http'
import { writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { Writable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import type { InfralensApp } from '../runtime/app.ts'
import { createApp } from '../runtime/app.ts'
import type { AnyEndpoint } from '../runtime/define-endpoint.ts'
import { listen } from '../runtime/server.ts'
import type { ExampleRequest, ExamplesFile, StoredExample } from '../plugins/meta/examples.ts'
import { EXAMPLES_FILE, abridgeOpenApi, exampleRequest, hasJsonAnswer, loadExamples } from '../plugins/meta/examples.ts'
import { startLoopbackDns } from '../test/support/loopback-dns.ts'
import { startLoopbackInternet } from '../test/support/loopback-internet.ts'
import { EXAMPLE_INSTANT, exampleTime } from '../test/support/world-time.ts'
import { defineFixedClock } from '../runtime/clock.ts'

const silent = () => new Writable({ write: (_chunk, _encoding, done) => done() })

export interface Answer {
  status: number
  contentType: string
  body: unknown
}

/**
 * Sends one request over a real socket, from a loopback source address of its own:
 * each example is a fresh anonymous client with the default limits, and the
 * service sees a real client IP (127.0.0.x).
 */
export function send(base: string, req: ExampleRequest, source = '127.0.0.1', headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(req.path, base)
  return new Promise((resolve, reject) => {
    const out = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: req.method,
        localAddress: source,
        agent: false,
        headers: { accept: 'application/json', ...headers, ...(req.contentType ? { 'content-type': req.contentType } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          const contentType = res.headers['content-type'] ?? ''
          let body: unknown = text
          if (contentType.startsWith('application/json')) {
            try {
              body = JSON.parse(text)
            } catch {
              // left as text: the caller reports it
            }
          }
          resolve({ status: res.statusCode ?? 0, contentType, body })
        })
        res.on('error', reject)
      },
    )
    out.on('error', reject)
    out.end(req.body)
  })
}

// What differs between two runs of the same example against the loopback internet,
// and nothing else: ids, run-time measurements, times that are not the service
// clock's (the fake servers' own Date headers), and the test world's per-run
// artefacts (ephemeral ports, random 127/8 server addresses, freshly generated
// keys). Everything else must come out the same, value for value: the service runs
// under a fixed clock (startExampleService), so ages and days left are not masked.
const MASKED_STRINGS: ReadonlyArray<[RegExp, string]> = [
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g, '<time>'],
  [/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\b/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b[0-7][0-9A-HJKMNP-TV-Z]{25}\b/g, '<ulid>'],
  [/\b127(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g, '<loopback>'],
]
const MASKED_KEYS: ReadonlyArray<[RegExp, string]> = [
  [/^request_id$/, '<id>'],
  [/(?:^|_)ms$|^uptime/, '<duration>'],
  [/fingerprint|_key_id$|^pem$/, '<certificate>'],
]

/** The example with run-to-run differences replaced by placeholders; see MASKED_STRINGS and MASKED_KEYS. */
export function maskVolatile(value: unknown, key = ''): unknown {
  const byKey = MASKED_KEYS.find(([pattern]) => pattern.test(key))
  if (byKey && value !== null && typeof value !== 'object') return byKey[1]
  if (typeof value === 'string') return MASKED_STRINGS.reduce((text, [pattern, token]) => text.replace(pattern, token), value)
  if (Array.isArray(value)) return value.map((item) => maskVolatile(item))
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>
    // A loopback server's port is picked per run (a real resolver's or service's is not).
    const loopbackServer = [record.address, record.host].some((v) => typeof v === 'string' && v.startsWith('127.'))
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, k === 'port' && loopbackServer ? '<port>' : maskVolatile(v, k)]))
  }
  return value
}

/** Sources 127.0.0.10 … 127.0.0.250, one per request. */
function sources(): () => string {
  let n = 0
  return () => `127.0.0.${10 + (n++ % 240)}`
}

/**
 * The service as the examples see it: real plugins and registry, the loopback
 * internet, a real socket, and a clock fixed at EXAMPLE_INSTANT with the world's
 * dated data made around it (test/support/world-time.ts): ages, days left and
 * expiries come out the same on any day the examples are recorded or checked.
 */
export async function startExampleService(env: Record<string, string> = {}): Promise<{ service: InfralensApp; base: string; close(): Promise<void> }> {
  const internet = await startLoopbackInternet(exampleTime())
  const service = await createApp({ env: { LOG_LEVEL: 'error', ...internet.env, ...env }, logStream: silent(), clock: defineFixedClock(EXAMPLE_INSTANT) })
  const server = await listen(service, { port: 0, host: '127.0.0.1' })
  await untilReady(server.url!)
  return {
    service,
    base: server.url!,
    async close() {
      await server.close(true)
      await service.close()
      await internet.close()
    },
  }
}

/** Data that loads in the background (ASN tables, ...) is there before the examples are taken. */
async function untilReady(base: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const answer = await send(base, { method: 'GET', path: '/api/ready' })
    if (answer.status === 200) return
    if (Date.now() > deadline) throw new Error(`the service did not get ready: ${JSON.stringify(answer.body)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Endpoints the reference shows an example answer for (the page and its script are documents, not data). */
export function documented(endpoints: readonly AnyEndpoint[]): AnyEndpoint[] {
  return [...endpoints].filter(hasJsonAnswer).sort((a, b) => a.name.localeCompare(b.name))
}

/** Calls every documented endpoint with its example. Failures are returned, not thrown. */
export async function collectEndpointExamples(
  base: string,
  endpoints: readonly AnyEndpoint[],
): Promise<{ examples: Record<string, StoredExample>; failures: string[] }> {
  const next = sources()
  const examples: Record<string, StoredExample> = {}
  const failures: string[] = []
  for (const endpoint of documented(endpoints)) {
    let request: ExampleRequest
    try {
      request = exampleRequest(endpoint)
    } catch (error) {
      failures.push((error as Error).message)
      continue
    }
    const answer = await send(base, request, next())
    if (answer.status !== 200 || typeof answer.body !== 'object') {
      failures.push(`${endpoint.name}: ${request.method} ${request.path} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`)
      continue
    }
    const response = endpoint.name === 'meta.openapi' ? abridgeOpenApi(answer.body as Record<string, unknown>) : answer.body
    examples[endpoint.name] = { request, status: answer.status, response }
  }
  return { examples, failures }
}

/** One real answer for each error the reference documents (500 internal_error has no honest trigger). */
export async function collectErrorExamples(endpoints: readonly AnyEndpoint[]): Promise<{ examples: Record<string, StoredExample>; failures: string[] }> {
  const dns = await startLoopbackDns()
  // A short deadline for the timeout example; everything else answers well within it.
  const service = await createApp({ env: { LOG_LEVEL: 'error', ...dns.env, INFRALENS_REQUEST_TIMEOUT_MS: '300', INFRALENS_DNS_TIMEOUT_MS: '2000' }, logStream: silent(), clock: defineFixedClock(EXAMPLE_INSTANT) })
  const server = await listen(service, { port: 0, host: '127.0.0.1' })
  const base = server.url!
  await untilReady(base)
  const next = sources()
  const examples: Record<string, StoredExample> = {}
  const failures: string[] = []
  const record = async (code: string, request: ExampleRequest, headers: Record<string, string> = {}, source = next()) => {
    const answer = await send(base, request, source, headers)
    const got = (answer.body as { error?: { code?: unknown } } | undefined)?.error?.code
    if (got !== code) failures.push(`error ${code}: ${request.method} ${request.path} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`)
    else examples[code] = { request: Object.keys(headers).length ? { ...request, headers } : request, status: answer.status, response: answer.body }
  }
  try {
    await record('bad_request', { method: 'GET', path: '/api/uuid/bulk?count=5000' })
    await record('invalid_api_key', { method: 'GET', path: '/api/uuid' }, { 'x-api-key': `il_${'0'.repeat(32)}` })
    await record('not_found', { method: 'GET', path: '/api/nope' })
    const withBody = endpoints.find((e) => e.body !== undefined)
    if (withBody?.body) {
      // Declared length over the limit: refused before the body is read. The body itself is not stored.
      const answer = await send(base, { method: 'POST', path: withBody.path, contentType: 'text/plain', body: 'x'.repeat(withBody.body.maxBytes + 1) }, next())
      if ((answer.body as { error?: { code?: unknown } }).error?.code === 'payload_too_large') {
        examples.payload_too_large = { request: { method: 'POST', path: withBody.path, contentType: 'text/plain' }, status: answer.status, response: answer.body }
      } else failures.push(`error payload_too_large: POST ${withBody.path} answered ${answer.status}`)
    }
    const hammered = next()
    const limit = service.config.rateLimits.anonymous ?? 60
    for (let i = 0; i < limit; i++) await send(base, { method: 'GET', path: '/api/uuid' }, hammered)
    await record('rate_limited', { method: 'GET', path: '/api/uuid' }, {}, hammered)
    dns.resolver.setFault('refused')
    await record('upstream_error', { method: 'GET', path: '/api/dns/a/example.com' })
    dns.resolver.setFault({ kind: 'delay', ms: 1500 })
    await record('timeout', { method: 'GET', path: '/api/dns/mx/example.com' })
    dns.resolver.setFault(null)
  } finally {
    await server.close(true)
    await service.close()
    await dns.close()
  }
  return { examples, failures }
}

export const COMMENT =
  'Generated by `npm run docs:examples` (scripts/docs-examples.ts): real answers of the service to each descriptor `example`, ' +
  'recorded against the loopback internet of the tests; shown in /api/openapi.json and /api/docs; checked by test/gateway/docs-examples.test.ts. Do not edit by hand.'

async function main(): Promise<void> {
  const check = process.argv.includes('--check')
  const world = await startExampleService()
  let file: ExamplesFile
  const failures: string[] = []
  try {
    const endpoints = await collectEndpointExamples(world.base, world.service.endpoints)
    const errors = await collectErrorExamples(world.service.endpoints)
    failures.push(...endpoints.failures, ...errors.failures)
    file = { $comment: COMMENT, endpoints: endpoints.examples, errors: errors.examples }
  } finally {
    await world.close()
  }
  const where = relative(process.cwd(), EXAMPLES_FILE)
  if (check) {
    const stored = loadExamples()
    // In the file's key order ($comment first): JSON.stringify compares the order too.
    const same = JSON.stringify(maskVolatile({ $comment: COMMENT, ...stored })) === JSON.stringify(maskVolatile(file))
    console.log(same ? `${where} is current (values, volatile fields masked)` : `${where} is stale: run npm run docs:examples`)
    process.exitCode = same && failures.length === 0 ? 0 : 1
  } else {
    writeFileSync(EXAMPLES_FILE, `${JSON.stringify(file, null, 2)}\n`)
    console.log(`${where}: ${Object.keys(file.endpoints).length} endpoint examples, ${Object.keys(file.errors).length} error examples`)
  }
  if (failures.length) {
    console.error(`\n${failures.length} example(s) could not be recorded (fix the descriptor's example, or teach test/support/loopback-internet.ts the upstream):`)
    for (const failure of failures) console.error(`  ${failure}`)
    process.exitCode = 1
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
