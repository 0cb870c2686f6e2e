import fc from 'fast-check'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import { listen } from '../../runtime/server.ts'
import { fenceRefusals } from '../support/loopback-rule.ts'
import { buildRequest, fuzzCase } from './fuzz-cases.ts'
import type { Coverage, FuzzWorld } from './fuzz-harness.ts'
import { assertHealthy, assertOptions, assertStaysOnTheBox, count, knownAbortFinding, describeRequest, endpoints, fenceCounterWorks, invariantProblems, KEEP_GOING, newCoverage, prototypeSnapshot, routeOf, RUNS, Sample, sendable, startFuzzWorld } from './fuzz-harness.ts'
import type { Judged } from './fuzz-judge.ts'
import { judge } from './fuzz-judge.ts'
import type { RawAnswer, WireMutation, WireRequest } from './fuzz-wire.ts'
import { exchange, hostHeader, render, wireMutation } from './fuzz-wire.ts'

// The fuzzer on the wire (issue 18): the same cases as fuzz-endpoints.test.ts,
// sent as raw bytes to the real HTTP server (runtime/server.ts: srvx, Node's
// parser, the parser-error answers), with what fetch never sends mixed in
// (fuzz-wire.ts): raw control and non-ASCII bytes in the target and headers,
// forbidden methods, other HTTP versions, folded or LF-only header lines,
// lying Content-Length, broken chunked framing, headers past the 16 KiB limit.
// Every answer is judged like the in-process ones; one the parser refused may be
// JSON whatever format= said (the app never saw the request); what passes the
// parser but the app cannot route (no Host, an odd target, CONNECT) is answered
// by runtime/request-guard.ts, with the envelope too. After every property the
// server still accepts connections and answers /api/health.
//
//   FUZZ_RUNS=300 npx vitest run test/hardening/fuzz-wire.test.ts   a quarter of that per endpoint

vi.mock('../support/loopback-dns.ts', async (original) => (await import('./fuzz-zones.ts')).fuzzWorldDns(await original<typeof import('../support/loopback-dns.ts')>()))

const WIRE_RUNS = Math.max(8, Math.round(RUNS / 4))
const ANSWER_MS = 10_000

let world: FuzzWorld
let server: Server
let port: number
let refusalsAtStart: number
const prototypes = prototypeSnapshot()
beforeAll(async () => {
  refusalsAtStart = await fenceCounterWorks()
  world = await startFuzzWorld()
  server = await listen(world.t, { port: 0, host: '127.0.0.1' })
  port = Number(new URL(server.url!).port)
}, 60_000)
afterAll(async () => {
  if (process.env.FUZZ_REPORT === '1') {
    for (const [name, seen] of coverage) console.log(name, JSON.stringify(seen))
    console.log('documented findings met:', JSON.stringify([...knownSeen]))
  }
  await server?.close(true)
  await world?.close()
})

const coverage = new Map<string, Coverage>()
const sample = new Sample(1)
/** The documented findings met (fuzz-findings.test.ts), by name. */
const knownSeen = new Map<string, number>()

/** The answer judged; a request the HTTP parser refused may be answered in JSON whatever format= said. */
function judgeWire(wire: WireRequest, answer: RawAnswer): Judged {
  let url: URL | undefined
  try {
    url = new URL(wire.target, 'http://127.0.0.1')
  } catch {
    url = undefined
  }
  const format = url?.searchParams.get('format') ?? null
  const routed = url ? routeOf(world.t, wire.method, url.pathname) : undefined
  const judged = judge(routed, wire.method, format, answer)
  if (!judged.problem || answer.status < 400) return judged
  // runtime/parser-errors.ts or runtime/request-guard.ts answered: the app never
  // saw the request (nor its format= or method), the answer is the JSON envelope
  // with connection: close.
  if (answer.headers.get('connection') === 'close' && answer.headers.get('date') !== null && PARSER_REFUSALS.has(answer.status)) {
    const asParserError = judge(undefined, 'GET', null, answer)
    const details = asParserError.envelope?.error?.details as { parse_error?: unknown; max_bytes?: unknown; headers_timeout_ms?: unknown; param?: unknown; method?: unknown } | undefined
    const byParser = typeof details?.parse_error === 'string' || details?.max_bytes !== undefined || details?.headers_timeout_ms !== undefined
    const byGuard = (answer.status === 400 && (details?.param === 'host' || details?.param === 'target')) || (answer.status === 405 && details?.method === 'CONNECT')
    if (!asParserError.problem && (byParser || byGuard)) return asParserError
  }
  return judged
}

/** Statuses runtime/parser-errors.ts and runtime/request-guard.ts answer with. */
const PARSER_REFUSALS = new Set([400, 405, 408, 413, 431])

function wireProperty(endpoint: AnyEndpoint, seen: Coverage, problems: string[]) {
  const cases = fc
    .record({
      c: fuzzCase(endpoint),
      mutations: fc.oneof({ weight: 1, arbitrary: fc.constant<WireMutation[]>([]) }, { weight: 4, arbitrary: fc.array(wireMutation, { minLength: 1, maxLength: 3 }) }),
      host: hostHeader,
    })
    .filter(({ c }) => sendable(buildRequest(endpoint, c, undefined)))
  return fc.asyncProperty(cases, async ({ c, mutations, host }) => {
    const request = buildRequest(endpoint, c, undefined)
    assertStaysOnTheBox(request)
    const wire = render(request, mutations, host)
    const refusals = fenceRefusals.count
    const logs = world.t.logs.length
    const started = performance.now()
    const { answer, error, raw } = await exchange(port, wire.bytes, ANSWER_MS, wire.halfClose, wire.method === 'HEAD')
    const described = `${describeRequest(request)} on the wire as ${JSON.stringify(wire.bytes.subarray(0, 400).toString('latin1'))}${wire.bytes.length > 400 ? `…(${wire.bytes.length} bytes)` : ''}`
    const found: string[] = []
    if (!answer) found.push(error ?? `no answer (${raw.length} bytes)`)
    else {
      const judged = judgeWire(wire, answer)
      count(seen, c, judged, answer.status, performance.now() - started, described)
      sample.offer(endpoint.name, described, judged)
      if (judged.problem) found.push(`${judged.problem}${judged.text ? `: ${judged.text.slice(0, 300)}` : ''}`)
    }
    // A request that half-closes is a client going away: its documented abort findings are known.
    const routed = answer && wire.halfClose && URL.canParse(wire.target, 'http://127.0.0.1') ? routeOf(world.t, wire.method, new URL(wire.target, 'http://127.0.0.1').pathname)?.name : undefined
    const abortKnown = routed ? knownAbortFinding(routed, answer!.status, world.t.logs.slice(logs)) : undefined
    if (abortKnown) knownSeen.set(abortKnown, (knownSeen.get(abortKnown) ?? 0) + 1)
    found.push(...invariantProblems(world.t, refusals, abortKnown ? world.t.logs.length : logs, prototypes))
    if (found.length === 0) return
    const report = `${described} -> ${answer?.status ?? 'nothing'}: ${found.join(' | ')}`
    if (KEEP_GOING) problems.push(report)
    else throw new Error(report)
  })
}

/** A plain GET /api/health on a new connection. */
async function healthOnTheWire(): Promise<void> {
  const { answer, error } = await exchange(port, Buffer.from('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'), ANSWER_MS)
  expect(error).toBeUndefined()
  expect(answer?.status).toBe(200)
}

describe(`fuzzing every endpoint from the registry, on the wire (${WIRE_RUNS} requests each)`, () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.name} (${endpoint.method} ${endpoint.path})`, async () => {
      const seen = newCoverage()
      coverage.set(endpoint.name, seen)
      const problems: string[] = []
      await fc.assert(wireProperty(endpoint, seen, problems), assertOptions(WIRE_RUNS))
      expect(problems).toEqual([])
      await healthOnTheWire()
      await assertHealthy(world.t, prototypes, refusalsAtStart)
      expect(seen.sent, `${endpoint.name}: ${JSON.stringify(seen)}`).toBe(WIRE_RUNS)
    }, 120_000)
  }

  it('every endpoint was fuzzed, the strict readers accept the sampled YAML and XML, and the server still answers', async () => {
    expect([...coverage.keys()].sort()).toEqual(endpoints.map((e) => e.name).sort())
    expect(sample.check()).toEqual([])
    await healthOnTheWire()
    await assertHealthy(world.t, prototypes, refusalsAtStart)
  }, 60_000)
})
