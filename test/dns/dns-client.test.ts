// The client's own behaviour: servers tried in order with retries, refused ports,
// abort, the bits it sends, spoof resistance at the socket, the pluggable socket
// factory, and no sockets or timers left behind.

import dgram from 'node:dgram'
import { setImmediate as tick } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDnsClient } from '../../runtime/net/dns/dns-client.ts'
import { DnsError } from '../../runtime/net/dns/dns-error.ts'
import { encodeName, DnsNameError } from '../../runtime/net/dns/dns-name.ts'
import { nodeDnsSockets, type DnsSocketFactory } from '../../runtime/net/dns/dns-sockets.ts'
import { encodeReply } from '../support/dns-reply-wire.ts'
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts'
import { TYPES_ZONE } from './test-zones.ts'

const TIMEOUT = 300
let one: TestDnsServer
let two: TestDnsServer
let six: TestDnsServer

beforeAll(async () => {
  ;[one, two, six] = await Promise.all([
    startDnsServer({ host: '127.0.0.1', zones: [TYPES_ZONE] }),
    startDnsServer({ host: '127.0.0.2', zones: [TYPES_ZONE] }),
    startDnsServer({ host: '::1', zones: [TYPES_ZONE] }),
  ])
})
afterEach(() => {
  for (const s of [one, two, six]) s.setFault(null)
})
afterAll(async () => {
  await Promise.all([one, two, six].map((s) => s.close()))
})

const address = (s: TestDnsServer, name?: string) => ({ host: s.host, port: s.port, ...(name ? { name } : {}) })

async function failure(promise: Promise<unknown>): Promise<DnsError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(error instanceof DnsError)) throw new Error(`expected a DnsError, got ${String(error)}`)
  return error
}

/** A UDP port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const socket = dgram.createSocket('udp4')
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()))
  const { port } = socket.address()
  await new Promise<void>((resolve) => socket.close(() => resolve()))
  return port
}

describe('servers and retries', () => {
  it('moves to the second server after a timeout on the first', async () => {
    one.setFault('drop')
    const client = createDnsClient({ servers: [address(one, 'first'), address(two, 'second')], timeoutMs: TIMEOUT, retries: 0 })
    const answer = await client.query('types.test', 'A')
    expect(answer.server).toEqual({ host: '127.0.0.2', port: two.port, name: 'second' })
    expect(answer.answers[0]?.data).toEqual({ address: '192.0.2.1' })
    expect(one.log.at(-1)?.fault).toBe('drop')
    expect(two.log.at(-1)?.name).toBe('types.test')
  })

  it('walks the list in order for each retry round, then reports every attempt', async () => {
    one.setFault('drop')
    two.setFault('drop')
    const client = createDnsClient({ servers: [address(one, 'first'), address(two, 'second')], timeoutMs: TIMEOUT, retries: 1 })
    const error = await failure(client.query('types.test', 'A'))
    expect(error.reason).toBe('timeout')
    expect(error.server?.name).toBe('second')
    expect(error.attempts.map((a) => `${a.server.name}:${a.reason}`)).toEqual(['first:timeout', 'second:timeout', 'first:timeout', 'second:timeout'])
    expect(error.message).toMatch(/^no answer for types\.test A: first over udp: no reply within 300 ms/)
  })

  it('a closed port is "refused" at once (ICMP unreachable on the connected socket), then the next server answers', async () => {
    const port = await closedPort()
    const lonely = createDnsClient({ servers: [{ host: '127.0.0.1', port }], timeoutMs: 2000, retries: 0 })
    const start = performance.now()
    const error = await failure(lonely.query('types.test', 'A'))
    expect(error.reason).toBe('refused')
    expect(performance.now() - start).toBeLessThan(1000)
    const client = createDnsClient({ servers: [{ host: '127.0.0.1', port }, address(one)], timeoutMs: 2000, retries: 0 })
    expect((await client.query('types.test', 'A')).server.port).toBe(one.port)
    // Over TCP the same closed port answers with a RST.
    const tcpError = await failure(lonely.query('types.test', 'A', { tcp: true }))
    expect(tcpError).toMatchObject({ reason: 'refused', transport: 'tcp' })
  })

  it('a per-query server overrides the list', async () => {
    const client = createDnsClient({ servers: [address(one)], timeoutMs: 2000 })
    const answer = await client.query('types.test', 'A', { server: address(two, 'picked') })
    expect(answer.server.name).toBe('picked')
  })

  it('works over IPv6 loopback, UDP and TCP', async () => {
    const client = createDnsClient({ servers: [address(six)], timeoutMs: 1000, retries: 0 })
    expect((await client.query('types.test', 'AAAA')).answers[0]?.data).toEqual({ address: '2001:db8::1' })
    expect((await client.query('types.test', 'A', { tcp: true })).transport).toBe('tcp')
    expect(client.servers).toEqual([{ host: '::1', port: six.port, name: `[::1]:${six.port}` }])
  })
})

describe('abort', () => {
  it('rejects with "aborted" while waiting, long before the timeout', async () => {
    one.setFault('drop')
    const client = createDnsClient({ servers: [address(one)], timeoutMs: 5000, retries: 3 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('caller gave up')), 50)
    const start = performance.now()
    const error = await failure(client.query('types.test', 'A', { signal: controller.signal }))
    expect(error.reason).toBe('aborted')
    expect(error.server?.port).toBe(one.port)
    expect((error.cause as Error).message).toBe('caller gave up')
    expect(performance.now() - start).toBeLessThan(1000)
  })

  it('an already aborted signal sends nothing', async () => {
    const client = createDnsClient({ servers: [address(one)], timeoutMs: TIMEOUT })
    const before = one.log.length
    const error = await failure(client.query('types.test', 'A', { signal: AbortSignal.abort() }))
    expect(error.reason).toBe('aborted')
    expect(error.server).toBeNull()
    expect(one.log.length).toBe(before)
  })

  it('aborts the TCP fallback too', async () => {
    one.setFault([{ kind: 'truncate' }, { kind: 'delay', ms: 2000, transport: 'tcp' }])
    const client = createDnsClient({ servers: [address(one)], timeoutMs: 5000, retries: 0 })
    const error = await failure(client.query('types.test', 'A', { signal: AbortSignal.timeout(100) }))
    expect(error.reason).toBe('aborted')
    expect(error.transport).toBe('tcp')
  })
})

describe('what is sent', () => {
  it('EDNS0 with 1232 bytes, RD on by default, DO and CD on request', async () => {
    const client = createDnsClient({ servers: [address(one)], timeoutMs: 2000 })
    await client.query('types.test', 'A')
    expect(one.log.at(-1)).toMatchObject({ udpPayloadSize: 1232, dnssecOk: false, rd: true, cd: false })
    const signed = await client.query('types.test', 'A', { dnssec: true, checkingDisabled: true, recursionDesired: false })
    expect(one.log.at(-1)).toMatchObject({ udpPayloadSize: 1232, dnssecOk: true, rd: false, cd: true })
    expect(signed.edns).toMatchObject({ udpPayloadSize: 1232, dnssecOk: true, version: 0 })
    expect(signed.flags).toEqual({ aa: true, tc: false, rd: false, ra: false, ad: false, cd: true })
    const plain = await client.query('types.test', 'A', { edns: false })
    expect(one.log.at(-1)?.udpPayloadSize).toBeNull()
    expect(plain.edns).toBeNull()
  })

  it('AD on request; a validating resolver sets AD only when the query has AD or DO (RFC 6840 §5.7)', async () => {
    const client = createDnsClient({ servers: [address(one)], timeoutMs: 2000 })
    one.setValidating(true)
    try {
      const plain = await client.query('types.test', 'A')
      expect(one.log.at(-1)).toMatchObject({ ad: false, dnssecOk: false })
      expect(plain.flags.ad).toBe(false)
      const asked = await client.query('types.test', 'A', { authenticData: true })
      expect(one.log.at(-1)).toMatchObject({ ad: true, dnssecOk: false, rd: true, cd: false })
      expect(asked.flags.ad).toBe(true)
      // AD alone does not bring DO, so no signatures inflate the answer
      expect(asked.answers.map((r) => r.type)).toEqual(['A'])
      expect((await client.query('types.test', 'A', { dnssec: true })).flags.ad).toBe(true)
      const nx = await client.query('missing.types.test', 'A', { authenticData: true })
      expect(nx).toMatchObject({ rcode: 'NXDOMAIN', flags: { ad: true } })
    } finally {
      one.setValidating(false)
    }
    // A server that does not validate never sets AD, asked or not.
    expect((await client.query('types.test', 'A', { authenticData: true })).flags.ad).toBe(false)
    expect(one.log.at(-1)?.ad).toBe(true)
  })

  it('without EDNS the 512-byte limit applies, and TCP picks up the rest', async () => {
    const client = createDnsClient({ servers: [address(one)], timeoutMs: 2000 })
    // Three 200-byte strings: over 512 bytes, under 1232.
    expect((await client.query('mid.types.test', 'TXT', { edns: false })).transport).toBe('tcp')
    expect((await client.query('mid.types.test', 'TXT')).transport).toBe('udp')
  })

  it('a random id and a fresh source port for each query', async () => {
    const client = createDnsClient({ servers: [address(one)], timeoutMs: 2000 })
    const before = one.log.length
    for (let i = 0; i < 20; i++) await client.query('types.test', 'A')
    const entries = one.log.slice(before)
    expect(new Set(entries.map((e) => e.id)).size).toBeGreaterThanOrEqual(18)
    expect(new Set(entries.map((e) => e.from.port)).size).toBeGreaterThanOrEqual(18)
  })

  it('rejects bad input before sending anything', async () => {
    expect(() => createDnsClient({ servers: [{ host: 'dns.google', port: 53 }] })).toThrow(/not an IP address literal/)
    expect(() => createDnsClient({ servers: [] })).toThrow(/at least one server/)
    const client = createDnsClient({ servers: [address(one)] })
    await expect(client.query(`${'a'.repeat(64)}.test`, 'A')).rejects.toBeInstanceOf(DnsNameError)
    await expect(client.query('a..test', 'A')).rejects.toThrow(/empty label/)
    await expect(client.query('types.test', 'NOPE' as 'A')).rejects.toThrow(/unknown query type/)
  })
})

describe('the socket layer', () => {
  it('goes through the pluggable factory, and ignores replies from any other address or port', async () => {
    const made: dgram.Socket[] = []
    let tcp = 0
    const sockets: DnsSocketFactory = {
      udpSocket(family) {
        const socket = nodeDnsSockets.udpSocket(family)
        made.push(socket)
        return socket
      },
      tcpConnect(target) {
        tcp++
        return nodeDnsSockets.tcpConnect(target)
      },
    }
    one.setFault('drop')
    const client = createDnsClient({ servers: [address(one)], timeoutMs: 300, retries: 0, sockets })
    const pending = client.query('types.test', 'A')
    while (one.log.at(-1)?.fault !== 'drop' || made.length === 0) await tick()
    const entry = one.log.at(-1)
    if (!entry) throw new Error('no query logged')
    // A perfect forgery (right id, right question) but from the wrong address, then the wrong port:
    // injected straight into the socket, past the kernel's connected-socket filter.
    const forged = encodeReply({
      id: entry.id,
      flags: 0x8400,
      rcode: 0,
      question: Buffer.concat([encodeName('types.test'), Buffer.from([0, 1, 0, 1])]),
      answers: [{ owner: encodeName('types.test'), typeCode: 1, classCode: 1, ttl: 1, rdata: Buffer.from([6, 6, 6, 6]) }],
      authorities: [],
      additionals: [],
      opt: null,
    })
    const socket = made[0] as dgram.Socket
    socket.emit('message', forged, { address: '127.0.0.9', port: one.port, family: 'IPv4', size: forged.length })
    socket.emit('message', forged, { address: one.host, port: one.port + 1, family: 'IPv4', size: forged.length })
    expect((await failure(pending)).reason).toBe('timeout')

    // The same bytes from the queried address and port are, by construction, the answer.
    const second = client.query('types.test', 'A')
    while (made.length < 2 || one.log.at(-1)?.id === entry.id) await tick()
    const id = (one.log.at(-1) as { id: number }).id
    forged.writeUInt16BE(id, 0)
    ;(made[1] as dgram.Socket).emit('message', forged, { address: one.host, port: one.port, family: 'IPv4', size: forged.length })
    expect((await second).answers[0]?.data).toEqual({ address: '6.6.6.6' })

    one.setFault('truncate')
    expect((await client.query('types.test', 'A')).transport).toBe('tcp')
    expect(tcp).toBe(1)
  })

  it('leaves no socket or timer behind, whatever the outcome', async () => {
    const count = (pattern: RegExp): number => process.getActiveResourcesInfo().filter((r) => pattern.test(r)).length
    const sockets = (): number => count(/^(UDPWrap|TCPWrap|TCPSocketWrap)$/)
    const timers = (): number => count(/^Timeout$/)
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 5; i++) await tick()
    }
    await settle()
    const baseline = { sockets: sockets(), timers: timers() }

    // Outcomes that settle long before the 10 s deadline: a leaked timer would still be pending.
    const patient = createDnsClient({ servers: [address(one)], timeoutMs: 10_000, retries: 0 })
    await patient.query('types.test', 'A')
    await patient.query('big.types.test', 'TXT')
    one.setFault({ kind: 'garbage', transport: 'tcp' })
    await patient.query('types.test', 'A', { tcp: true }).catch(() => undefined)
    one.setFault([{ kind: 'truncate' }, { kind: 'tcp-reset' }])
    await patient.query('types.test', 'A').catch(() => undefined)
    one.setFault('drop')
    const controller = new AbortController()
    const aborted = patient.query('types.test', 'A', { signal: controller.signal }).catch(() => undefined)
    await tick()
    controller.abort()
    await aborted
    await patient.query('types.test', 'A', { server: { host: '127.0.0.1', port: await closedPort() } }).catch(() => undefined)
    await settle()
    expect(sockets()).toBe(baseline.sockets)
    expect(timers()).toBeLessThanOrEqual(baseline.timers)

    // Outcomes that end at the deadline still close their sockets.
    const hasty = createDnsClient({ servers: [address(one)], timeoutMs: 50, retries: 0 })
    for (const fault of ['drop', 'garbage', 'mismatched-id', 'wrong-source'] as const) {
      one.setFault(fault)
      await hasty.query('types.test', 'A').catch(() => undefined)
    }
    await settle()
    expect(sockets()).toBe(baseline.sockets)
  })
})
