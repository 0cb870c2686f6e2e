import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { needsExample } from '../../plugins/meta/examples.ts'
import type { AnyEndpoint } from '../../runtime/define-endpoint.ts'
import type { FuzzCase, FuzzRequest } from './fuzz-cases.ts'
import { buildRequest, fuzzCase, ifNoneMatch, positionsOf } from './fuzz-cases.ts'
import type { Coverage, FuzzWorld } from './fuzz-harness.ts'
import { assertHealthy, assertOptions, assertStaysOnTheBox, count, describeRequest, endpoints, fenceCounterWorks, invariantProblems, isKnownFindingLog, KEEP_GOING, knownAbortFinding, newCoverage, prototypeSnapshot, routeOf, RUNS, Sample, sendable, startFuzzWorld } from './fuzz-harness.ts'
import { fenceRefusals } from '../support/loopback-rule.ts'
import type { Answer } from './fuzz-judge.ts'
import { judge } from './fuzz-judge.ts'

// The fuzzer (issue 18), in process: every endpoint of the registry gets its own
// property of RUNS requests (FUZZ_RUNS, default 60), each its example, the
// example mutated or values made for its parameters, with every input position
// attacked now and then (fuzz-cases.ts) by the payload classes of
// fuzz-arbitraries.ts, against the loopback internet with the fuzzer's own zones
// (fuzz-zones.ts: no name leads off the box). Every answer is judged
// (fuzz-judge.ts); after every request the loopback fence must not have refused
// anything, the built-in prototypes must be as they were and nothing may be
// logged as unhandled; after every property /api/health still answers.
// Coverage per endpoint: every run sent, some reached the resolver, and every
// input position was attacked. fuzz-wire.test.ts sends what fetch cannot (raw
// bytes) to the real HTTP server.
//
//   FUZZ_RUNS=300 npx vitest run test/hardening/fuzz-endpoints.test.ts   a long run
//   FUZZ_SEED=123 ...                                                   a replay
//   FUZZ_KEEP_GOING=1 ...                                               every problem, not the first

vi.mock('../support/loopback-dns.ts', async (original) => (await import('./fuzz-zones.ts')).fuzzWorldDns(await original<typeof import('../support/loopback-dns.ts')>()))

/** An answer later than this is a hang (the request deadline is 2 s). */
const HANG_MS = 10_000

let world: FuzzWorld
let refusalsAtStart: number
const prototypes = prototypeSnapshot()
beforeAll(async () => {
  refusalsAtStart = await fenceCounterWorks()
  world = await startFuzzWorld()
}, 60_000)
afterAll(async () => {
  // FUZZ_REPORT=1: what each endpoint got (statuses, positions, the slowest requests).
  if (process.env.FUZZ_REPORT === '1') {
    for (const [name, seen] of coverage) console.log(name, JSON.stringify(seen))
    console.log('documented findings met:', JSON.stringify([...knownSeen]))
  }
  await world?.close()
})

/** `method`, `format` and `pathname` as the service sees them (fetch upper-cases get, head, post...). */
type Sent = { answer: Answer; method: string; format: string | null; pathname: string } | { unsendable: string }

/**
 * In process, as fetch would send it; a request fetch itself refuses to build (a
 * header value it forbids) is reported as such. `disconnectAfterMs`: the client
 * goes away then — the request's signal aborts with the error Node gives a
 * request whose socket closed — and the answer is read all the same.
 */
async function send(request: FuzzRequest, disconnectAfterMs: number | null = null): Promise<Sent> {
  let built: Request
  try {
    const headers = new Headers()
    for (const [k, v] of request.headers) headers.append(k, v)
    built = new Request(new URL(request.target, 'http://infralens.test'), { method: request.method, headers, ...(request.body !== undefined ? { body: request.body as BodyInit } : {}) })
  } catch (error) {
    if (error instanceof TypeError) return { unsendable: error.message }
    throw error
  }
  const { searchParams, pathname } = new URL(built.url)
  const format = searchParams.get('format')
  const abort = new AbortController()
  const gone = disconnectAfterMs === null ? undefined : setTimeout(() => abort.abort(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })), disconnectAfterMs)
  let timer: NodeJS.Timeout | undefined
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort()
      reject(new Error(`no answer within ${HANG_MS} ms`))
    }, HANG_MS)
  })
  try {
    const res = await Promise.race([world.t.app.request(new Request(built, { signal: abort.signal })), hang])
    const bytes = new Uint8Array(await Promise.race([res.arrayBuffer(), hang]))
    return { answer: { status: res.status, headers: res.headers, bytes }, method: built.method, format, pathname }
  } finally {
    clearTimeout(timer)
    clearTimeout(gone)
  }
}

const coverage = new Map<string, Coverage>()
const sample = new Sample(2)
/** The documented findings met (fuzz-findings.test.ts), by name. */
const knownSeen = new Map<string, number>()
const lastEtag = new Map<string, string>()

function fuzzProperty(endpoint: AnyEndpoint, seen: Coverage, problems: string[]) {
  // Nothing that reads as a public address is ever sent (fuzz-addresses.ts).
  const cases = fuzzCase(endpoint).filter((c) => sendable(buildRequest(endpoint, c, undefined)))
  return fc.asyncProperty(cases, async (c: FuzzCase) => {
    // The ETag to replay is the latest one, also when fast-check replays a case.
    const request = buildRequest(endpoint, c, lastEtag.get(endpoint.name))
    assertStaysOnTheBox(request)
    const refusals = fenceRefusals.count
    const logs = world.t.logs.length
    const started = performance.now()
    const sent = await send(request, c.disconnectAfterMs)
    if ('unsendable' in sent) {
      seen.unsendable++
      return
    }
    const { answer, method, format, pathname } = sent
    const judged = judge(routeOf(world.t, method, pathname), method, format, answer, c.disconnectAfterMs !== null)
    count(seen, c, judged, answer.status, performance.now() - started, describeRequest(request))
    const etag = answer.headers.get('etag')
    if (etag) lastEtag.set(endpoint.name, etag)
    sample.offer(endpoint.name, describeRequest(request), judged)
    const known = c.disconnectAfterMs === null ? undefined : knownAbortFinding(routeOf(world.t, method, pathname)?.name, answer.status, world.t.logs.slice(logs))
    if (known) knownSeen.set(known, (knownSeen.get(known) ?? 0) + 1)
    const found = known
      ? // What was logged for it is known; the rest of the invariants still hold.
        invariantProblems(world.t, refusals, world.t.logs.length, prototypes)
      : [...(judged.problem ? [`${judged.problem}${judged.text ? `: ${judged.text.slice(0, 300)}` : ''}`] : []), ...invariantProblems(world.t, refusals, logs, prototypes)]
    let report = found.length ? `${describeRequest(request)} -> ${answer.status}: ${found.join(' | ')}` : undefined
    // The same request again, conditional on the ETag it just got.
    if (!report && c.revalidate && etag && answer.status === 200) {
      const again: FuzzRequest = { ...request, headers: [...request.headers.filter(([k]) => k.toLowerCase() !== 'if-none-match'), ['if-none-match', ifNoneMatch(etag, c.revalidate)]] }
      const second = await send(again)
      if ('answer' in second) {
        const judgedAgain = judge(routeOf(world.t, second.method, second.pathname), second.method, second.format, second.answer)
        seen.statuses[second.answer.status] = (seen.statuses[second.answer.status] ?? 0) + 1
        const foundAgain = [...(judgedAgain.problem ? [`${judgedAgain.problem}: ${judgedAgain.text.slice(0, 300)}`] : []), ...invariantProblems(world.t, refusals, logs, prototypes)]
        if (foundAgain.length) report = `${describeRequest(again)} (revalidating) -> ${second.answer.status}: ${foundAgain.join(' | ')}`
      }
    }
    if (report === undefined) return
    if (KEEP_GOING) problems.push(report)
    else throw new Error(report)
  })
}

describe(`fuzzing every endpoint from the registry, in process (${RUNS} requests each)`, () => {
  for (const endpoint of endpoints) {
    it(`${endpoint.name} (${endpoint.method} ${endpoint.path})`, async () => {
      const seen = newCoverage()
      coverage.set(endpoint.name, seen)
      const problems: string[] = []
      await fc.assert(fuzzProperty(endpoint, seen, problems), assertOptions(RUNS))
      expect(problems).toEqual([])
      await assertHealthy(world.t, prototypes, refusalsAtStart)
      // Coverage: the runs were sent, the example made some of them reach the
      // resolver, and every input position the endpoint has was attacked (each is
      // in ~0.24 of the cases: missed by all of 60 with odds of ~1e-7).
      const detail = `${endpoint.name}: ${JSON.stringify(seen)}`
      expect(seen.sent + seen.unsendable, detail).toBeGreaterThanOrEqual(RUNS)
      expect(seen.sent, detail).toBeGreaterThanOrEqual(Math.floor(RUNS * 0.8))
      if (endpoint.example !== undefined || !needsExample(endpoint)) expect(seen.reached, detail).toBeGreaterThanOrEqual(Math.max(1, Math.floor(RUNS / 8)))
      if (RUNS >= 40) for (const p of positionsOf(endpoint)) expect(seen.positions[p], `${detail}: position ${p} never attacked`).toBeGreaterThan(0)
    }, 120_000)
  }

  it('every endpoint was fuzzed, the strict readers accept the sampled YAML and XML, and the process is still healthy', async () => {
    expect([...coverage.keys()].sort()).toEqual(endpoints.map((e) => e.name).sort())
    expect(sample.check()).toEqual([])
    await assertHealthy(world.t, prototypes, refusalsAtStart)
    expect(world.t.logs.filter((l) => l.msg === 'unhandled error' && !isKnownFindingLog(l))).toEqual([])
  }, 60_000)
})
