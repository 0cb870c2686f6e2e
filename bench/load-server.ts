import { execFile, execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const HERE = fileURLToPath(new URL('.', import.meta.url))

export interface RunningServer {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/**
 * On a 2-core box the load generator and the server fight for CPU; pinning the
 * server to core 0 and this process (the load generator) to core 1 makes runs
 * comparable. Without taskset both float.
 */
export const PINNED = hasTaskset()
if (PINNED) execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' })

/**
 * Starts a bench server in its own process (same process model for every
 * contender), on core 0 when pinned; `cpus` widens that (e.g. '0,1' for a cluster).
 */
export async function startServer(script: string, env: Record<string, string> = {}, cpus = '0'): Promise<RunningServer> {
  const node = [process.execPath, '--import', 'tsx', join(HERE, 'servers', script)]
  const [command, ...args] = PINNED ? ['taskset', '-c', cpus, ...node] : node
  const child = spawn(command!, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url))
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)))
  })
  return {
    url: url.replace(/\/$/, ''),
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** A free TCP port on 127.0.0.1 (for a server that cannot report the one it got). */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/**
 * The service itself as `npm start` runs it (`node --import tsx runtime/main.ts`:
 * server.ts, the request guard, frozen intrinsics, and with INFRALENS_WORKERS > 1
 * the cluster), its log on /dev/null like every contender's. Ready once
 * /api/ready answers 200 (every worker, when clustered).
 */
export async function startService(env: Record<string, string>, cpus = '0'): Promise<RunningServer> {
  const port = await freePort()
  const node = [process.execPath, '--import', 'tsx', join(HERE, '..', 'runtime', 'main.ts')]
  const [command, ...args] = PINNED ? ['taskset', '-c', cpus, ...node] : node
  const child = spawn(command!, args, { cwd: join(HERE, '..'), env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'inherit'] })
  const url = `http://127.0.0.1:${port}`
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`runtime/main.ts exited with ${code}`))))
  const deadline = performance.now() + 60_000
  for (;;) {
    const ok = await Promise.race([fetch(`${url}/api/ready`).then((r) => r.status === 200, () => false), exited])
    if (ok) break
    if (performance.now() > deadline) throw new Error('runtime/main.ts was not ready within 60 s')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  exited.catch(() => {})
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/**
 * CPU time a process has used so far, every thread (utime + stime of /proc/<pid>/stat,
 * in clock ticks of 1/100 s: ±0.01 s, well under 1 % of a 5 s round).
 */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

export interface LoadResult {
  requestsPerSecond: number
  latencyP50: number
  latencyP99: number
  non2xx: number
  errors: number
}

export type Generator = 'autocannon' | 'wrk'

export async function load(url: string, options: { connections: number; durationSeconds: number; generator?: Generator; threads?: number }): Promise<LoadResult> {
  if (options.generator === 'wrk') return wrk(url, options)
  const result = await autocannon({ url, connections: options.connections, duration: options.durationSeconds, pipelining: 1 })
  return {
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

const WRK_SCRIPT = join(HERE, 'wrk-report.lua')

/**
 * wrk (C, one thread here): far less CPU per request than autocannon, so on this
 * 2-core box the server, not the load generator, is what is measured. The team's
 * reference numbers (notes/performance.md) were taken with wrk.
 */
function wrk(url: string, options: { connections: number; durationSeconds: number; threads?: number }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile('wrk', [`-t${options.threads ?? 1}`, `-c${options.connections}`, `-d${options.durationSeconds}s`, '-s', WRK_SCRIPT, url], (error, stdout) => {
      if (error) return reject(error)
      const report = /^REPORT (\{.*\})$/m.exec(stdout)
      if (!report) return reject(new Error(`wrk printed no report:\n${stdout}`))
      const r = JSON.parse(report[1]!) as { rps: number; p50_us: number; p99_us: number; non2xx: number; errors: number }
      resolve({ requestsPerSecond: r.rps, latencyP50: r.p50_us / 1000, latencyP99: r.p99_us / 1000, non2xx: r.non2xx, errors: r.errors })
    })
  })
}
