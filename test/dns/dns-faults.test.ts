// Every fault of the loopback server against the client: what the caller sees, and
// that spoofed or mismatched replies are ignored rather than accepted.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDnsClient, type DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { DnsError } from '../../runtime/net/dns/dns-error.ts'
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts'
import { TYPES_ZONE } from './test-zones.ts'

const TIMEOUT = 400
let server: TestDnsServer
let client: DnsClient

beforeAll(async () => {
  server = await startDnsServer({ zones: [TYPES_ZONE] })
  client = createDnsClient({ servers: [{ host: server.host, port: server.port }], timeoutMs: TIMEOUT, retries: 0 })
})
afterEach(() => server.setFault(null))
afterAll(async () => {
  await server.close()
})

async function failure(promise: Promise<unknown>): Promise<DnsError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(error instanceof DnsError)) throw new Error(`expected a DnsError, got ${String(error)}`)
  return error
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now()
  const value = await fn()
  return { value, ms: performance.now() - start }
}

const A = [{ name: 'types.test', type: 'A', class: 'IN', ttl: 300, data: { address: '192.0.2.1' } }]

describe('server faults as the client sees them', () => {
  it('drop: a timeout naming the server and the transport', async () => {
    server.setFault('drop')
    const { value: error, ms } = await timed(() => failure(client.query('types.test', 'A')))
    expect(error.reason).toBe('timeout')
    expect(error.server).toEqual({ host: server.host, port: server.port, name: `${server.host}:${server.port}` })
    expect(error.transport).toBe('udp')
    expect(error.attempts).toEqual([expect.objectContaining({ reason: 'timeout', transport: 'udp' })])
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT - 5)
  })

  it('delay: answered when shorter than the timeout, a timeout when longer', async () => {
    server.setFault({ kind: 'delay', ms: 80 })
    const answer = await client.query('types.test', 'A')
    expect(answer.answers).toEqual(A)
    expect(answer.latencyMs).toBeGreaterThanOrEqual(75)
    server.setFault({ kind: 'delay', ms: TIMEOUT + 200 })
    expect((await failure(client.query('types.test', 'A'))).reason).toBe('timeout')
  })

  it('servfail, refused and notimp: answers carrying the RCODE, not errors', async () => {
    server.setFault('servfail')
    const servfail = await client.query('types.test', 'A')
    expect(servfail).toMatchObject({ rcode: 'SERVFAIL', answers: [], authorities: [], transport: 'udp' })
    server.setFault('refused')
    expect(await client.query('types.test', 'A')).toMatchObject({ rcode: 'REFUSED', answers: [] })
    server.setFault('notimp')
    expect(await client.query('types.test', 'A')).toMatchObject({ rcode: 'NOTIMP', answers: [] })
  })

  it('truncate: TC over UDP, the answer over TCP', async () => {
    server.setFault('truncate')
    const before = server.log.length
    const answer = await client.query('types.test', 'A')
    expect(answer.transport).toBe('tcp')
    expect(answer.answers).toEqual(A)
    expect(server.log.slice(before).map((e) => [e.transport, e.fault])).toEqual([
      ['udp', 'truncate'],
      ['tcp', null],
    ])
  })

  it('mismatched-id: ignored; the correct reply after it is taken', async () => {
    server.setFault({ kind: 'mismatched-id' })
    expect((await failure(client.query('types.test', 'A'))).reason).toBe('timeout')
    server.setFault({ kind: 'mismatched-id', thenAnswer: true })
    expect((await client.query('types.test', 'A')).answers).toEqual(A)
  })

  it('mismatched-id over TCP: skipped on the stream as well', async () => {
    server.setFault({ kind: 'mismatched-id', thenAnswer: true, transport: 'tcp' })
    expect((await client.query('types.test', 'A', { tcp: true })).answers).toEqual(A)
    server.setFault({ kind: 'mismatched-id', transport: 'tcp' })
    expect((await failure(client.query('types.test', 'A', { tcp: true }))).reason).toBe('timeout')
  })

  it.each(['name', 'type', 'class'] as const)('wrong-question (%s): ignored until the deadline, or the real reply', async (part) => {
    server.setFault({ kind: 'wrong-question', part })
    expect((await failure(client.query('types.test', 'A'))).reason).toBe('timeout')
    server.setFault({ kind: 'wrong-question', part, thenAnswer: true })
    expect((await client.query('types.test', 'A')).answers).toEqual(A)
  })

  it('a question echoed in another letter case still matches (0x20-safe)', async () => {
    server.setFault('recase-question')
    const answer = await client.query('Types.TEST', 'A')
    expect(answer.question.name).toBe('Types.TEST')
    expect(answer.answers).toEqual(A)
  })

  it('garbage over UDP: ignored, then reported as a bad response at the deadline', async () => {
    server.setFault({ kind: 'garbage', bytes: 64 })
    const { value: error, ms } = await timed(() => failure(client.query('types.test', 'A')))
    expect(error.reason).toBe('bad_response')
    expect(error.message).toMatch(/malformed/)
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT - 5)
  })

  it('garbage over TCP: a bad response at once', async () => {
    server.setFault({ kind: 'garbage', transport: 'tcp' })
    const { value: error, ms } = await timed(() => failure(client.query('types.test', 'A', { tcp: true })))
    expect(error.reason).toBe('bad_response')
    expect(error.transport).toBe('tcp')
    expect(ms).toBeLessThan(TIMEOUT)
  })

  it('tcp-reset: a network error on the TCP fallback', async () => {
    server.setFault([{ kind: 'truncate' }, { kind: 'tcp-reset' }])
    const error = await failure(client.query('types.test', 'A'))
    expect(error.reason).toBe('network')
    expect(error.transport).toBe('tcp')
    expect(error.attempts).toEqual([expect.objectContaining({ transport: 'tcp', reason: 'network', message: expect.stringMatching(/ECONNRESET/) })])
  })

  it('wrong-source: a reply from another port is not accepted', async () => {
    server.setFault({ kind: 'wrong-source' })
    expect((await failure(client.query('types.test', 'A'))).reason).toBe('timeout')
    server.setFault({ kind: 'wrong-source', thenAnswer: true })
    expect((await client.query('types.test', 'A')).answers).toEqual(A)
  })
})

describe('fault scope', () => {
  it('by name: only that name and below', async () => {
    server.setFault({ kind: 'refused', name: 'www.types.test' })
    expect((await client.query('www.types.test', 'A')).rcode).toBe('REFUSED')
    expect((await client.query('x.www.types.test', 'A')).rcode).toBe('REFUSED')
    expect((await client.query('types.test', 'A')).rcode).toBe('NOERROR')
  })

  it('by transport', async () => {
    server.setFault({ kind: 'drop', transport: 'udp' })
    expect((await client.query('types.test', 'A', { tcp: true })).answers).toEqual(A)
    expect((await failure(client.query('types.test', 'A'))).reason).toBe('timeout')
  })

  it('for a number of queries', async () => {
    server.setFault({ kind: 'drop', times: 1 })
    const retrying = createDnsClient({ servers: [{ host: server.host, port: server.port }], timeoutMs: TIMEOUT, retries: 1 })
    const before = server.log.length
    expect((await retrying.query('types.test', 'A')).answers).toEqual(A)
    expect(server.log.slice(before).map((e) => e.fault)).toEqual(['drop', null])
    // A retry is a new query: new id.
    expect(new Set(server.log.slice(before).map((e) => e.id)).size).toBe(2)
  })
})
