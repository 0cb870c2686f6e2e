import '../test/support/loopback-only.ts'
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startLoopbackDns } from '../test/support/loopback-dns.ts'
import { HERMETIC_ENV } from '../test/support/hermetic-env.ts'
import { PINNED } from './load-server.ts'

// npx tsx bench/sigterm.ts [--rounds 5] [--connections 64] [--load-ms 2000] [--delay-ms 300] [--via node|npm] [--signal SIGTERM|SIGINT]
//
// --via npm starts the service as an operator does, `npm start`, and sends the
// signal to the npm process (as a container runtime does to its PID 1); --via node
// (the default) starts runtime/main.ts directly.
//
// SIGTERM under load, on the real server: `npm start` (runtime/main.ts, its own
// shutdown handler) in a child process, hermetic (loopback resolvers, the local
// VRP file). Each round starts it, loads it with keep-alive connections — half
// the requests fast (/api/uuid), half DNS lookups the loopback resolver answers
// only after --delay-ms, so many are in flight at any moment — sends SIGTERM
// mid-load, and keeps loading until the process is gone. Every request is
// timed: one written before SIGTERM and not answered by then was in flight; a
// request is dropped if it was written (the server had it) and ended in a socket
// error instead of a response — in flight at SIGTERM, or sent after it on a
// connection still open. Refused connections after the listener closed are not
// drops: nothing was sent. Goal: 0 dropped.

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? Number(process.argv[at + 1]) : fallback
}
const ROUNDS = arg('rounds', 5)
const CONNECTIONS = arg('connections', 64)
const LOAD_MS = arg('load-ms', 2000)
const DELAY_MS = arg('delay-ms', 300)
const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..')
const textArg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? process.argv[at + 1]! : fallback
}
const VIA = textArg('via', 'node')
if (VIA !== 'node' && VIA !== 'npm') throw new Error(`--via: node or npm, not ${VIA}`)
const SIGNAL = textArg('signal', 'SIGTERM') as NodeJS.Signals
if (SIGNAL !== 'SIGTERM' && SIGNAL !== 'SIGINT') throw new Error(`--signal: SIGTERM or SIGINT, not ${SIGNAL}`)

interface Timed {
  writtenAt: number | null
  endedAt: number
  status: number | null
  error: string | null
}

function once(agent: Agent, base: URL, path: string): Promise<Timed> {
  return new Promise((resolve) => {
    const timed: Timed = { writtenAt: null, endedAt: 0, status: null, error: null }
    const req = request({ host: base.hostname, port: base.port, path, agent }, (res) => {
      res.resume()
      res.on('end', () => resolve({ ...timed, endedAt: performance.now(), status: res.statusCode ?? 0 }))
      res.on('error', (e) => resolve({ ...timed, endedAt: performance.now(), error: (e as NodeJS.ErrnoException).code ?? e.message }))
    })
    req.on('finish', () => (timed.writtenAt = performance.now()))
    req.on('error', (e) => resolve({ ...timed, endedAt: performance.now(), error: (e as NodeJS.ErrnoException).code ?? e.message }))
    req.end()
  })
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: URL; exited: Promise<number | null> }> {
  const start = VIA === 'npm' ? ['npm', 'start', '--silent'] : [process.execPath, '--import', 'tsx', 'runtime/main.ts']
  const [command, ...args] = PINNED ? ['taskset', '-c', '0', ...start] : start
  const child = spawn(command!, args, { cwd: ROOT, env: { ...process.env, ...HERMETIC_ENV, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let out = ''
  const url = await new Promise<URL>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const match = /"url":"([^"]+)"/.exec(out)
      if (match) {
        child.stdout!.off('data', onData)
        child.stdout!.resume() // keep draining the access log
        resolve(new URL(match[1]!))
      }
    }
    child.stdout!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`runtime/main.ts exited ${code}: ${out}`)))
  })
  return { child, url, exited }
}

const dns = await startLoopbackDns()
dns.resolver.setFault({ kind: 'delay', ms: DELAY_MS })
const totals = {
  requests: 0,
  in_flight_at_sigterm: 0,
  in_flight_answered: 0,
  in_flight_dropped: 0,
  in_flight_non_2xx: 0,
  after_sigterm_answered: 0,
  after_sigterm_dropped: 0,
  after_sigterm_refused: 0,
  exit_codes: [] as Array<number | null>,
  exit_ms: [] as number[],
}
const drops: string[] = []

for (let round = 0; round < ROUNDS; round++) {
  const server = await startServer({ ...dns.env, PORT: '0', HOST: '127.0.0.1', INFRALENS_RATE_LIMITS: 'anonymous=1000000000', INFRALENS_DNS_TIMEOUT_MS: String(DELAY_MS * 10) })
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  let stopped = false
  let n = 0
  const results: Timed[] = []
  const worker = async () => {
    while (!stopped) {
      const i = n++
      const path = i % 2 ? '/api/uuid' : `/api/dns/a/r${round}-${i}.infralens.test`
      const r = await once(agent, server.url, path)
      results.push(r)
      // The listener is gone: nothing more to learn from this worker but the refusal.
      if (r.error === 'ECONNREFUSED') await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  const workers = Array.from({ length: CONNECTIONS }, worker)
  await new Promise((resolve) => setTimeout(resolve, LOAD_MS))
  const sigtermAt = performance.now()
  server.child.kill(SIGNAL)
  const code = await server.exited
  const exitMs = performance.now() - sigtermAt
  stopped = true
  await Promise.all(workers)
  agent.destroy()

  for (const r of results) {
    totals.requests++
    const inFlight = r.writtenAt !== null && r.writtenAt < sigtermAt && r.endedAt > sigtermAt
    if (inFlight) {
      totals.in_flight_at_sigterm++
      if (r.error) {
        totals.in_flight_dropped++
        drops.push(`round ${round}: ${r.error} after ${Math.round(r.endedAt - sigtermAt)} ms`)
      } else {
        totals.in_flight_answered++
        if (r.status! < 200 || r.status! >= 300) totals.in_flight_non_2xx++
      }
    } else if ((r.writtenAt ?? r.endedAt) >= sigtermAt) {
      if (!r.error) totals.after_sigterm_answered++
      else if (r.writtenAt === null) totals.after_sigterm_refused++
      else {
        totals.after_sigterm_dropped++
        drops.push(`round ${round}: sent ${Math.round(r.writtenAt - sigtermAt)} ms after SIGTERM, ${r.error} after ${Math.round(r.endedAt - sigtermAt)} ms`)
      }
    }
  }
  totals.exit_codes.push(code)
  totals.exit_ms.push(Math.round(exitMs))
}
await dns.close()

console.log(
  JSON.stringify(
    {
      via: VIA === 'npm' ? 'npm start (signal to the npm process)' : 'node runtime/main.ts',
      signal: SIGNAL,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      load_ms_before_sigterm: LOAD_MS,
      slow_request_ms: DELAY_MS,
      pinned: PINNED,
      ...totals,
      drops: drops.slice(0, 20),
      note: 'in flight = written before SIGTERM, not answered by then; dropped = written, then ended in a socket error instead of a response (goal 0). after_sigterm_* are requests sent after the signal: answered or dropped on connections still open, or refused (never sent) once the listener closed.',
    },
    null,
    2,
  ),
)
