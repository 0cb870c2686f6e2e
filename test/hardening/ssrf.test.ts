import dgram from 'node:dgram'
import { createServer } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import dnsPacket from 'dns-packet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDnsClient } from '../../runtime/net/dns/dns-client.ts'
import { dnsHostLookup } from '../../runtime/net/dns-host-lookup.ts'
import { createGuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { TargetBlockedError } from '../../runtime/net/target-blocked-error.ts'

// SSRF bypass forms against the guard with the service's real DNS client: lenient
// IPv4 spellings, IPv4-mapped IPv6, names resolving to private space, and a
// rebinding DNS server whose answer changes between lookups. The assertion is on
// the fake target's connection log: zero connections where the guard must refuse.
// The target listens on 127.0.0.1 and ::1 (same port), so a name whose AAAA is ::1
// would be seen connecting.

let target: ReturnType<typeof createServer>
let target6: ReturnType<typeof createServer>
let targetPort: number
const connections: string[] = []
let resolver: dgram.Socket
let resolverPort: number
const queries: Array<{ name: string; type: string }> = []
let rebindCount = 0

/** AAAA answers per name: IPv6 loopback, ULA and IPv6 forms of IPv4 loopback. */
const AAAA: Record<string, string[]> = {
  'loopback6.test': ['::1'],
  'ula.test': ['fd00::1'],
  'mapped6.test': ['::ffff:127.0.0.1'],
  'compat6.test': ['::7f00:1'],
  'nat64-local.test': ['64:ff9b:1::a00:1'],
  // an allowed (in the open test) A beside a private AAAA: the name is refused as a whole
  'dual.test': ['fd00::1'],
}

/** Answers per name; "rebind.test" alternates a loopback (allowed in this test) and a private address. */
function answerFor(name: string, type: string): string[] {
  if (type === 'AAAA') return AAAA[name] ?? []
  if (type !== 'A') return []
  switch (name) {
    case 'private.test':
      return ['10.0.0.1']
    case 'metadata.test':
      return ['169.254.169.254']
    case 'mixed.test':
      return ['127.0.0.1', '192.168.1.1']
    case 'zero.test':
      return ['0.0.0.0']
    case 'ok.test':
    case 'dual.test':
      return ['127.0.0.1']
    case 'rebind.test':
      return [rebindCount++ % 2 === 0 ? '127.0.0.1' : '10.0.0.1']
    default:
      return []
  }
}

beforeAll(async () => {
  target = createServer((socket: Socket) => {
    connections.push(`${socket.localAddress}:${socket.localPort}`)
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok')
  })
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r))
  targetPort = (target.address() as AddressInfo).port
  target6 = createServer((socket: Socket) => {
    connections.push(`[${socket.localAddress}]:${socket.localPort}`)
    socket.on('error', () => {})
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok')
  })
  await new Promise<void>((r) => target6.listen(targetPort, '::1', r))
  resolver = dgram.createSocket('udp4')
  resolver.on('message', (msg, rinfo) => {
    const q = dnsPacket.decode(msg)
    const question = q.questions![0]!
    queries.push({ name: question.name, type: question.type })
    const type = question.type === 'AAAA' ? ('AAAA' as const) : ('A' as const)
    const answers = answerFor(question.name, question.type).map((data) => ({ type, name: question.name, ttl: 0, data }))
    resolver.send(dnsPacket.encode({ type: 'response', id: q.id, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE, questions: q.questions, answers }), rinfo.port, rinfo.address)
  })
  await new Promise<void>((r) => resolver.bind(0, '127.0.0.5', r))
  resolverPort = resolver.address().port
})
afterAll(() => {
  target.close()
  target6.close()
  resolver.close()
})

function network(allowLoopback: boolean) {
  const dns = createDnsClient({ servers: [{ host: '127.0.0.5', port: resolverPort }], timeoutMs: 500, retries: 0 })
  return createGuardedNetwork({ policy: { allowLoopback }, lookup: dnsHostLookup(dns) })
}

describe('SSRF bypass forms: zero connections', () => {
  it('lenient IPv4 forms, mapped forms and names resolving to private space', async () => {
    const net = network(false)
    const before = connections.length
    const forms = ['2130706433', '0177.0.0.1', '0x7f000001', '0x7f.0.0.1', '127.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::1]', '127.0.0.1', '[0:0:0:0:0:ffff:7f00:1]', 'private.test', 'metadata.test', 'mixed.test', 'zero.test', 'ok.test', '[::]']
    for (const host of forms) {
      const error = await net.connect({ host, port: targetPort, timeoutMs: 500 }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error, host).toBeDefined()
      const refusedOrUnknown = error instanceof TargetBlockedError || (error as { status?: number }).status === 502
      expect(refusedOrUnknown, `${host}: ${String(error)}`).toBe(true)
    }
    expect(connections.length).toBe(before)
  })

  it('names whose AAAA is ::1, ULA or an IPv6 form of loopback/private IPv4: refused, zero connections', async () => {
    const names = ['loopback6.test', 'ula.test', 'mapped6.test', 'compat6.test', 'nat64-local.test', 'dual.test']
    for (const allowLoopback of [false, true]) {
      const net = network(allowLoopback)
      const before = connections.length
      for (const host of names) {
        if (allowLoopback && host === 'loopback6.test') continue
        const error = await net.connect({ host, port: targetPort, timeoutMs: 500 }).then(
          () => undefined,
          (e: unknown) => e,
        )
        expect(error, `${host} (loopback allowed: ${allowLoopback})`).toBeInstanceOf(TargetBlockedError)
      }
      expect(connections.length).toBe(before)
    }
    // the AAAA answers were asked for and the ::1 listener works: with loopback allowed the name connects there
    expect(queries.some((q) => q.name === 'ula.test' && q.type === 'AAAA')).toBe(true)
    const before = connections.length
    const { socket, address } = await network(true).connect({ host: 'loopback6.test', port: targetPort, timeoutMs: 500 })
    const reply = await new Promise<string>((r) => socket.once('data', (d) => r(String(d))))
    socket.destroy()
    expect(address).toBe('::1')
    expect(reply).toMatch(/^HTTP\/1\.1 200/)
    expect(connections.slice(before)).toEqual([`[::1]:${targetPort}`])
  })

  it('a rebinding DNS server: one lookup per connection, and the socket goes to the address that was vetted', async () => {
    const net = network(true)
    const before = connections.length
    const lookupsBefore = queries.filter((q) => q.name === 'rebind.test' && q.type === 'A').length
    rebindCount = 0
    // answer 1 (127.0.0.1, allowed here) is vetted and pinned; a second lookup would have said 10.0.0.1
    const res = await net.request(`http://rebind.test:${targetPort}/`)
    expect(res.status).toBe(200)
    expect(res.address).toBe('127.0.0.1')
    expect(queries.filter((q) => q.name === 'rebind.test' && q.type === 'A').length - lookupsBefore).toBe(1)
    expect(connections.length).toBe(before + 1)
    // the next request gets the private answer and is refused without a connection
    await expect(net.request(`http://rebind.test:${targetPort}/`)).rejects.toBeInstanceOf(TargetBlockedError)
    expect(connections.length).toBe(before + 1)
  })
})
