import dgram from 'node:dgram'
import dnsPacket from 'dns-packet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/app.ts'
import { startTestApp } from '../support/app.ts'
import type { TestPki, TlsTestServer } from '../support/tls-servers.ts'
import { createTestPki, leafFor, startTlsServer } from '../support/tls-servers.ts'

// The HSTS check of /api/tls/analyze goes to the address the rest of the analysis
// used. The name here has two addresses, each a server with its own HSTS header,
// and the resolver rotates their order on every lookup: a second lookup for the
// HTTPS GET would land on the other server.

const NAME = 'two.tls.test'
const FIRST = '127.0.0.77'
const SECOND = '127.0.0.78'

let pki: TestPki
let servers: TlsTestServer[] = []
let resolver: dgram.Socket
let lookups = 0
let t: TestApp

/** Both servers on one port (the target names one port), retried until a port is free on both addresses. */
async function startPair(): Promise<TlsTestServer[]> {
  const leaf = leafFor(pki, NAME)
  for (let attempt = 0; ; attempt++) {
    const first = await startTlsServer({ address: FIRST, leaf, chain: [pki.intermediate], hsts: 'max-age=31536000' })
    try {
      const second = await startTlsServer({ address: SECOND, port: first.port, leaf, chain: [pki.intermediate], hsts: 'max-age=300' })
      return [first, second]
    } catch (error) {
      await first.close()
      if (attempt > 10) throw error
    }
  }
}

beforeAll(async () => {
  pki = createTestPki()
  servers = await startPair()
  resolver = dgram.createSocket('udp4')
  resolver.on('message', (message, from) => {
    const query = dnsPacket.decode(message)
    const question = query.questions![0]!
    let answers: dnsPacket.Answer[] = []
    if (question.name === NAME && question.type === 'A') {
      const order = lookups++ % 2 === 0 ? [FIRST, SECOND] : [SECOND, FIRST]
      answers = order.map((data) => ({ type: 'A' as const, name: NAME, ttl: 0, data }))
    }
    const reply = dnsPacket.encode({ type: 'response', id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE, questions: query.questions, answers })
    resolver.send(reply, from.port, from.address)
  })
  await new Promise<void>((resolve) => resolver.bind(0, '127.0.0.79', resolve))
  t = await startTestApp({
    ...pki.env,
    INFRALENS_DNS_RESOLVERS: `127.0.0.79:${resolver.address().port}`,
    INFRALENS_ALLOW_PRIVATE_TARGETS: 'true',
    INFRALENS_RATE_LIMITS: 'anonymous=100000',
    INFRALENS_CACHE_MAX_ENTRIES: '0',
  })
})
afterAll(async () => {
  await t?.close()
  resolver?.close()
  await Promise.all(servers.map((s) => s.close()))
  pki?.close()
})

describe('analyze: HSTS from the pinned address', () => {
  it('one lookup per analysis; the HSTS header is the one the analysed server sends', async () => {
    lookups = 0
    const res = await t.json(`/api/tls/analyze/${NAME}:${servers[0]!.port}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const d = res.body.data
    expect(d.address).toBe(FIRST)
    expect(d.hsts).toMatchObject({ checked: true, present: true, max_age: 31536000, long_max_age: true })
    expect(lookups).toBe(1)
    // Each analysis pins whichever address its own lookup put first.
    const next = (await t.json(`/api/tls/analyze/${NAME}:${servers[0]!.port}`)).body.data
    expect(next.address).toBe(SECOND)
    expect(next.hsts).toMatchObject({ checked: true, max_age: 300, long_max_age: false })
    expect(next.findings.map((f: { id: string }) => f.id)).toContain('hsts_short')
  })
})
