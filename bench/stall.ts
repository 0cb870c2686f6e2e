import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HERMETIC_ENV } from '../test/support/hermetic-env.ts'
import { randomPrefixes } from './random-prefixes.ts'

// npx tsx bench/stall.ts [--workers N] [--clients 50] [--entries 100000] [--duration 10] [--format json]
// (npm run bench:stall)
//
// Does CPU-heavy work stall other requests? Starts the service as `npm start` runs
// it (runtime/main.ts under tsx's loader) on a loopback port, then for --duration
// seconds keeps --clients summarize requests of --entries random IPv4 prefixes in
// flight (each client sends its next one when its answer is in) while a separate
// process asks GET /api/health one request at a time, every 10 ms, and records how
// long each took. --workers sets INFRALENS_CPU_WORKERS (0: no pool, the service's
// behaviour before the CPU pool; unset: the service's default).
//
// The sampler is its own process so that the load generator's work (50 bodies of
// ~1.8 MB out, ~1.5 MB answers in) does not count as the server's latency. Nothing
// is pinned: the pool needs both cores, and the load generator shares them.
// Prints one JSON report.

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = join(HERE, '..')

const args = new Map<string, string>()
for (let i = 2; i < process.argv.length; i++) {
  const key = process.argv[i]!
  if (!key.startsWith('--')) continue
  const next = process.argv[i + 1]
  if (next !== undefined && !next.startsWith('--')) {
    args.set(key.slice(2), next)
    i++
  } else args.set(key.slice(2), 'true')
}

const agent = new Agent({ keepAlive: true, maxSockets: 1000 })

function send(url: string, method: string, body?: Buffer): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {} }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => (bytes += chunk.length))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

const round = (x: number, d = 1) => +x.toFixed(d)

interface Samples {
  count: number
  p50: number
  p99: number
  max: number
  non200: number
}

/** Sampler mode (child): health latency, one request at a time, until told to stop. */
async function sampler(url: string): Promise<void> {
  const latencies: number[] = []
  let non200 = 0
  let stop = false
  process.on('message', () => (stop = true))
  process.send!('ready')
  while (!stop) {
    const t = performance.now()
    const res = await send(url, 'GET')
    latencies.push(performance.now() - t)
    if (res.status !== 200) non200++
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  latencies.sort((a, b) => a - b)
  const out: Samples = { count: latencies.length, p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), max: round(latencies.at(-1) ?? Number.NaN), non200 }
  process.send!(out, () => process.exit(0))
}

function startSampler(url: string): Promise<{ stop(): Promise<Samples> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--sampler', url], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('message', () =>
      resolve({
        stop: () =>
          new Promise<Samples>((done) => {
            child.once('message', (m) => done(m as Samples))
            child.send('stop')
          }),
      }),
    )
    child.once('exit', (code) => reject(new Error(`sampler exited with ${code}`)))
  })
}

/** /proc/<pid>/status in MB: VmRSS now, VmHWM the peak. */
function memory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN)
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) }
}

async function startService(workers: string | undefined): Promise<{ url: string; child: ChildProcess }> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...HERMETIC_ENV,
    PORT: '0',
    HOST: '127.0.0.1',
    // The load is one client: the anonymous limit would refuse it within a second.
    INFRALENS_RATE_LIMITS: 'anonymous=1000000000',
  }
  if (workers !== undefined) env.INFRALENS_CPU_WORKERS = workers
  else delete env.INFRALENS_CPU_WORKERS
  // What `npm start` runs (tsx runtime/main.ts), without tsx's wrapper process: the
  // pid is the server's own, for its memory. Its log (access lines included, as in
  // production) is read up to "listening", then drained.
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'runtime', 'main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)))
    let buffered = ''
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      for (const line of buffered.split('\n')) {
        if (!line.includes('infralens listening')) continue
        child.stdout!.off('data', onData)
        child.stdout!.resume()
        resolve((JSON.parse(line) as { url: string }).url.replace(/\/$/, ''))
        return
      }
    }
    child.stdout!.on('data', onData)
  })
  return { url, child }
}

async function main(): Promise<void> {
  const workers = args.get('workers')
  const clients = Number(args.get('clients') ?? 50)
  const entries = Number(args.get('entries') ?? 100_000)
  const durationMs = Number(args.get('duration') ?? 10) * 1000
  const format = args.get('format') ?? 'json'
  const body = Buffer.from(JSON.stringify({ cidrs: randomPrefixes(entries, 20261126) }))

  const { url, child } = await startService(workers)
  const pid = child.pid!
  try {
    const summarizeUrl = `${url}/api/cidr/summarize${format === 'json' ? '' : `?format=${format}`}`
    // Warm-up: the first offloaded request starts the pool (tsx, the registry, the pipeline in each worker).
    for (let i = 0; i < 3; i++) await send(summarizeUrl, 'POST', body)
    const idle = await startSampler(`${url}/api/health`)
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const idleHealth = await idle.stop()
    const before = memory(pid)

    const sampler = await startSampler(`${url}/api/health`)
    const started = performance.now()
    const statuses = new Map<number, number>()
    let answered = 0
    let bytesOut = 0
    const client = async (): Promise<void> => {
      while (performance.now() - started < durationMs) {
        const res = await send(summarizeUrl, 'POST', body)
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
        if (res.status === 200) answered++
        bytesOut = Math.max(bytesOut, res.bytes)
      }
    }
    await Promise.all(Array.from({ length: clients }, client))
    const elapsed = performance.now() - started
    const health = await sampler.stop()
    const after = memory(pid)

    console.log(
      JSON.stringify(
        {
          node: process.version,
          workers: workers ?? 'default',
          clients,
          entries,
          format,
          bodyBytes: body.length,
          answerBytes: bytesOut,
          durationS: round(elapsed / 1000, 1),
          healthIdle: idleHealth,
          healthUnderLoad: health,
          summarize: { ok: answered, perSecond: round(answered / (elapsed / 1000), 2), statuses: Object.fromEntries(statuses) },
          serverMemory: { beforeLoad: before, afterLoad: after },
          goal: { 'health p99 <= 50 ms': health.p99 <= 50 },
        },
        null,
        2,
      ),
    )
  } finally {
    child.kill('SIGTERM')
    agent.destroy()
  }
}

if (args.has('sampler')) await sampler(args.get('sampler')!)
else await main()
