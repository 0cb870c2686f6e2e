import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { HERMETIC_ENV } from '../support/hermetic-env.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'
import { alive, descendants } from '../support/process-tree.ts'

// Signals sent to `npm start` reach the service (issue 19, item 2). Before, the
// script was `tsx runtime/main.ts`: npm forwarded SIGTERM to its shell, the shell
// died, and tsx and node went on serving as orphans, with no drain. Now the script
// execs node, so npm's own child is the service: SIGTERM or SIGINT to the npm
// process drains in-flight requests, and the whole tree is gone within about a
// second. This runs the real process tree (npm, its script, node), as an operator
// or a container runtime (npm as PID 1) would.

let dns: LoopbackDns
beforeAll(async () => {
  dns = await startLoopbackDns()
  // Slow DNS answers keep requests in flight when the signal arrives.
  dns.resolver.setFault({ kind: 'delay', ms: 700 } as never)
})
afterAll(() => dns?.close())

async function npmStart(workers: number): Promise<{ npm: ChildProcess; url: string; output: () => string; exited: Promise<{ code: number | null; at: number }> }> {
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, ...HERMETIC_ENV, ...dns.env, INFRALENS_DNS_TIMEOUT_MS: '3000', INFRALENS_WORKERS: String(workers), PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  npm.stdout!.on('data', (c: Buffer) => (out += c.toString()))
  npm.stderr!.on('data', (c: Buffer) => (out += c.toString()))
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => npm.once('exit', (code) => resolve({ code, at: performance.now() })))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /"url":"([^"]+)"/.exec(out)
      if (match) {
        clearInterval(timer)
        resolve(match[1]!)
      }
    }, 20)
    void exited.then(({ code }) => {
      clearInterval(timer)
      reject(new Error(`npm start exited ${code}: ${out}`))
    })
  })
  return { npm, url, output: () => out, exited }
}

describe('signals through npm start', () => {
  // 2 workers: the cluster every multi-core host runs by default (issue 21); 1: a single process.
  for (const [signal, workers] of [['SIGTERM', 2], ['SIGINT', 2], ['SIGTERM', 1]] as const) {
    it(`${signal} to the npm process (${workers === 1 ? 'one process' : `${workers} cluster workers`}): in-flight requests answered, the whole tree gone, exit 0 within about a second`, async () => {
      const m = await npmStart(workers)
      const tag = `${signal.toLowerCase()}-w${workers}`
      const tree = descendants(m.npm.pid!)
      // npm, node (the primary) and each worker; one process serves alone.
      expect(tree.filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runtime/main.ts')).length, m.output()).toBe(workers === 1 ? 1 : workers + 1)
      try {
        // npm runs the service itself: no shell in between that could die alone.
        const commands = tree.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim())
        expect(commands.some((c) => c.includes('runtime/main.ts'))).toBe(true)
        expect(commands.filter((c) => /^(?:\/bin\/)?sh /.test(c))).toEqual([])

        const inflight = Array.from({ length: 6 }, (_, i) =>
          fetch(new URL(`/api/dns/a/in-flight-${tag}-${i}.infralens.test`, m.url)).then(async (r) => ({ status: r.status, body: (await r.json()) as { success: boolean } })),
        )
        // In flight: the service has asked DNS for each (a fixed wait is not enough on a busy box,
        // and a connection still in the kernel's backlog when the socket closes is reset, not drained).
        for (let i = 0; i < 500 && new Set(dns.resolver.log.filter((q) => q.name.startsWith(`in-flight-${tag}-`)).map((q) => q.name)).size < 6; i++) {
          await new Promise((r) => setTimeout(r, 20))
        }
        const sent = performance.now()
        m.npm.kill(signal)
        const answers = await Promise.all(inflight)
        for (const a of answers) expect(a).toEqual({ status: 200, body: expect.objectContaining({ success: true }) })
        const { code, at } = await m.exited
        expect(code, m.output()).toBe(0)
        // The slowest in-flight answer takes ~500 ms more; the grace period is 10 s.
        expect(at - sent, m.output().split('\n').filter((l) => /shutting|stopped|grace/.test(l)).join('\n')).toBeLessThan(3000)
        expect(m.output()).toContain('shutting down')
        // Every process says it stopped: each worker, and the primary.
        expect(m.output().split('\n').filter((l) => l.includes('"msg":"stopped"')).length, m.output()).toBe(workers === 1 ? 1 : workers + 1)
        // Nothing of the tree keeps serving as an orphan.
        await new Promise((r) => setTimeout(r, 100))
        expect(tree.filter(alive)).toEqual([])
        await expect(fetch(new URL('/api/health', m.url))).rejects.toThrow()
      } finally {
        for (const pid of [m.npm.pid!, ...tree]) if (alive(pid)) process.kill(pid, 'SIGKILL')
      }
    }, 90_000)
  }
})
