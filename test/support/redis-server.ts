import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'

// A private redis-server per test file (own port, nothing persisted), so a test
// can stop and restart it without touching the machine's shared Redis.

export function redisAvailable(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0
}

export interface TestRedis {
  url: string
  port: number
  stop(): Promise<void>
  start(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] })
    await new Promise<void>((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000)
      child!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer)
          resolve()
        }
      })
      child!.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${out}`)))
    })
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((r) => child!.once('exit', r))
      child.kill('SIGKILL')
      await exited
    },
  }
}
