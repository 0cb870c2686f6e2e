import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const HERE = fileURLToPath(new URL('.', import.meta.url))

export interface RunningServer {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

/** Starts a bench server in its own process (same process model for every contender). */
export async function startServer(script: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const child = fork(join(HERE, 'servers', script), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: 'inherit' })
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

export interface LoadResult {
  requestsPerSecond: number
  latencyP50: number
  latencyP99: number
  non2xx: number
  errors: number
}

export async function load(url: string, options: { connections: number; durationSeconds: number }): Promise<LoadResult> {
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
