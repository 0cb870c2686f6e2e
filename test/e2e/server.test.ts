import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Server } from 'srvx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { listen as listenWithLimits } from '../../runtime/server.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import { HERMETIC_ENV } from '../support/hermetic-env.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

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
    const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], { cwd: ROOT, env: { ...process.env, ...HERMETIC_ENV, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] })
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
    // Hermetic: the VRP set the routing plugin fetches at start came from the local
    // fixture, not from the public default URL.
    const vrps = JSON.parse(await logLine(/"msg":"VRP set loaded"/)) as { source: string }
    expect(vrps.source).toBe(HERMETIC_ENV.INFRALENS_VRP_URL)
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it('SIGTERM under load: in-flight requests finish, new connections are refused, exit 0', async () => {
    const dns = await startLoopbackDns()
    dns.resolver.setFault({ kind: 'delay', ms: 800 } as never)
    const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...HERMETIC_ENV, ...dns.env, INFRALENS_DNS_TIMEOUT_MS: '3000', PORT: '0', HOST: '127.0.0.1' },
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
      env: { ...process.env, ...HERMETIC_ENV, PORT: '0', HOST: '127.0.0.1', INFRALENS_KEYS_FILE: missing },
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
    const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], { cwd: ROOT, env: { ...process.env, ...HERMETIC_ENV, PORT: 'nope' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let err = ''
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(err).toContain('PORT')
  })
})
