import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { Agent, request as httpRequest } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { listen as listenWithLimits } from '../../runtime/server.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { HERMETIC_ENV } from '../support/hermetic-env.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'
import { redisAvailable, startTestRedis } from '../support/redis-server.ts'

async function listen(t: TestApp): Promise<{ server: Server; base: string }> {
  const server = await listenWithLimits(t, { port: 0, host: '127.0.0.1' })
  return { server, base: server.url!.replace(/\/$/, '') }
}

describe('over a real socket', () => {
  let t: TestApp
  let server: Server
  let base: string
  beforeAll(async () => {
    t = await startTestApp({ INFRALENS_RATE_LIMITS: 'anonymous=3' })
    ;({ server, base } = await listen(t))
  })
  afterAll(async () => {
    await server.close(true)
    await t.close()
  })

  it('myip is the socket address; X-Forwarded-For is ignored without trusted proxies', async () => {
    const res = await fetch(`${base}/api/myip`, { headers: { 'x-forwarded-for': '203.0.113.9' } })
    const body = (await res.json()) as { data: { ip: string; version: number } }
    expect(body.data).toEqual({ ip: '127.0.0.1', version: 4 })
  })

  it('anonymous limits are per client IP, and forged X-Forwarded-For does not reset them', async () => {
    let last = 0
    for (let i = 0; i < 4; i++) last = (await fetch(`${base}/api/uuid`, { headers: { 'x-forwarded-for': `198.51.100.${i}` } })).status
    expect(last).toBe(429)
  })

  it('a status line with a reason phrase, keep-alive, and the envelope', async () => {
    const res = await fetch(`${base}/api/health`)
    expect(res.statusText).toBe('OK')
    const body = (await res.json()) as { success: boolean; data: { status: string } }
    expect(body.success).toBe(true)
    expect(body.data.status).toBe('ok')
  })

  it('oversized headers are refused by the server (431), the process keeps serving', async () => {
    const res = await fetch(`${base}/api/health`, { headers: { 'x-junk': 'a'.repeat(20_000) } })
    expect(res.status).toBe(431)
    expect((await fetch(`${base}/api/health`)).status).toBe(200)
  })

  it('serves an error envelope for junk paths', async () => {
    const res = await fetch(`${base}/api/%2e%2e/%2e%2e/etc/passwd`)
    expect(res.status).toBe(404)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found')
  })
})

describe('behind a trusted proxy', () => {
  it('takes the client from X-Forwarded-For, walking past trusted hops only', async () => {
    const t = await startTestApp({ INFRALENS_TRUST_PROXY: '127.0.0.1/32,10.0.0.0/8', INFRALENS_RATE_LIMITS: 'anonymous=2' })
    const { server, base } = await listen(t)
    try {
      const ip = async (xff: string) => ((await (await fetch(`${base}/api/myip`, { headers: { 'x-forwarded-for': xff } })).json()) as { data: { ip: string } }).data.ip
      expect(await ip('203.0.113.7')).toBe('203.0.113.7')
      expect(await ip('1.2.3.4, 203.0.113.8, 10.1.2.3')).toBe('203.0.113.8')
      expect(await ip('garbage, 203.0.113.10')).toBe('203.0.113.10')
      // Separate clients behind the proxy get separate limits.
      const status = async (xff: string) => (await fetch(`${base}/api/uuid`, { headers: { 'x-forwarded-for': xff } })).status
      expect([await status('192.0.2.1'), await status('192.0.2.1'), await status('192.0.2.1')]).toEqual([200, 200, 429])
      expect(await status('192.0.2.2')).toBe(200)
    } finally {
      await server.close(true)
      await t.close()
    }
  })
})

describe('npm start', () => {
  it('serves on the configured port (upstreams on loopback only) and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], { cwd: ROOT, env: { ...process.env, ...HERMETIC_ENV, ...ONE_PROCESS, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const logLine = (pattern: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const line = out.split('\n').find((l) => pattern.test(l))
          if (line) {
            clearInterval(timer)
            resolve(line)
          }
        }, 20)
        setTimeout(() => {
          clearInterval(timer)
          reject(new Error(`no log line ${pattern}: ${out}`))
        }, 20_000).unref()
        child.on('exit', (code) => {
          clearInterval(timer)
          reject(new Error(`exited ${code}: ${out}`))
        })
      })
    const url = (JSON.parse(await logLine(/"url":"/)) as { url: string }).url
    const res = await fetch(new URL('/api/health', url))
    expect(res.status).toBe(200)
    // Warmed before listening (runtime/warm-up.ts): the IP data, which loads on
    // first use, was loaded before the process took its first request.
    const lines = out.split('\n')
    const loaded = lines.findIndex((l) => l.includes('"msg":"IP data loaded"'))
    const warm = lines.findIndex((l) => l.includes('"msg":"readiness checks pass before listening"'))
    const listening = lines.findIndex((l) => l.includes('"msg":"infralens listening"'))
    expect(loaded).toBeGreaterThanOrEqual(0)
    expect(loaded).toBeLessThan(warm)
    expect(warm).toBeLessThan(listening)
    // Hermetic: the VRP set the routing plugin fetches at start came from the local
    // fixture, not from the public default URL.
    const vrps = JSON.parse(await logLine(/"msg":"VRP set loaded"/)) as { source: string }
    expect(vrps.source).toBe(HERMETIC_ENV.INFRALENS_VRP_URL)
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it('SIGTERM while warming up (before it listens): exits 0 at once, says so, never listens', async () => {
    // A VRP source on loopback (private targets allowed) that accepts and never
    // answers: the rpki readiness check stays pending, so the warm-up would wait
    // its full 5 s before listening.
    const silent = createNetServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...HERMETIC_ENV, ...ONE_PROCESS, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true', INFRALENS_VRP_URL: `http://127.0.0.1:${port}/vrps.json`, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    try {
      // The IP data loads during the warm-up: once it has, the process is warming up.
      while (!out.includes('"msg":"IP data loaded"')) {
        if (child.exitCode !== null) throw new Error(`exited early: ${out}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      expect(out).toContain('"msg":"stopped before listening"')
      expect(out).toContain('"signal":"SIGTERM"')
      expect(out).not.toContain('"msg":"infralens listening"')
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      silent.close()
    }
  })

  it('SIGTERM under load: in-flight requests finish, new connections are refused, exit 0', async () => {
    const dns = await startLoopbackDns()
    dns.resolver.setFault({ kind: 'delay', ms: 800 } as never)
    const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...HERMETIC_ENV, ...ONE_PROCESS, ...dns.env, INFRALENS_DNS_TIMEOUT_MS: '3000', PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const match = /"url":"([^"]+)"/.exec(out)
          if (match) {
            clearInterval(timer)
            resolve(match[1]!)
          }
        }, 20)
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
      })
      const inflight = Array.from({ length: 5 }, (_, i) => fetch(new URL(`/api/dns/a/host${i}.infralens.test`, url)).then(async (r) => ({ status: r.status, body: (await r.json()) as { success: boolean } })))
      await new Promise((r) => setTimeout(r, 200))
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
      child.kill('SIGTERM')
      await new Promise((r) => setTimeout(r, 100))
      await expect(fetch(new URL('/api/health', url))).rejects.toThrow()
      const done = await Promise.all(inflight)
      for (const d of done) {
        expect(d.status).toBe(200)
        expect(d.body.success).toBe(true)
      }
      expect(await exited).toBe(0)
      expect(out).toContain('shutting down')
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      await dns.close()
    }
  })

  it('refuses to start when INFRALENS_KEYS_FILE names a file that does not exist, saying how to create it', async () => {
    const missing = join(tmpdir(), `infralens-no-such-keys-${process.pid}.json`)
    const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...HERMETIC_ENV, ...ONE_PROCESS, PORT: '0', HOST: '127.0.0.1', INFRALENS_KEYS_FILE: missing },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(err.trim()).toBe(
      `INFRALENS_KEYS_FILE=${missing}: the file does not exist. Create it with \`npm run key:create -- --tier free --label me\` (it writes that file), or unset INFRALENS_KEYS_FILE to run with anonymous access only.`,
    )
  })

  it('refuses to start on a bad config value, naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], { cwd: ROOT, env: { ...process.env, ...HERMETIC_ENV, ...ONE_PROCESS, PORT: 'nope' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let err = ''
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(err).toContain('PORT')
  })
})

/** `npm start` in a child process (hermetic unless `env` brings loopback upstreams), once it listens. */
// One process: what is tested here is the server (limits, drain, Redis, start-up
// errors); the default on a multi-core host is a cluster, whose start-up and
// shutdown test/scale/cluster.test.ts and test/e2e/npm-start-signals.test.ts test.
const ONE_PROCESS = { INFRALENS_WORKERS: '1' }

async function startMain(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], { cwd: ROOT, env: { ...process.env, ...HERMETIC_ENV, ...ONE_PROCESS, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  let out = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (out += c.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /"url":"([^"]+)"/.exec(out)
      if (match) {
        clearInterval(timer)
        resolve(match[1]!)
      }
    }, 20)
    void exited.then((code) => {
      clearInterval(timer)
      reject(new Error(`exited ${code}: ${out}`))
    })
  })
  return { child, url, output: () => out, exited }
}

/** One GET on `agent`; the socket error code instead of a response, and whether the request was sent at all. */
function get(agent: Agent, url: URL): Promise<{ status: number | null; connection: string | undefined; error: string | null; sent: boolean }> {
  return new Promise((resolve) => {
    let sent = false
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, agent }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? null, connection: res.headers.connection, error: null, sent }))
    })
    req.on('finish', () => (sent = true))
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: null, connection: undefined, error: e.code ?? e.message, sent }))
    req.end()
  })
}

describe('npm start: shutdown', () => {
  it('SIGTERM while clients keep sending on kept-alive connections: every request sent is answered (then Connection: close), exit 0 well within the grace period', async () => {
    const m = await startMain({ INFRALENS_RATE_LIMITS: 'anonymous=1000000', INFRALENS_SHUTDOWN_GRACE_MS: '15000' })
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    try {
      const results: Array<Awaited<ReturnType<typeof get>> & { afterSigterm: boolean }> = []
      let sigterm = false
      let stop = false
      const worker = async () => {
        while (!stop) {
          const r = await get(agent, new URL('/api/uuid', m.url))
          results.push({ ...r, afterSigterm: sigterm })
          if (r.error) return // the listener is closed: nothing more to send
        }
      }
      const workers = Array.from({ length: 8 }, worker)
      await new Promise((r) => setTimeout(r, 500))
      const started = Date.now()
      sigterm = true
      m.child.kill('SIGTERM')
      expect(await m.exited).toBe(0)
      const took = Date.now() - started
      stop = true
      await Promise.all(workers)
      // nothing that reached the server was cut off: errors only for requests never sent (refused)
      expect(results.filter((r) => r.error !== null && r.sent)).toEqual([])
      expect(results.filter((r) => r.error === null).every((r) => r.status === 200)).toBe(true)
      // the answers after SIGTERM told the client to stop reusing the connection
      expect(results.some((r) => r.afterSigterm && r.connection === 'close')).toBe(true)
      // not held open until the grace period ends (15 s): kept-alive clients were let go
      expect(took).toBeLessThan(5000)
    } finally {
      agent.destroy()
      if (m.child.exitCode === null) m.child.kill('SIGKILL')
    }
  }, 30_000)

  const external = process.env.REDIS_URL
  const canSpawn = redisAvailable()
  if (!external && !canSpawn) console.warn('\n*** test/e2e/server.test.ts: the SIGTERM-closes-Redis test is SKIPPED: REDIS_URL is unset and redis-server is not installed ***\n')

  it.runIf(external || canSpawn)('SIGTERM with REDIS_URL: exit 0, the service closed its Redis connection itself (QUIT, not dropped with the process) and the server counts it gone', async () => {
    // A private redis-server when there is one (nobody else connects, MONITOR allowed); else REDIS_URL.
    const own = canSpawn ? await startTestRedis() : undefined
    const url = own?.url ?? external!
    const admin = new Redis(url, { maxRetriesPerRequest: 1 })
    const addrs = async () => new Set([...(await admin.client('LIST') as string).matchAll(/addr=(\S+)/g)].map((match) => match[1]!))
    let m: Awaited<ReturnType<typeof startMain>> | undefined
    let monitor: Redis | undefined
    try {
      const before = await addrs()
      m = await startMain({ REDIS_URL: url, INFRALENS_REDIS_PREFIX: `e2e${process.pid}:` })
      let ready = false
      for (let i = 0; i < 200 && !ready; i++) {
        const res = await fetch(new URL('/api/ready', m.url))
        const checks = ((await res.json()) as { data?: { checks: Array<{ name: string; degraded?: string }> } }).data?.checks ?? []
        ready = res.status === 200 && checks.some((c) => c.name === 'redis' && !c.degraded)
        if (!ready) await new Promise((r) => setTimeout(r, 50))
      }
      expect(ready).toBe(true)
      const mine = [...(await addrs())].filter((a) => !before.has(a))
      expect(mine.length).toBeGreaterThanOrEqual(1)
      const quits: string[] = []
      monitor = await admin.monitor()
      monitor.on('monitor', (_time: string, args: string[], source: string) => {
        if (args[0]?.toLowerCase() === 'quit') quits.push(source)
      })
      m.child.kill('SIGTERM')
      expect(await m.exited).toBe(0)
      expect(m.output()).toContain('"msg":"stopped"')
      // gone from the server's client list (the count drops back)...
      let left = mine
      for (let i = 0; i < 100 && left.length; i++) {
        const now = await addrs()
        left = mine.filter((a) => now.has(a))
        if (left.length) await new Promise((r) => setTimeout(r, 20))
      }
      expect(left).toEqual([])
      // ...and closed by the service (QUIT), not just dropped when the process died
      for (let i = 0; i < 50 && !quits.some((q) => mine.includes(q)); i++) await new Promise((r) => setTimeout(r, 20))
      expect(quits.filter((q) => mine.includes(q))).not.toEqual([])
    } finally {
      monitor?.disconnect()
      if (m && m.child.exitCode === null) m.child.kill('SIGKILL')
      const keys = await admin.keys(`e2e${process.pid}:*`)
      if (keys.length) await admin.del(...keys)
      admin.disconnect()
      await own?.stop()
    }
  }, 30_000)
})
