import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tlsAnalyze } from '../../plugins/tls/analyze.ts'
import { parseTlsTarget } from '../../registry/tls/schemas/host-param.ts'
import { createPool } from '../../plugins/tls/pool.ts'
import { PROBE_CONCURRENCY, SCAN_HEADROOM, scanPoolSize, tlsSettings } from '../../plugins/tls/settings.ts'
import { createTrustStore } from '../../plugins/tls/trust-store.ts'
import { loadConfig } from '../../runtime/config.ts'
import { createGuardedNetwork } from '../../runtime/net/guarded-network.ts'
import type { UpstreamGuard } from '../../runtime/net/upstream-guard.ts'
import { createUpstreamGuard } from '../../runtime/net/upstream-guard.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { HoldingProxy } from '../support/tls-holding-proxy.ts'
import { startHoldingProxy } from '../support/tls-holding-proxy.ts'
import type { TestPki, TlsTestServer } from '../support/tls-servers.ts'
import { HSTS_HEADER, createTestPki, leafFor, startTlsServer } from '../support/tls-servers.ts'

// The bounded probe pool: as a unit (never more than n tasks at once), its size
// under the guarded network's per-target bound (an analysis never queues behind
// its own scan), end to end (the connections a scan holds open on a server never
// exceed the pool), and the scan's cancellation fan-out (no
// MaxListenersExceededWarning however many probes hang off one request).

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const BOUND = loadConfig({}).upstreamConcurrency
const POOL = scanPoolSize(BOUND)

describe('createPool', () => {
  it('runs at most n tasks at once, exactly min(n, tasks) when all are queued together, results in call order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 25 }), async (size, delays) => {
        const pool = createPool(size)
        let active = 0
        let peak = 0
        const results = await Promise.all(
          delays.map((ms, i) =>
            pool(async () => {
              active++
              peak = Math.max(peak, active)
              await sleep(ms)
              active--
              return i
            }),
          ),
        )
        expect(results).toEqual(delays.map((_, i) => i))
        expect(peak).toBe(Math.min(size, delays.length))
        expect(active).toBe(0)
      }),
      { numRuns: 40 },
    )
  })

  it('a failing task frees its slot, and waiting tasks start in the order they came', async () => {
    const pool = createPool(1)
    const started: string[] = []
    const task = (name: string, fail = false) =>
      pool(async () => {
        started.push(name)
        await sleep(1)
        if (fail) throw new Error(name)
        return name
      })
    const settled = await Promise.allSettled([task('a', true), task('b'), task('c', true), task('d')])
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'fulfilled'])
    expect(started).toEqual(['a', 'b', 'c', 'd'])
    expect(await task('e')).toBe('e')
  })
})

describe('scanPoolSize', () => {
  it('leaves the headroom an analysis needs under any per-target bound above it, never exceeds 16, never drops below 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (bound) => {
        const pool = scanPoolSize(bound)
        expect(pool).toBeGreaterThanOrEqual(1)
        expect(pool).toBeLessThanOrEqual(PROBE_CONCURRENCY)
        if (bound > SCAN_HEADROOM) expect(pool + SCAN_HEADROOM).toBeLessThanOrEqual(bound)
        if (bound >= PROBE_CONCURRENCY + SCAN_HEADROOM) expect(pool).toBe(PROBE_CONCURRENCY)
      }),
    )
    // The default bound (16): a pool of 12, and a config change follows through to the scan.
    expect(POOL).toBe(12)
    expect(tlsSettings(loadConfig({ INFRALENS_UPSTREAM_CONCURRENCY: '8' }), createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => [] }), createTrustStore()).concurrency).toBe(4)
  })
})

/** The real per-target guard, watched: how many slots are held at most, and how long any caller waited for one. */
function watchedGuard(bound: number): { guard: UpstreamGuard; stats: { held: number; peak: number; longestWaitMs: number; slots: number } } {
  const inner = createUpstreamGuard({ threshold: 5, openMs: 30_000, maxConcurrent: bound })
  const stats = { held: 0, peak: 0, longestWaitMs: 0, slots: 0 }
  const guard: UpstreamGuard = {
    ...inner,
    async slot(key, signal) {
      const asked = performance.now()
      const release = await inner.slot(key, signal)
      stats.longestWaitMs = Math.max(stats.longestWaitMs, performance.now() - asked)
      stats.slots++
      stats.held++
      stats.peak = Math.max(stats.peak, stats.held)
      let held = true
      return () => {
        if (!held) return
        held = false
        stats.held--
        release()
      }
    },
  }
  return { guard, stats }
}

describe('an analysis under the default per-target bound', () => {
  const HOLD_MS = 200
  let pki: TestPki
  let server: TlsTestServer
  let proxy: HoldingProxy
  beforeAll(async () => {
    pki = createTestPki()
    server = await startTlsServer({
      address: '127.0.0.1',
      leaf: leafFor(pki, 'slow.tls.test', { dns: [], ips: ['127.0.0.1'] }),
      chain: [pki.intermediate],
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.3',
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-SHA:AES128-SHA:AES256-SHA',
    })
    // The HSTS answer comes late, so its connection stays open while the scan runs at full pool.
    server.server.removeAllListeners('request')
    server.server.on('request', (_req, res) => setTimeout(() => res.writeHead(200, { 'strict-transport-security': HSTS_HEADER }).end('slow\n'), 4 * HOLD_MS))
    // Every connection's ClientHello (probe, handshake, HSTS request) waits HOLD_MS.
    proxy = await startHoldingProxy(server, HOLD_MS)
  })
  afterAll(async () => {
    await proxy?.close()
    await server?.close()
    pki?.close()
  })

  it(`a server that holds every hello ${HOLD_MS} ms: the scan fills its pool beside the other connections, and none waits for a slot`, async () => {
    const config = loadConfig({})
    const { guard, stats } = watchedGuard(config.upstreamConcurrency)
    const network = createGuardedNetwork({ policy: { allowLoopback: true }, lookup: async () => ['127.0.0.1'], guard })
    const settings = tlsSettings(config, network, createTrustStore({ extraPem: pki.root.pem }))
    const parsed = parseTlsTarget(`127.0.0.1:${proxy.port}`)
    if (!parsed.ok) throw new Error(parsed.reason)
    proxy.reset()
    const d = await tlsAnalyze(settings, parsed.target, new AbortController().signal, new Date())
    expect(d.protocols.filter((p) => p.supported).map((p) => p.protocol)).toEqual(['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'])
    expect(d.chain.verified).toBe(true)
    expect(d.hsts).toMatchObject({ checked: true, present: true })
    expect(stats.slots).toBe(proxy.connections())
    // The scan did use its whole pool, and the per-target bound was never the limit.
    expect(proxy.peak()).toBeGreaterThanOrEqual(settings.concurrency)
    expect(stats.peak).toBeLessThanOrEqual(settings.concurrency + SCAN_HEADROOM - 1)
    // Waiting for a slot means waiting for a connection the server holds (>= HOLD_MS); none did.
    expect(stats.longestWaitMs).toBeLessThan(HOLD_MS / 4)
  })
})

describe('a scan through the service', () => {
  let pki: TestPki
  let server: TlsTestServer
  let proxy: HoldingProxy
  let t: TestApp
  beforeAll(async () => {
    pki = createTestPki()
    // TLS 1.0-1.3: three legacy protocols of eight parallel subsets each want far more
    // probes at once than the pool allows.
    server = await startTlsServer({
      address: '127.0.0.1',
      leaf: leafFor(pki, 'pool.tls.test', { dns: [], ips: ['127.0.0.1'] }),
      chain: [pki.intermediate],
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.3',
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-SHA:AES128-SHA:AES256-SHA',
    })
    proxy = await startHoldingProxy(server, 25)
    // The guarded network's per-target bound stays at its default: the pool is
    // below it (settings.ts), so what is measured is still the scan's own pool.
    t = await startTestApp({ ...pki.env, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true', INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_REQUEST_TIMEOUT_MS: '20000' })
  })
  afterAll(async () => {
    await t?.close()
    await proxy?.close()
    await server?.close()
    pki?.close()
  })

  it(`never holds more than the pool (${POOL}, under the default per-target bound) probes open on the server, and does run them side by side`, async () => {
    proxy.reset()
    const res = await t.json(`/api/tls/ciphers/127.0.0.1:${proxy.port}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(d.protocols.filter((p: { supported: boolean }) => p.supported).map((p: { protocol: string }) => p.protocol)).toEqual(['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'])
    expect(proxy.connections()).toBe(d.probes)
    // Unbounded, the 3 x 8 legacy subsets (and TLS 1.3) would all be held at once,
    // or as many as the per-target bound (16) lets through: more than the pool.
    expect(proxy.peak()).toBeLessThanOrEqual(POOL)
    expect(proxy.peak()).toBeGreaterThan(8)
  })

  it('a scan and a full analysis emit no process warning (one abort listener per scan on the request signal)', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`)
    process.on('warning', onWarning)
    try {
      const scan = await t.json(`/api/tls/ciphers/127.0.0.1:${proxy.port}`)
      expect(scan.status).toBe(200)
      const analysis = await t.json(`/api/tls/analyze/127.0.0.1:${proxy.port}`)
      expect(analysis.status, JSON.stringify(analysis.body)).toBe(200)
      expect(analysis.body.data.protocols.filter((p: { supported: boolean }) => p.supported)).toHaveLength(4)
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings).toEqual([])
  })
})
