import { setPriority } from 'node:os'
import { threadId, workerData } from 'node:worker_threads'
import type { H3Event } from 'h3'
import { pino } from 'pino'
import { Piscina } from 'piscina'
import type { Layer } from '../call.ts'
import { loadConfig } from '../config.ts'
import type { Format } from '../define-format.ts'
import type { Resolver } from '../define-plugin.ts'
import type { PipelineDeps } from '../pipeline.ts'
import { createEndpointHandler } from '../pipeline.ts'
import { freezeIntrinsics } from '../harden.ts'
import { loadRegistry } from '../registry.ts'
import type { Formats } from '../respond.ts'
import { isWorkModule } from './define-work.ts'
import { toWire } from './error-wire.ts'
import type { CpuWorkerData, OffloadResult, OffloadTask } from './task.ts'

// One worker of the CPU pool. It runs the same pipeline code as the main thread
// (runtime/pipeline.ts) for the offloaded endpoints, minus the layers, which ran on
// the main thread before dispatch: body decoding, params validation, the resolver,
// shaping, envelope and format all happen here, so the answer is byte for byte
// what an in-process call gives and the event loop only moves bytes.

/** Niceness of a pool thread: 10 gives an event loop ~9x its share of a core (CFS weights 1024 vs 110). */
const CPU_THREAD_NICE = 10

const data = workerData as CpuWorkerData
const config = loadConfig(data.env)
const endpoints = await loadRegistry(data.registryDirs)
const resolvers = new Map<string, Resolver>()
const formatList: Format[] = []
for (const url of data.workModules) {
  const module = ((await import(url)) as { default?: unknown }).default
  if (!isWorkModule(module)) throw new Error(`${url}: default export is not a work module (defineWork)`)
  for (const r of module.resolvers ?? []) resolvers.set(r.endpoint.name, r.resolve)
  formatList.push(...(module.formats ?? []))
}
const json = formatList.find((f) => f.name === 'json')
if (!json) throw new Error('no work module provides the "json" format')
const formatMap = new Map(formatList.map((f) => [f.name, f]))
const formats: Formats = { get: (name) => formatMap.get(name), json }

/** The request being answered: tasks run one at a time per worker. */
let current: OffloadTask | undefined
let failure: unknown
const task = (): OffloadTask => {
  if (!current) throw new Error('no task is running')
  return current
}

// Dates come from the main thread's clock at dispatch (a test's fixed clock too).
const clock = { now: (): number => task().now }
const isoNow = (): string => new Date(task().now).toISOString()

// The layers already ran on the main thread; this one only hands their verdict
// (the caller) to the pipeline, and catches the typed error the pipeline would
// otherwise render here, so the main thread renders it (and its layers see it).
const fromMainThread: Layer = {
  name: 'cpu-pool',
  stage: 'auth',
  forEndpoint: () => (call, next) => {
    call.caller = task().caller
    return next()
  },
  onError: (_call, error) => {
    failure = error
    return Promise.resolve(error)
  },
}

const deps: PipelineDeps = Object.assign({
  config,
  // Errors are logged where they are answered (main thread); nothing to say here.
  log: pino({ level: 'silent' }),
  layers: [fromMainThread],
  upstreams: {},
  formats,
  formatNames: new Set(formatMap.keys()),
  nextId: () => task().requestId,
  observe: undefined,
  invoke: () => Promise.reject(new Error('ctx.invoke is not available to offloaded resolvers (they are pure functions of their input)')),
}, { clock, isoNow })

const handlers = new Map<string, (event: H3Event) => Response | Promise<Response>>()
for (const endpoint of endpoints) {
  const resolve = resolvers.get(endpoint.name)
  if (endpoint.offload && resolve) handlers.set(endpoint.name, createEndpointHandler(endpoint, resolve, deps))
}

// Below the event loops: a pool thread yields its core to any event loop that has
// work, so /api/health answers while summarizes run even when the pool and the
// cluster's workers outnumber the cores (2 workers + 2 pool threads on 2 cores:
// health p99 41-56 ms at nice 0, bench/RESULTS.md). On Linux the nice value is
// per thread and pid 0 is the calling thread, so this lowers this thread alone.
try {
  setPriority(CPU_THREAD_NICE)
} catch {
  // A platform without per-thread priorities: the pool runs at the process's.
}

// Set up: from here on this thread's built-in prototypes cannot change, as the
// main thread's once it listens, when the operator asks for it (runtime/harden.ts).
if (config.freezeIntrinsics) freezeIntrinsics()

export default async function run(next: OffloadTask): Promise<OffloadResult | ReturnType<typeof Piscina.move>> {
  const handler = handlers.get(next.endpoint)
  if (!handler) return { ok: false, error: toWire(new Error(`CPU worker ${threadId} has no offloaded resolver for ${next.endpoint}`)) }
  current = next
  failure = undefined
  try {
    const url = new URL(next.url)
    const req = new Request(url, { method: next.method, headers: next.headers, body: next.body })
    // The pipeline reads these four fields of h3's event and nothing else.
    const event = { req, url, context: { params: next.params }, runtime: undefined } as unknown as H3Event
    const response = await handler(event)
    if (failure !== undefined) return { ok: false, error: toWire(failure) }
    const body = response.body === null ? null : new Uint8Array(await response.arrayBuffer())
    const result: OffloadResult = { ok: true, status: response.status, headers: Object.fromEntries(response.headers), body }
    // The answer's bytes are moved to the main thread, not copied.
    return body ? Piscina.move({ [Piscina.transferableSymbol]: [body.buffer], [Piscina.valueSymbol]: result } as never) : result
  } catch (error) {
    return { ok: false, error: toWire(error) }
  } finally {
    current = undefined
  }
}
