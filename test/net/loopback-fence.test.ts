import dgram from 'node:dgram'
import dns from 'node:dns'
import type { EventEmitter } from 'node:events'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import http2 from 'node:http2'
import https from 'node:https'
import type { AddressInfo, LookupFunction } from 'node:net'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import tls from 'node:tls'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { TestCa } from '../support/certs.ts'
import { createTestCa } from '../support/certs.ts'
import { fenceRefusals } from '../support/loopback-rule.ts'

// The fence (test/support/loopback-only.ts, loaded by vitest before this file)
// against every client the project has. The addresses are documentation ranges
// (RFC 5737, RFC 3849): the fence's own message is the proof it refused them;
// without it the kernel would try (and time out, or say "unreachable" inside
// CI's loopback-only network namespace), which is a different error.

const FENCE = /tests may only use loopback \(test\/support\/loopback-only\.ts\)/
const OFF_BOX = [
  { host: '192.0.2.1', url: '192.0.2.1' },
  { host: '2001:db8::1', url: '[2001:db8::1]' },
  // an IPv4-mapped IPv6 address is the IPv4 host it maps to
  { host: '::ffff:192.0.2.1', url: '[::ffff:192.0.2.1]' },
] as const

/** A socket, a ClientRequest or an HTTP/2 session. */
type Attempt = EventEmitter & { destroy(): unknown }

/**
 * The error a connect attempt ends in, however it is delivered: thrown where it
 * was started, emitted as 'error', or a rejected promise (fetch wraps it as
 * `cause`). Fails if the attempt connects or is still pending after 5 s.
 */
async function refusal(start: () => Attempt | Promise<unknown>): Promise<Error> {
  let started: Attempt | Promise<unknown>
  try {
    started = start()
  } catch (error) {
    return error as Error
  }
  const settled =
    started instanceof Promise
      ? started.then(
          () => new Error('connected'),
          (error: Error) => (error.cause instanceof Error ? error.cause : error),
        )
      : new Promise<Error>((resolve) => {
          started.once('error', resolve)
          for (const event of ['connect', 'secureConnect', 'response']) started.once(event, () => resolve(new Error(`${event}: connected`)))
        })
  const timeout = new Promise<Error>((resolve) => setTimeout(() => resolve(new Error('still pending after 5 s: nothing refused it')), 5000).unref())
  try {
    return await Promise.race([settled, timeout])
  } finally {
    if (!(started instanceof Promise)) started.destroy()
  }
}

const port = (server: net.Server | dgram.Socket) => (server.address() as AddressInfo).port

describe.each(OFF_BOX)('a connect to $host is refused by the fence, before any packet', ({ host, url }) => {
  it.each([
    ['net.connect(options)', () => net.connect({ host, port: 9 })],
    ['net.connect(port, host)', () => net.connect(9, host)],
    ['new net.Socket().connect()', () => new net.Socket().connect({ host, port: 9 })],
    // Node's own normalized form says "no Unix socket" with path: null (the old fence's blind spot)
    ['connect with path: null', () => new net.Socket().connect({ host, port: 9, path: null } as unknown as net.TcpNetConnectOpts)],
    ['connect with path: ""', () => new net.Socket().connect({ host, port: 9, path: '' } as unknown as net.TcpNetConnectOpts)],
    ['http.request (default agent)', () => http.request(`http://${url}:9/`).end()],
    ['http.request (agent: false)', () => http.request({ host, port: 9, agent: false }).end()],
    ['https.request', () => https.request(`https://${url}:9/`).end()],
    ['tls.connect', () => tls.connect({ host, port: 9 })],
    ['http2.connect (https)', () => http2.connect(`https://${url}:9`)],
    ['http2.connect (h2c)', () => http2.connect(`http://${url}:9`)],
    // default ports: fetch refuses port 9 itself ("bad port")
    ['fetch (http)', () => fetch(`http://${url}/`)],
    ['fetch (https)', () => fetch(`https://${url}/`)],
  ])('%s', async (_name, start) => {
    expect((await refusal(start)).message).toMatch(FENCE)
  })

  it('dgram send and connect', async () => {
    const socket = dgram.createSocket(net.isIPv4(host) ? 'udp4' : 'udp6')
    try {
      expect(() => socket.send(Buffer.from('x'), 9, host)).toThrow(FENCE)
      expect(() => socket.send(Buffer.from('x'), 0, 1, 9, host)).toThrow(FENCE)
      expect(() => socket.connect(9, host)).toThrow(FENCE)
    } finally {
      socket.close()
    }
  })
})

describe('hostnames', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it.each([
    ['net.connect', () => net.connect({ host: 'example.com', port: 80 })],
    ['http.request', () => http.request('http://example.com/').end()],
    ['https.request', () => https.request('https://example.com/').end()],
    ['tls.connect', () => tls.connect({ host: 'example.com', port: 443 })],
    ['http2.connect', () => http2.connect('https://example.com')],
    ['fetch', () => fetch('https://example.com/')],
    // no dot-localhost shortcut: getaddrinfo may ask the DNS for it
    ['a name under localhost', () => net.connect({ host: 'sub.localhost', port: 80 })],
    // not an IP literal to Node, so it would go to getaddrinfo
    ['127.1', () => net.connect({ host: '127.1', port: 80 })],
  ])('%s to a name other than localhost is refused before the host resolver is asked', async (_name, start) => {
    const lookup = vi.spyOn(dns, 'lookup')
    expect((await refusal(start)).message).toMatch(FENCE)
    expect(lookup).not.toHaveBeenCalled()
  })

  it('dgram to a name other than localhost is refused', () => {
    const socket = dgram.createSocket('udp4')
    try {
      expect(() => socket.send(Buffer.from('x'), 53, 'example.com')).toThrow(FENCE)
      expect(() => socket.connect(53, 'example.com')).toThrow(FENCE)
    } finally {
      socket.close()
    }
  })

  it.each([
    ['one address', '192.0.2.1', false],
    ['all addresses, one off the box', '127.0.0.1 2001:db8::1', true],
  ])('a name with its own lookup is checked on what the lookup answers: %s', async (_name, answer, all) => {
    const addresses = answer.split(' ').map((address) => ({ address, family: net.isIP(address) }))
    const lookup: LookupFunction = (_host, options, cb) => {
      if (options.all) cb(null, addresses)
      else cb(null, addresses[0]!.address, addresses[0]!.family)
    }
    expect((await refusal(() => net.connect({ host: 'service.test', port: 9, lookup, autoSelectFamily: all }))).message).toMatch(FENCE)
  })
})

describe('loopback still works', () => {
  let ca: TestCa
  let servers: Array<{ close(): unknown }> = []
  let dir: string
  beforeAll(() => {
    ca = createTestCa()
    dir = mkdtempSync(join(tmpdir(), 'infralens-fence-'))
  })
  afterEach(() => {
    for (const server of servers.splice(0)) server.close()
  })
  afterAll(() => {
    ca.close()
    rmSync(dir, { recursive: true, force: true })
  })

  async function listen<T extends net.Server>(server: T, host: string): Promise<T> {
    servers.push(server)
    server.listen(0, host)
    await once(server, 'listening')
    return server
  }
  const text = (socket: net.Socket) => new Promise<string>((resolve, reject) => socket.once('data', (d) => resolve(String(d))).once('error', reject))

  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.8.9.10', '127.8.9.10'],
    ['::1', '::1'],
    ['::1', '0:0:0:0:0:0:0:1'],
    ['127.0.0.1', 'localhost'],
  ])('net.connect: a server on %s reached as %s', async (bind, host) => {
    const server = await listen(net.createServer((c) => c.end('net ok')), bind)
    const socket = net.connect({ host, port: port(server) })
    try {
      expect(await text(socket)).toBe('net ok')
    } finally {
      socket.destroy()
    }
  })

  it('a Unix socket (IPC, no packet leaves), whatever host is given beside the path', async () => {
    const path = join(dir, 'fence.sock')
    servers.push(net.createServer((c) => c.end('ipc ok')).listen(path))
    const socket = net.connect({ path, host: '192.0.2.1' } as net.IpcNetConnectOpts)
    try {
      expect(await text(socket)).toBe('ipc ok')
    } finally {
      socket.destroy()
    }
  })

  it('a name whose own lookup answers loopback', async () => {
    const server = await listen(net.createServer((c) => c.end('pinned ok')), '127.0.0.1')
    const lookup: LookupFunction = (_host, options, cb) => {
      if (options.all) cb(null, [{ address: '127.0.0.1', family: 4 }])
      else cb(null, '127.0.0.1', 4)
    }
    const socket = net.connect({ host: 'service.test', port: port(server), lookup })
    try {
      expect(await text(socket)).toBe('pinned ok')
    } finally {
      socket.destroy()
    }
  })

  it.each(['127.0.0.1', '::1'])('http.request, https.request, tls.connect and fetch on %s', async (bind) => {
    const url = bind.includes(':') ? `[${bind}]` : bind
    const plain = await listen(http.createServer((_req, res) => res.end('http ok')), bind)
    const { key, cert } = ca.issue(['localhost'])
    const secure = await listen(https.createServer({ key, cert }, (_req, res) => res.end('https ok')), bind)

    const get = (send: typeof http.request, target: string, options: https.RequestOptions) =>
      new Promise<string>((resolve, reject) => {
        send(target, options, (res) => {
          let body = ''
          res.on('data', (d) => (body += d)).on('end', () => resolve(body))
        })
          .once('error', reject)
          .end()
      })
    expect(await get(http.request, `http://${url}:${port(plain)}/`, { agent: false })).toBe('http ok')
    expect(await get(https.request, `https://${url}:${port(secure)}/`, { ca: ca.caPem, servername: 'localhost', agent: false })).toBe('https ok')
    expect(await (await fetch(`http://${url}:${port(plain)}/`)).text()).toBe('http ok')

    const socket = tls.connect({ host: bind, port: port(secure), ca: ca.caPem, servername: 'localhost' })
    try {
      await once(socket, 'secureConnect')
      expect(socket.authorized).toBe(true)
    } finally {
      socket.destroy()
    }
  })

  it.each(['127.0.0.1', '::1'])('http2.connect (https and h2c) on %s', async (bind) => {
    const url = bind.includes(':') ? `[${bind}]` : bind
    const { key, cert } = ca.issue(['localhost'])
    const answer = (stream: http2.ServerHttp2Stream) => {
      stream.respond({ ':status': 200 })
      stream.end('h2 ok')
    }
    const secure = http2.createSecureServer({ key, cert }).on('stream', answer)
    const cleartext = http2.createServer().on('stream', answer)
    servers.push(secure, cleartext)
    await Promise.all([once(secure.listen(0, bind), 'listening'), once(cleartext.listen(0, bind), 'listening')])

    for (const [origin, options] of [
      [`https://${url}:${port(secure)}`, { ca: ca.caPem, servername: 'localhost' }],
      [`http://${url}:${port(cleartext)}`, {}],
    ] as const) {
      const session = http2.connect(origin, options)
      try {
        const req = session.request({ ':path': '/' })
        let body = ''
        req.on('data', (d) => (body += d))
        await once(req, 'end')
        expect(body).toBe('h2 ok')
      } finally {
        session.close()
      }
    }
  })

  it.each([
    ['udp4', '127.0.0.1'],
    ['udp6', '::1'],
  ] as const)('dgram send and connect (%s)', async (type, bind) => {
    const server = dgram.createSocket(type)
    server.on('message', (msg, from) => server.send(msg, from.port, from.address))
    servers.push(server)
    server.bind(0, bind)
    await once(server, 'listening')

    const client = dgram.createSocket(type)
    try {
      client.send(Buffer.from('one'), port(server), bind)
      expect(String((await once(client, 'message'))[0])).toBe('one')
      client.connect(port(server), bind)
      await once(client, 'connect')
      client.send(Buffer.from('two'))
      expect(String((await once(client, 'message'))[0])).toBe('two')
    } finally {
      client.close()
    }
  })
})

describe('the refusal count (fenceRefusals)', () => {
  it('counts every refusal, the ones the caller swallows too, and names the last targets', async () => {
    const before = fenceRefusals.count
    expect((await refusal(() => net.connect({ host: '192.0.2.1', port: 9 }))).message).toMatch(FENCE)
    // a client that turns the refusal into its own error (as the service turns it into a 502)
    await fetch('https://[2001:db8::1]/').catch(() => {})
    expect(fenceRefusals.count).toBe(before + 2)
    expect(fenceRefusals.recent.slice(-2).join(' ')).toMatch(/192\.0\.2\.1:9 .*2001:db8::1/)
  })

  it('lets loopback through without counting', async () => {
    const server = net.createServer((s) => s.end())
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const before = fenceRefusals.count
    const socket = net.connect(port(server), '127.0.0.1')
    await once(socket, 'close')
    server.close()
    expect(fenceRefusals.count).toBe(before)
  })
})
