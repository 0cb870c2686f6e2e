import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { DnsError } from '../../runtime/net/dns/dns-error.ts'
import { guardDnsServers } from '../../runtime/net/dns-server-guard.ts'
import { createUpstreamGuard } from '../../runtime/net/upstream-guard.ts'
import type { TestDnsServer } from '../support/dns-server.ts'
import { startDnsServer } from '../support/dns-server.ts'
import { SERVICE_ZONE } from '../support/loopback-dns.ts'

// One circuit per configured resolver: a resolver that keeps failing is skipped
// (no more waiting for its timeout) while another answers, until its half-open
// probe; with every circuit open the resolvers are asked all the same.

const TIMEOUT = 400
const OPEN_MS = 500
let first: TestDnsServer
let second: TestDnsServer
beforeAll(async () => {
  ;[first, second] = await Promise.all([startDnsServer({ host: '127.0.0.1', zones: [SERVICE_ZONE] }), startDnsServer({ host: '127.0.0.1', zones: [SERVICE_ZONE] })])
})
afterEach(() => {
  first.setFault(null)
  second.setFault(null)
})
afterAll(async () => {
  await Promise.all([first.close(), second.close()])
})

const at = (s: TestDnsServer) => ({ host: s.host, port: s.port })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function client(servers: TestDnsServer[], threshold = 2): DnsClient {
  return createDnsClient({
    servers: servers.map(at),
    timeoutMs: TIMEOUT,
    retries: 0,
    guard: guardDnsServers(createUpstreamGuard({ threshold, openMs: OPEN_MS, maxConcurrent: 8 })),
  })
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

describe('DNS resolver circuits', () => {
  it('a dead first resolver opens its circuit: later queries skip it (no timeout wait); the half-open probe closes it when it answers again', async () => {
    const dns = client([first, second])
    first.setFault('drop')
    // Threshold 2: two queries wait for the first resolver's timeout, then the second answers.
    for (let i = 0; i < 2; i++) {
      const { value, ms } = await timed(() => dns.query('infralens.test', 'A'))
      expect(value.server.port).toBe(second.port)
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT - 20)
    }
    const asked = first.log.length
    for (let i = 0; i < 5; i++) {
      const { value, ms } = await timed(() => dns.query('host.infralens.test', 'A'))
      expect(value.server.port).toBe(second.port)
      // generous: the point is that nobody waits for the dead resolver's 400 ms any more
      expect(ms).toBeLessThan(TIMEOUT)
    }
    expect(first.log.length).toBe(asked)

    // Recovered, and the open period over: the next query is the probe, answered by the first resolver, which is back in front.
    first.setFault(null)
    await sleep(OPEN_MS + 50)
    const probe = await dns.query('infralens.test', 'MX')
    expect(probe.server.port).toBe(first.port)
    expect(first.log.length).toBe(asked + 1)
    for (let i = 0; i < 3; i++) expect((await dns.query('infralens.test', 'TXT')).server.port).toBe(first.port)
  })

  it('a probe that fails opens the circuit again (the probing query still gets its answer from the next resolver)', async () => {
    const dns = client([first, second])
    first.setFault('drop')
    for (let i = 0; i < 2; i++) await dns.query('infralens.test', 'A')
    await sleep(OPEN_MS + 50)
    const before = first.log.length
    const probe = await timed(() => dns.query('infralens.test', 'A'))
    expect(probe.value.server.port).toBe(second.port)
    expect(first.log.length).toBe(before + 1)
    const after = await timed(() => dns.query('infralens.test', 'AAAA'))
    expect(after.value.server.port).toBe(second.port)
    expect(after.ms).toBeLessThan(TIMEOUT)
    expect(first.log.length).toBe(before + 1)
  })

  it('with every circuit open the resolvers are still asked: the answer is the real failure, and a recovered resolver answers at once', async () => {
    const dns = client([first], 1)
    first.setFault('drop')
    await dns.query('infralens.test', 'A').catch(() => {})
    const before = first.log.length
    const error = await dns.query('infralens.test', 'A').then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(DnsError)
    expect((error as DnsError).reason).toBe('timeout')
    expect(first.log.length).toBe(before + 1)
    first.setFault(null)
    expect((await dns.query('infralens.test', 'A')).server.port).toBe(first.port)
  })

  it('answers of any rcode are health; an aborted query says nothing about the resolver', async () => {
    const dns = client([first, second], 1)
    first.setFault('servfail')
    expect((await dns.query('infralens.test', 'A')).rcode).toBe('SERVFAIL')
    first.setFault('drop')
    const controller = new AbortController()
    const aborted = dns.query('infralens.test', 'A', { signal: controller.signal })
    setTimeout(() => controller.abort(new Error('client went away')), 50)
    await expect(aborted).rejects.toMatchObject({ reason: 'aborted' })
    // still closed: the next query goes to the first resolver again (and waits for it)
    const before = first.log.length
    await dns.query('infralens.test', 'A')
    expect(first.log.length).toBe(before + 1)
  })
})
