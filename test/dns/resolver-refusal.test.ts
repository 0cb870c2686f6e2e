import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestDnsServer } from '../support/dns-server.ts'
import { startDnsServer } from '../support/dns-server.ts'
import { TYPES_ZONE } from './test-zones.ts'

// Two configured resolvers, the first refusing one name (an ACL, a rate limit, a
// forwarder for some zones only): a question about that name is answered by the
// second, not a 502 for the whole request; only when every resolver refuses is it
// the upstream failing. Before, the first REFUSED reply ended the request.

let first: TestDnsServer
let second: TestDnsServer
let t: TestApp

beforeAll(async () => {
  first = await startDnsServer({ zones: [TYPES_ZONE] })
  second = await startDnsServer({ zones: [TYPES_ZONE] })
  t = await startTestApp({
    INFRALENS_DNS_RESOLVERS: `${first.host}:${first.port},${second.host}:${second.port}`,
    INFRALENS_DNS_TIMEOUT_MS: '1000',
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
    INFRALENS_CACHE_MAX_ENTRIES: '0',
  })
})
afterEach(() => {
  first.setFault(null)
  second.setFault(null)
})
afterAll(async () => {
  await t?.close()
  await first?.close()
  await second?.close()
})

describe('a resolver that refuses one name', () => {
  it('the next resolver answers it: 200 with its answer', async () => {
    first.setFault({ kind: 'refused', name: 'types.test' })
    const res = await t.json('/api/dns/a/types.test')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data).toMatchObject({ status: 'answer', rcode: 'NOERROR', records: [expect.objectContaining({ address: '192.0.2.1' })] })
    expect(res.body.data.resolver).toMatchObject({ address: second.host, port: second.port })
    expect(first.log.some((q) => q.name === 'types.test' && q.fault === 'refused')).toBe(true)
  })

  it('/api/dns/lookup: every type answered, none an error', async () => {
    first.setFault({ kind: 'refused', name: 'types.test' })
    const res = await t.json('/api/dns/lookup/types.test')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const types = Object.values(res.body.data.types as Record<string, { status: string }>)
    expect(types.map((x) => x.status)).not.toContain('error')
  })

  it('both refuse: 502 upstream_error naming each resolver and its rcode', async () => {
    first.setFault({ kind: 'refused', name: 'types.test' })
    second.setFault({ kind: 'notimp', name: 'types.test' })
    const res = await t.json('/api/dns/a/types.test')
    expect(res.status).toBe(502)
    expect(res.body.error).toMatchObject({ code: 'upstream_error', details: expect.objectContaining({ upstream: 'dns', rcode: 'REFUSED', server: `${first.host}:${first.port}` }) })
    expect(res.body.error.message).toContain(`${first.host}:${first.port} answered REFUSED`)
    expect(res.body.error.message).toContain(`${second.host}:${second.port} answered NOTIMP`)
  })

  it('a name the first resolver does not refuse is asked of it alone', async () => {
    first.setFault({ kind: 'refused', name: 'other.test' })
    const before = second.log.length
    expect((await t.json('/api/dns/a/types.test')).status).toBe(200)
    expect(second.log.length).toBe(before)
  })
})
