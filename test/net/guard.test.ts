import { createServer } from 'node:http'
import type { Server } from 'node:http'
import { createServer as createTcpServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UpstreamError } from '../../runtime/errors.ts'
import { createGuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { TargetBlockedError } from '../../runtime/net/target-blocked-error.ts'
import { checkTargetText } from '../../runtime/net/target-policy.ts'

const closed = { allowLoopback: false }
const open = { allowLoopback: true }

describe('target policy (decisions only, nothing is dialed)', () => {
  const refusedAlways = [
    ['10.0.0.1', /not globally reachable/],
    ['172.16.5.4', /not globally reachable/],
    ['192.168.1.1', /not globally reachable/],
    ['169.254.169.254', /Link Local/i],
    ['100.64.0.1', /Shared Address Space/i],
    ['100.100.100.200', /Shared Address Space/i],
    ['0.0.0.0', /This network|this host/i],
    ['224.0.0.1', /multicast/i],
    ['240.0.0.1', /reserved|future/i],
    ['255.255.255.255', /broadcast/i],
    ['192.0.2.1', /Documentation/i],
    ['198.18.0.1', /Benchmarking/i],
    ['fd00::1', /Unique-Local/i],
    ['fd00:ec2::254', /Unique-Local/i],
    ['fe80::1', /Link-Local/i],
    ['ff02::1', /multicast|ff00/i],
    ['::', /Unspecified/i],
    ['::ffff:10.0.0.1', /IPv4-mapped/i],
    ['64:ff9b::a00:1', /10\.0\.0\.1/],
    ['2002:a00:1::1', /10\.0\.0\.1/],
    // IPv4-compatible (deprecated, RFC 4291 §2.5.5.1) loopback: inside ::/8, never global
    ['::7f00:1', /::\/8.*Reserved/i],
    // local-use NAT64 prefix (RFC 8215): translates to whatever the operator's network holds
    ['64:ff9b:1::a00:1', /64:ff9b:1::\/48.*RFC 8215/],
    ['2001:db8::1', /Documentation/i],
  ] as const
  for (const [address, reason] of refusedAlways) {
    it(`refuses ${address} even when loopback is allowed`, () => {
      for (const policy of [closed, open]) {
        const verdict = checkTargetText(address, policy)
        expect(verdict.allowed, address).toBe(false)
        if (!verdict.allowed) expect(verdict.reason).toMatch(reason)
      }
    })
  }

  it('loopback (127/8 and ::1) only when allowed, and never in IPv4-mapped form', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '[::1]']) {
      expect(checkTargetText(a, closed).allowed, a).toBe(false)
      expect(checkTargetText(a, open).allowed, a).toBe(true)
    }
    expect(checkTargetText('::ffff:127.0.0.1', open).allowed).toBe(false)
    expect(checkTargetText('[::ffff:127.0.0.1]', closed).allowed).toBe(false)
    expect(checkTargetText('64:ff9b::7f00:1', open).allowed).toBe(false)
  })

  it('lenient IPv4 spellings are not addresses at all', () => {
    for (const a of ['127.1', '0x7f.0.0.1', '2130706433', '0177.0.0.1', '127.000.000.001']) {
      const verdict = checkTargetText(a, open)
      expect(verdict.allowed, a).toBe(false)
      if (!verdict.allowed) expect(verdict.reason).toMatch(/not an IP address/)
    }
  })

  it('allows public unicast, including 6to4/NAT64 of public IPv4', () => {
    for (const a of ['93.184.215.14', '151.101.1.69', '2606:4700:4700::1111', '2a00:1450::1', '64:ff9b::5db8:d70e', '192.0.0.9']) {
      expect(checkTargetText(a, closed).allowed, a).toBe(true)
    }
  })
})

describe('guarded connections against a loopback fake', () => {
  let tcp: ReturnType<typeof createTcpServer>
  let port: number
  const connections: string[] = []
  let http: Server
  let httpPort: number
  const httpHosts: string[] = []

  beforeAll(async () => {
    tcp = createTcpServer((socket) => {
      connections.push(socket.remoteAddress ?? '?')
      socket.end('hello\n')
    })
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r))
    port = (tcp.address() as AddressInfo).port
    http = createServer((req, res) => {
      httpHosts.push(req.headers.host ?? '')
      res.setHeader('content-type', 'text/plain')
      res.end(req.url === '/big' ? 'x'.repeat(5000) : `you asked for ${req.headers.host}${req.url}`)
    })
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r))
    httpPort = (http.address() as AddressInfo).port
  })
  afterAll(async () => {
    await new Promise((r) => tcp.close(r))
    await new Promise((r) => http.close(r))
  })

  // Names a hostile DNS server might hand out.
  const zone: Record<string, string[]> = {
    'loopback.test': ['127.0.0.1'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'mixed.test': ['93.184.215.14', '127.0.0.1'],
    'rebind.test': ['93.184.215.14', '10.0.0.1'],
    'empty.test': [],
  }
  const lookups: string[] = []
  const lookup = async (host: string) => {
    lookups.push(host)
    return zone[host] ?? []
  }

  it('with private targets disallowed, nothing in the list is ever connected to', async () => {
    const net = createGuardedNetwork({ policy: closed, lookup })
    const before = connections.length
    for (const host of ['127.0.0.1', '127.1', '0x7f.0.0.1', '2130706433', '[::ffff:127.0.0.1]', '[::1]', 'loopback.test', 'mapped.test', 'metadata.test', 'mixed.test']) {
      await expect(net.connect({ host, port, timeoutMs: 1000 }), host).rejects.toBeInstanceOf(host === '127.1' || host === '0x7f.0.0.1' || host === '2130706433' ? UpstreamError : TargetBlockedError)
    }
    // 10.0.0.1, 169.254.169.254 and fd00::1 are refused before any socket exists.
    for (const host of ['10.0.0.1', '169.254.169.254', 'fd00::1']) {
      await expect(net.connect({ host, port: 80, timeoutMs: 1000 })).rejects.toBeInstanceOf(TargetBlockedError)
    }
    expect(connections.length).toBe(before)
  })

  it('a host with one private address among public ones is refused as a whole', async () => {
    const net = createGuardedNetwork({ policy: open, lookup })
    const error = await net.resolve('rebind.test').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TargetBlockedError)
    expect((error as TargetBlockedError).message).toMatch(/rebind\.test \(10\.0\.0\.1\)/)
  })

  it('with loopback allowed it connects to the vetted address', async () => {
    const net = createGuardedNetwork({ policy: open, lookup })
    const { socket, address } = await net.connect({ host: 'loopback.test', port })
    expect(address).toBe('127.0.0.1')
    const text = await new Promise<string>((r) => socket.once('data', (d) => r(String(d))))
    expect(text).toBe('hello\n')
    socket.destroy()
  })

  it('HTTP requests resolve once, connect to the vetted address and keep the Host header', async () => {
    lookups.length = 0
    const net = createGuardedNetwork({ policy: open, lookup })
    const res = await net.request(`http://loopback.test:${httpPort}/path?q=1`)
    expect(res.status).toBe(200)
    expect(res.address).toBe('127.0.0.1')
    expect(res.body.toString()).toBe(`you asked for loopback.test:${httpPort}/path?q=1`)
    expect(lookups).toEqual(['loopback.test'])
    expect(httpHosts.at(-1)).toBe(`loopback.test:${httpPort}`)
  })

  it('refuses redirect-style targets to private space without dialing', async () => {
    const net = createGuardedNetwork({ policy: open, lookup })
    await expect(net.request('http://169.254.169.254/latest/meta-data/')).rejects.toBeInstanceOf(TargetBlockedError)
    await expect(net.request('http://metadata.test/')).rejects.toBeInstanceOf(TargetBlockedError)
  })

  it('caps response size and maps failures to upstream errors', async () => {
    const net = createGuardedNetwork({ policy: open, lookup })
    await expect(net.request(`http://127.0.0.1:${httpPort}/big`, { maxBytes: 1000, upstream: 'fake' })).rejects.toMatchObject({
      status: 502,
      details: { upstream: 'fake', reason: 'bad_response' },
    })
    const closedPort = await new Promise<number>((r) => {
      const s = createTcpServer()
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port
        s.close(() => r(p))
      })
    })
    await expect(net.connect({ host: '127.0.0.1', port: closedPort, upstream: 'fake' })).rejects.toMatchObject({ details: { reason: 'refused' } })
    await expect(net.resolve('empty.test')).rejects.toMatchObject({ status: 502 })
  })

  it('times out on a black hole', async () => {
    const hole = createTcpServer(() => {
      /* accept and never answer */
    })
    await new Promise<void>((r) => hole.listen(0, '127.0.0.1', r))
    const net = createGuardedNetwork({ policy: open, lookup })
    const started = Date.now()
    await expect(net.request(`http://127.0.0.1:${(hole.address() as AddressInfo).port}/`, { timeoutMs: 300, upstream: 'hole' })).rejects.toMatchObject({
      details: { upstream: 'hole', reason: 'timeout' },
    })
    expect(Date.now() - started).toBeLessThan(2000)
    hole.close()
  })
})
