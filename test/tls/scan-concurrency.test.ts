import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '../../plugins/tls/pool.ts'
import { PROBE_CONCURRENCY } from '../../plugins/tls/target.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { HoldingProxy } from '../support/tls-holding-proxy.ts'
import { startHoldingProxy } from '../support/tls-holding-proxy.ts'
import type { TestPki, TlsTestServer } from '../support/tls-servers.ts'
import { createTestPki, leafFor, startTlsServer } from '../support/tls-servers.ts'

// The bounded probe pool: as a unit (never more than n tasks at once), end to end
// (the connections a scan holds open on a server never exceed the bound), and the
// scan's cancellation fan-out (no MaxListenersExceededWarning however many probes
// hang off one request).

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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
    t = await startTestApp({
      ...pki.env,
      INFRALENS_ALLOW_PRIVATE_TARGETS: 'true',
      INFRALENS_RATE_LIMITS: 'anonymous=100000',
      INFRALENS_CACHE_MAX_ENTRIES: '0',
      INFRALENS_REQUEST_TIMEOUT_MS: '20000',
      // The guarded network bounds sockets per target too (16 by default); lifted
      // here so that what is measured is the scan's own pool.
      INFRALENS_UPSTREAM_CONCURRENCY: '1000',
    })
  })
  afterAll(async () => {
    await t?.close()
    await proxy?.close()
    await server?.close()
    pki?.close()
  })

  it(`never holds more than ${PROBE_CONCURRENCY} probes open on the server, and does run them side by side`, async () => {
    proxy.reset()
    const res = await t.json(`/api/tls/ciphers/127.0.0.1:${proxy.port}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(d.protocols.filter((p: { supported: boolean }) => p.supported).map((p: { protocol: string }) => p.protocol)).toEqual(['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'])
    expect(proxy.connections()).toBe(d.probes)
    // Unbounded, the 3 x 8 legacy subsets (and TLS 1.3) would all be held at once.
    expect(proxy.peak()).toBeLessThanOrEqual(PROBE_CONCURRENCY)
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
