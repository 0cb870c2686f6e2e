import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMON_SELECTORS } from '../../plugins/email/dkim/dkim-selectors.ts'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { LoopbackDns } from '../support/loopback-dns.ts'
import { DEFAULT_ZONES, startLoopbackDns } from '../support/loopback-dns.ts'
import { dkimKey } from './email-zones.ts'

// The DKIM selectors are asked in parallel: with every answer under _domainkey
// delayed, one after another would take (selectors x delay); in parallel it takes
// a few delays. The bound is a third of the sequential time, far from both.

const DELAY_MS = 300

const ZONE = `
$ORIGIN par.test.
$TTL 300
@   IN SOA ns1 hostmaster ( 1 3600 900 604800 300 )
@   IN NS  ns1
ns1 IN A   127.0.0.53
zz-custom._domainkey IN TXT "v=DKIM1; k=rsa; p=${dkimKey(2048)}"
`

let dns: LoopbackDns
let t: TestApp
beforeAll(async () => {
  dns = await startLoopbackDns({ zones: [...DEFAULT_ZONES, ZONE], timeoutMs: 5000 })
  t = await startTestApp({ ...dns.env, INFRALENS_RATE_LIMITS: 'anonymous=100000' })
})
afterAll(async () => {
  await t.close()
  await dns.close()
})

describe('DKIM selectors', () => {
  it(`are looked up in parallel: ${COMMON_SELECTORS.length + 1} selectors, each answer delayed ${DELAY_MS} ms`, async () => {
    dns.resolver.setFault({ kind: 'delay', ms: DELAY_MS, name: '_domainkey.par.test' })
    const started = performance.now()
    const res = await t.json('/api/email/dkim/par.test?selectors=zz-custom')
    const elapsed = performance.now() - started
    dns.resolver.setFault(null)

    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const selectors = COMMON_SELECTORS.length + 1
    expect(res.body.data.selectors_checked).toHaveLength(selectors)
    expect(res.body.data.keys.find((k: { selector: string }) => k.selector === 'zz-custom')).toMatchObject({ status: 'found', key_bits: 2048 })
    // every selector's query was delayed (the fault applied), none failed
    const delayed = new Set(dns.resolver.log.filter((q) => q.fault === 'delay' && q.type === 'TXT').map((q) => q.name.toLowerCase()))
    expect(delayed.size).toBe(selectors)
    expect(res.body.data.keys.filter((k: { status: string }) => k.status === 'dns_error')).toEqual([])
    expect(elapsed).toBeLessThan((selectors * DELAY_MS) / 3)
  })
})
