import { createServer } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import { connect } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import { describe, expect, it } from 'vitest'
import { buildClientHello } from '../../plugins/tls/client-hello.ts'
import { Cursor, FlightReader, HANDSHAKE, parseServerHello } from '../../plugins/tls/server-flight.ts'
import { probeHello, probeServedChain } from '../../plugins/tls/probe.ts'
import { issue } from '../support/tls-certs.ts'

// The hand-written TLS bits: ClientHello layout, and reading server flights that
// split and merge handshake messages across records and TCP segments.

function record(type: number, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type, 3, 3, payload.length >> 8, payload.length & 0xff]), payload])
}
function message(type: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type, body.length >> 16, (body.length >> 8) & 0xff, body.length & 0xff]), body])
}
function serverHello(suite: number, version = 0x0303, extensions: Buffer = Buffer.alloc(0)): Buffer {
  return message(2, Buffer.concat([Buffer.from([version >> 8, version & 0xff]), Buffer.alloc(32, 7), Buffer.from([0]), Buffer.from([suite >> 8, suite & 0xff, 0]), Buffer.from([extensions.length >> 8, extensions.length & 0xff]), extensions]))
}

describe('ClientHello', () => {
  it('TLS 1.2: one record, the suites offered, SNI, no supported_versions', () => {
    const { record: rec, message: msg } = buildClientHello({ versions: [0x0303], suites: [0xc02f, 0x009c], serverName: 'host.test' })
    expect(rec.subarray(0, 3)).toEqual(Buffer.from([22, 3, 1]))
    expect(rec.readUInt16BE(3)).toBe(msg.length)
    const c = new Cursor(msg.subarray(4))
    expect(c.u16()).toBe(0x0303)
    c.bytes(32)
    expect(c.vec8()).toHaveLength(32)
    expect(c.vec16()).toEqual(Buffer.from([0xc0, 0x2f, 0x00, 0x9c]))
    c.vec8()
    const ext = new Cursor(c.vec16())
    const types: number[] = []
    while (ext.remaining) {
      types.push(ext.u16())
      ext.vec16()
    }
    expect(types).toContain(0)
    expect(types).not.toContain(43)
  })

  it('TLS 1.3: supported_versions and key shares; IP literals get no SNI; SSLv3 has no extensions', () => {
    const hello = buildClientHello({ versions: [0x0304], suites: [0x1301], serverName: '192.0.2.1', keyShares: [{ group: 29, key: Buffer.alloc(32, 1) }] })
    expect(hello.message.includes(Buffer.from([0, 43, 0, 3, 2, 3, 4]))).toBe(true)
    expect(hello.message.includes(Buffer.from('192.0.2.1'))).toBe(false)
    const ssl3 = buildClientHello({ versions: [0x0300], suites: [0x000a], serverName: 'a.test' })
    expect(ssl3.record.subarray(0, 3)).toEqual(Buffer.from([22, 3, 0]))
    expect(ssl3.message.length).toBe(4 + 2 + 32 + 1 + 2 + 4 + 2)
  })
})

describe('FlightReader', () => {
  it('messages split across records and merged in one record, fed a byte at a time', () => {
    const hello = serverHello(0xc02f)
    const cert = message(11, Buffer.alloc(300, 9))
    const done = message(14, Buffer.alloc(0))
    const bytes = Buffer.concat([record(22, hello.subarray(0, 10)), record(22, Buffer.concat([hello.subarray(10), cert.subarray(0, 100)])), record(22, Buffer.concat([cert.subarray(100), done]))])
    const reader = new FlightReader()
    for (const b of bytes) reader.push(Buffer.from([b]))
    expect(reader.messages.map((m) => m.type)).toEqual([HANDSHAKE.serverHello, HANDSHAKE.certificate, HANDSHAKE.serverHelloDone])
    expect(parseServerHello(reader.messages[0]!.body)).toMatchObject({ version: 0x0303, suite: 0xc02f, retry: false })
  })

  it('alerts, and bytes that are not TLS', () => {
    const reader = new FlightReader()
    reader.push(record(21, Buffer.from([2, 40])))
    expect(reader.alert).toEqual({ level: 2, description: 40 })
    const http = new FlightReader()
    http.push(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'))
    expect(http.notTls).toBe(true)
  })

  it('supported_versions in the ServerHello decides the version', () => {
    const hello = parseServerHello(serverHello(0x1301, 0x0303, Buffer.from([0, 43, 0, 2, 3, 4])).subarray(4))
    expect(hello.version).toBe(0x0304)
  })
})

describe('probeHello against scripted servers', () => {
  async function scripted(reply: (socket: Socket) => void) {
    const server = createServer((socket) => socket.once('data', () => reply(socket)))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const dial = () => new Promise<Socket>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port })
      s.once('connect', () => resolve(s))
      s.once('error', reject)
    })
    return { dial, close: () => new Promise((resolve) => server.close(resolve)) }
  }
  const probe = { versions: [0x0303], suites: [0xc02f, 0xc030], serverName: 'x.test' }

  it('accepted, refused with an alert, hung up on, reset, silent, not TLS', async () => {
    const cases: Array<[(s: Socket) => void, unknown]> = [
      [(s) => s.write(record(22, serverHello(0xc030))), { kind: 'accepted', hello: expect.objectContaining({ suite: 0xc030 }) }],
      [(s) => s.end(record(21, Buffer.from([2, 40]))), { kind: 'rejected', alert: 'handshake_failure' }],
      [(s) => s.end(), { kind: 'rejected', alert: null }],
      [(s) => s.resetAndDestroy(), { kind: 'rejected', alert: null }],
      [() => {}, { kind: 'failed', reason: 'timeout' }],
      [(s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n'), { kind: 'failed', reason: 'not_tls' }],
    ]
    for (const [reply, expected] of cases) {
      const server = await scripted(reply)
      try {
        expect(await probeHello(server.dial, probe, 300, new AbortController().signal)).toMatchObject(expected as object)
      } finally {
        await server.close()
      }
    }
  })
})

describe('TLS 1.3 certificate probe', () => {
  it('decrypts the server flight with each suite it offers (AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305)', async () => {
    const ca = issue({ subject: { cn: 'Wire Root' }, ca: true })
    const leaf = issue({ subject: { cn: 'wire.test' }, issuer: ca, dns: ['wire.test'] })
    for (const [suite, code] of [['TLS_AES_128_GCM_SHA256', 0x1301], ['TLS_AES_256_GCM_SHA384', 0x1302], ['TLS_CHACHA20_POLY1305_SHA256', 0x1303]] as const) {
      const server = createTlsServer({ key: leaf.key.pem, cert: leaf.pem + ca.pem, minVersion: 'TLSv1.3', ciphers: suite }, (s) => s.end())
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const port = (server.address() as AddressInfo).port
      const dial = () => new Promise<Socket>((resolve, reject) => {
        const s = connect({ host: '127.0.0.1', port })
        s.once('connect', () => resolve(s))
        s.once('error', reject)
      })
      try {
        const { chain } = await probeServedChain(dial, 'wire.test', [], 2000, new AbortController().signal)
        expect(chain, suite).toMatchObject({ version: 0x0304, suite: code, group: 29 })
        expect(chain!.certificates.map((der) => der.equals(leaf.der) ? 'leaf' : der.equals(ca.der) ? 'root' : '?')).toEqual(['leaf', 'root'])
      } finally {
        await new Promise((resolve) => server.close(resolve))
      }
    }
  })
})
