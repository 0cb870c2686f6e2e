import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestDnsServer } from '../support/dns-server.ts'
import { startDnsServer } from '../support/dns-server.ts'
import { DEFAULT_ZONES } from '../support/loopback-dns.ts'

// The service with two configured resolvers, the first of which dies: its circuit
// opens after INFRALENS_BREAKER_THRESHOLD failures, DNS answers come from the
// second without waiting for the first's timeout, and the first is back in front
// once its half-open probe is answered.

const TIMEOUT_MS = 300
const OPEN_MS = 600
let first: TestDnsServer
let second: TestDnsServer
let t: TestApp
beforeAll(async () => {
  ;[first, second] = await Promise.all([startDnsServer({ host: '127.0.0.2', zones: DEFAULT_ZONES }), startDnsServer({ host: '127.0.0.3', zones: DEFAULT_ZONES })])
  t = await startTestApp({
    INFRALENS_DNS_RESOLVERS: `${first.host}:${first.port},${second.host}:${second.port}`,
    INFRALENS_DNS_TIMEOUT_MS: String(TIMEOUT_MS),
    INFRALENS_BREAKER_THRESHOLD: '2',
    INFRALENS_BREAKER_OPEN_MS: String(OPEN_MS),
    INFRALENS_CACHE_MAX_ENTRIES: '0',
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
  })
})
afterAll(async () => {
  await t.close()
  await Promise.all([first.close(), second.close()])
})

async function resolverOf(path: string): Promise<{ port: number; ms: number }> {
  const started = performance.now()
  const res = await t.json(path)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { port: res.body.data.resolver.port, ms: performance.now() - started }
}

describe('a configured resolver dies and comes back', () => {
  it('skipped fast while its circuit is open, asked again after a successful probe', async () => {
    expect((await resolverOf('/api/dns/a/infralens.test')).port).toBe(first.port)
    first.setFault('drop')
    for (let i = 0; i < 2; i++) {
      const r = await resolverOf(`/api/dns/a/host.infralens.test?i=${i}`)
      expect(r.port).toBe(second.port)
      expect(r.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20)
    }
    const asked = first.log.length
    const fast = await Promise.all(['a', 'aaaa', 'mx', 'txt', 'ns'].map((type) => resolverOf(`/api/dns/${type}/infralens.test`)))
    for (const r of fast) {
      expect(r.port).toBe(second.port)
      expect(r.ms).toBeLessThan(TIMEOUT_MS)
    }
    // every lookup of names the service connects to goes the same way (the guarded network uses this client)
    expect((await t.json('/api/dns/lookup/infralens.test')).status).toBe(200)
    expect(first.log.length).toBe(asked)

    first.setFault(null)
    await new Promise((r) => setTimeout(r, OPEN_MS + 50))
    expect((await resolverOf('/api/dns/a/infralens.test')).port).toBe(first.port)
    expect((await resolverOf('/api/dns/mx/infralens.test')).port).toBe(first.port)
    expect((await t.json('/api/health')).status).toBe(200)
  })
})
