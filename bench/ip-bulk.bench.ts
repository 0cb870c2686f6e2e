import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HERMETIC_ENV } from '../test/support/hermetic-env.ts'
import { bulkAddresses } from './bulk-addresses.ts'
import { rpkiClientJson, syntheticVrps } from './rpki.bench.ts'

// npx tsx bench/ip-bulk.bench.ts [--entries 100000] [--rounds 15] [--singles 2000] [--vrps 500000] [--profile DIR]
//
// POST /api/ip/bulk end to end: the service as `npm start` runs it (runtime/main.ts
// under tsx's loader) on a loopback port, with a synthetic VRP set of --vrps VRPs
// loaded from a file (rpki.bench.ts makes it, as a real export looks), answers
// --entries addresses (90% random IPv4 unicast, 10% IPv6 under 2000::/4; a few
// hundred bad lines) sent as one JSON array; the time is from the request's first
// byte sent to the answer's last byte read, --rounds times (after 3 warm-ups),
// one request at a time. Then:
// - the same list as text/plain, and as NDJSON (Accept: application/x-ndjson);
// - the same addresses as single GET /api/ip/{ip} calls: --singles of them (the
//   first ones of the list), keep-alive, one at a time and 16 at a time, the time
//   extrapolated to --entries (singles x entries/singles; 100,000 single calls take
//   minutes and the per-call time is flat, so a sample says it);
// - /api/health latency (a separate process, every 10 ms) while bulk requests run
//   back to back: what the event loop's slices cost other requests;
// - the CPU pool question: the memory and time it costs to load the ASN and
//   country data (what offloading ip/bulk would need per worker thread).
// Prints one JSON report, with the server's CPU time per request next to the wall
// times (on a shared machine the wall time says as much about the neighbours).
// The client is in this process, the server in its own.

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
const num = (name: string, fallback: number) => Number(args.get(name) ?? fallback)

const agent = new Agent({ keepAlive: true, maxSockets: 64 })
const round = (x: number, d = 1) => +x.toFixed(d)
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
const pct = (xs: number[], p: number) => {
  const s = sorted(xs)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}
const stats = (xs: number[]) => ({ min: round(Math.min(...xs)), median: round(pct(xs, 50)), p90: round(pct(xs, 90)), max: round(Math.max(...xs)) })

interface Sent {
  status: number
  bytes: number
  ms: number
  /** Time to the first byte of the answer. */
  firstByteMs: number
}

/** One request; ms from the first byte written to the last byte read. */
function send(url: string, method: string, body?: Buffer, headers: Record<string, string> = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let firstByteMs = Number.NaN
    const req = request(url, { method, agent, headers: body ? { 'content-length': String(body.length), ...headers } : headers }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started
        bytes += chunk.length
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - started, firstByteMs }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** The address list: deterministic, public-looking, with some bad lines. */

/** Health latency from its own process (the client's work must not count as the server's latency). */
async function sampler(url: string): Promise<void> {
  const latencies: number[] = []
  let stop = false
  process.on('message', () => (stop = true))
  process.send!('ready')
  while (!stop) {
    const t = performance.now()
    await send(url, 'GET')
    latencies.push(performance.now() - t)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  process.send!({ count: latencies.length, p50: round(pct(latencies, 50)), p99: round(pct(latencies, 99)), max: round(Math.max(...latencies)) }, () => process.exit(0))
}

function startSampler(url: string): Promise<{ stop(): Promise<unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--sampler', url], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('message', () =>
      resolve({
        stop: () =>
          new Promise((done) => {
            child.once('message', done)
            child.send('stop')
          }),
      }),
    )
    child.once('exit', (code) => reject(new Error(`sampler exited with ${code}`)))
  })
}

/** CPU time (user + system, ms) a process has used so far: on a shared machine, what a request costs regardless of who else runs. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

function memory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN)
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) }
}

async function startService(vrpFile: string): Promise<{ url: string; child: ChildProcess }> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...HERMETIC_ENV,
    PORT: '0',
    HOST: '127.0.0.1',
    INFRALENS_VRP_URL: vrpFile,
    // One client sends everything: no limit in the way.
    INFRALENS_RATE_LIMITS: 'anonymous=1000000000',
    // One process: the CPU time and memory read from /proc are the server's own
    // (with the cluster they would be the primary's, which only hands sockets on).
    INFRALENS_WORKERS: '1',
  }
  // --profile DIR: the service writes a V8 CPU profile there when it exits (where its time goes).
  const profile = args.get('profile')
  const flags = profile ? [`--cpu-prof`, `--cpu-prof-dir=${profile}`] : []
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', join(ROOT, 'runtime', 'main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)))
    let buffered = ''
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      for (const line of buffered.split('\n')) {
        const m = /"url":"(http:\/\/[^"]+)"/.exec(line)
        if (!m) continue
        child.stdout!.off('data', onData)
        child.stdout!.resume()
        resolve(m[1]!.replace(/\/$/, ''))
        return
      }
    }
    child.stdout!.on('data', onData)
  })
  return { url, child }
}

/**
 * The CPU pool's price for ip/bulk: what loading the ASN and country data costs an
 * isolate (time, RSS), measured here in the bench's own process, as each worker
 * thread of the pool would have to pay it. (An eval'd worker cannot load the
 * TypeScript modules through tsx's loader on Node 20.)
 */
async function workerLoad(): Promise<{ loadMs: number; rssMb: number }> {
  const { IpDataLoader } = await import('../plugins/network/ip-data.ts')
  const { packagedIpDataFiles } = await import('../plugins/network/ip-data-files.ts')
  const log = { info() {}, error() {}, warn() {}, debug() {}, child() { return log } }
  const before = memory(process.pid).rssMb
  const started = performance.now()
  await new IpDataLoader(packagedIpDataFiles(), log as never).get()
  const loadMs = performance.now() - started
  return { loadMs: round(loadMs), rssMb: memory(process.pid).rssMb - before }
}

async function main(): Promise<void> {
  // First, before this process holds anything else: an RSS difference means nothing after the rounds below.
  const poolCost = await workerLoad()
  const entries = num('entries', 100_000)
  const rounds = num('rounds', 15)
  const singles = num('singles', 2000)
  const list = bulkAddresses(entries, 20261126)
  const json = Buffer.from(JSON.stringify(list))
  const text = Buffer.from(`${list.join('\n')}\n`)
  const dir = mkdtempSync(join(tmpdir(), 'ip-bulk-bench-'))
  const vrpFile = join(dir, 'vrps.json')
  writeFileSync(vrpFile, rpkiClientJson(syntheticVrps(num('vrps', 500_000), 20261123)))
  const { url, child } = await startService(vrpFile)
  try {
    // Ready: the IP data and the VRP set loaded.
    for (let i = 0; i < 600; i++) {
      if ((await send(`${url}/api/ready`, 'GET')).status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const bulkUrl = `${url}/api/ip/bulk`
    const jsonHeaders = { 'content-type': 'application/json' }
    for (let i = 0; i < 3; i++) await send(bulkUrl, 'POST', json, jsonHeaders)
    const check = await send(bulkUrl, 'POST', json, jsonHeaders)
    if (check.status !== 200) throw new Error(`ip/bulk answered ${check.status}`)

    const timed = async (body: Buffer, headers: Record<string, string>) => {
      const cpuBefore = cpuMs(child.pid!)
      const ms: number[] = []
      const firstByte: number[] = []
      let bytes = 0
      for (let i = 0; i < rounds; i++) {
        const r = await send(bulkUrl, 'POST', body, headers)
        if (r.status !== 200) throw new Error(`ip/bulk answered ${r.status}`)
        ms.push(r.ms)
        firstByte.push(r.firstByteMs)
        bytes = r.bytes
      }
      return { ms: stats(ms), first_byte_ms: stats(firstByte), server_cpu_ms_per_request: round((cpuMs(child.pid!) - cpuBefore) / rounds), answer_bytes: bytes }
    }
    const loadBefore = loadavg()[0]!
    const bulkJson = await timed(json, jsonHeaders)
    const bulkText = await timed(text, { 'content-type': 'text/plain' })
    const bulkNdjson = await timed(json, { ...jsonHeaders, accept: 'application/x-ndjson' })

    // Single calls: a sample, one at a time and 16 at a time.
    const sample = list.slice(0, singles)
    for (const ip of sample.slice(0, 200)) await send(`${url}/api/ip/${encodeURIComponent(ip)}`, 'GET')
    const singlesCpuBefore = cpuMs(child.pid!)
    let started = performance.now()
    for (const ip of sample) await send(`${url}/api/ip/${encodeURIComponent(ip)}`, 'GET')
    const sequentialMs = performance.now() - started
    const singleCpuMs = (cpuMs(child.pid!) - singlesCpuBefore) / singles
    started = performance.now()
    let next = 0
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < sample.length) await send(`${url}/api/ip/${encodeURIComponent(sample[next++]!)}`, 'GET')
      }),
    )
    const concurrentMs = performance.now() - started
    const scale = entries / singles
    const loadAfter = loadavg()[0]!

    // Other requests while bulk requests run back to back.
    const sampling = await startSampler(`${url}/api/health`)
    const stallUntil = performance.now() + 5000
    let bulks = 0
    while (performance.now() < stallUntil) {
      await send(bulkUrl, 'POST', json, jsonHeaders)
      bulks++
    }
    const health = await sampling.stop()
    const serverMemory = memory(child.pid!)

    const median = bulkJson.ms.median
    console.log(
      JSON.stringify(
        {
          node: process.version,
          load_average_1m: { before: round(loadBefore, 2), after: round(loadAfter, 2) },
          entries,
          rounds,
          request_bytes: { json: json.length, text: text.length },
          bulk_json: bulkJson,
          bulk_text_plain: bulkText,
          bulk_ndjson: bulkNdjson,
          singles: {
            sampled: singles,
            sequential: { ms: round(sequentialMs), per_call_ms: round(sequentialMs / singles, 3), extrapolated_ms: round(sequentialMs * scale), server_cpu_ms_per_call: round(singleCpuMs, 3) },
            concurrency_16: { ms: round(concurrentMs), per_call_ms: round(concurrentMs / singles, 3), extrapolated_ms: round(concurrentMs * scale) },
          },
          ratio_singles_to_bulk_median: { sequential: round((sequentialMs * scale) / median), concurrency_16: round((concurrentMs * scale) / median) },
          ratio_singles_to_bulk_server_cpu: round((singleCpuMs * entries) / bulkJson.server_cpu_ms_per_request),
          health_during_bulk: { ...(health as object), bulk_requests: bulks },
          server_memory: serverMemory,
          cpu_pool_cost_per_worker: poolCost,
          goal: { 'bulk json median < 200 ms': median < 200 },
        },
        null,
        2,
      ),
    )
  } finally {
    child.kill('SIGTERM')
    agent.destroy()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (args.has('sampler')) await sampler(args.get('sampler')!)
else await main()
