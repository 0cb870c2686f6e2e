import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { startLoopbackDns } from '../support/loopback-dns.ts'

// The fault matrix for the DNS upstream: every fault on every DNS-backed endpoint
// gives a 502 with a reason (or the answer the fault implies) within the deadline,
// and the process stays healthy. Other upstreams add their rows as they land.

const TIMEOUT_MS = 200
let dns: LoopbackDns
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns({ timeoutMs: TIMEOUT_MS })
  t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000', INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_STALE_IF_ERROR_S: '0' })
})
afterAll(async () => {
  await t.close()
  await dns.close()
})

const endpoints = ['/api/dns/a/infralens.test', '/api/dns/mx/infralens.test', '/api/dns/txt/infralens.test', '/api/dns/lookup/infralens.test', '/api/reverse-dns/192.0.2.1']
const faults: Array<{ name: string; fault: unknown; expect: 'upstream' | 'answer' }> = [
  { name: 'timeout (drop)', fault: { kind: 'drop' }, expect: 'upstream' },
  { name: 'garbage bytes', fault: { kind: 'garbage' }, expect: 'upstream' },
  { name: 'mismatched ids', fault: { kind: 'mismatched-id' }, expect: 'upstream' },
  { name: 'wrong question', fault: { kind: 'wrong-question', part: 'name' }, expect: 'upstream' },
  { name: 'REFUSED', fault: { kind: 'refused' }, expect: 'upstream' },
  { name: 'TCP reset after truncation', fault: [{ kind: 'truncate' }, { kind: 'tcp-reset' }], expect: 'upstream' },
  { name: 'slow drip (delay past the timeout)', fault: { kind: 'delay', ms: TIMEOUT_MS * 3 }, expect: 'upstream' },
  { name: 'SERVFAIL', fault: { kind: 'servfail' }, expect: 'answer' },
]

describe('DNS fault matrix', () => {
  for (const f of faults) {
    for (const path of endpoints) {
      it(`${f.name}: ${path}`, async () => {
        dns.resolver.setFault(f.fault as never)
        try {
          const started = Date.now()
          const res = await t.json(path)
          const elapsed = Date.now() - started
          // two attempts (one retry) per query at most, queries of one request in parallel
          expect(elapsed).toBeLessThan(TIMEOUT_MS * 2 * 2 + 1500)
          if (f.expect === 'upstream' && !path.includes('lookup')) {
            expect(res.status, JSON.stringify(res.body)).toBe(502)
            expect(res.body.error.code).toBe('upstream_error')
            expect(res.body.error.details.upstream).toBe('dns')
            expect(['timeout', 'refused', 'bad_response', 'network', 'reset']).toContain(res.body.error.details.reason)
          } else if (f.expect === 'upstream') {
            // lookup: all eight queries fail -> 502
            expect(res.status).toBe(502)
          } else {
            expect(res.status).toBe(200)
            expect(res.body.data.rcode ?? res.body.data.types?.A?.rcode).toBe('SERVFAIL')
          }
        } finally {
          dns.resolver.setFault(null)
        }
        expect((await t.json('/api/health')).status).toBe(200)
        expect((await t.json('/api/dns/a/host.infralens.test')).status).toBe(200)
      })
    }
  }

  it('no fault was answered with a 500', () => {
    expect(t.logs.filter((l) => l.msg === 'unhandled error')).toEqual([])
  })
})
