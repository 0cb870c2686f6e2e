// A TLS server that only plays the first flight, for the checks no real server
// on these machines can fail or pass (issue 24): Heartbleed and CCS injection
// (no OpenSSL here has either bug), TLS compression and a server that ignores
// TLS_FALLBACK_SCSV or lacks RFC 5746, and post-quantum groups (no OpenSSL here
// has ML-KEM: the fake answers a TLS 1.3 hello offering X25519MLKEM768 with a
// HelloRetryRequest for it, as a server that has it does when no share is sent).
// Written for these tests from the RFCs (5246, 5746, 6520, 7507, 8446); it never
// finishes a handshake. Its "vulnerable" heartbeat echoes payload_length bytes
// from the request record, as OpenSSL 1.0.1f did, but only from the bytes it
// received: it has no memory to leak.

import { constants, privateDecrypt, randomBytes } from 'node:crypto'
import type { KeyObject } from 'node:crypto'
import { createServer } from 'node:net'
import type { Server, Socket } from 'node:net'

export interface FlawOptions {
  /** Highest version (TLS <= 1.2 flights; 0x0304 adds TLS 1.3 HelloRetryRequests). */
  maxVersion?: number
  /** Versions below this are refused with protocol_version. */
  minVersion?: number
  heartbeat?: 'none' | 'patched' | 'vulnerable'
  ccs?: 'patched' | 'vulnerable'
  /** Chooses DEFLATE when offered. */
  compression?: boolean
  /** Answers renegotiation_info (RFC 5746); default true. */
  secureRenegotiation?: boolean
  /** Refuses a lower-version hello carrying TLS_FALLBACK_SCSV; default true. */
  fallbackScsv?: boolean
  /** TLS 1.3 groups it takes, in its order of preference (HelloRetryRequest for the first offered). */
  groups13?: readonly number[]
  /**
   * ROBOT: `oracle` tells bad RSA premaster paddings apart by its alerts (wrong
   * first bytes: decrypt_error; other padding faults: handshake_failure; a good
   * one: it waits for Finished, which then fails); `sound` treats all alike.
   * Needs `privateKey` (the leaf's).
   */
  robot?: 'oracle' | 'sound'
  privateKey?: KeyObject
  /** Certificates to send (DER), leaf first. */
  certificates: readonly Buffer[]
}

export interface FlawServer {
  host: string
  port: number
  /** Heartbeat responses sent, and CCS records taken. */
  stats: { heartbeats: number; ccsTaken: number; hellos: number }
  close(): Promise<void>
}

const SUITES = [0x009c, 0x002f, 0x0035] // RSA key transport: no ServerKeyExchange to sign
const TLS13_SUITES = [0x1301, 0x1302, 0x1303]
const HRR_RANDOM = Buffer.from('cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c', 'hex')

const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff])
const u24 = (n: number) => Buffer.from([n >> 16, (n >> 8) & 0xff, n & 0xff])
const vec8 = (b: Buffer) => Buffer.concat([Buffer.from([b.length]), b])
const vec16 = (b: Buffer) => Buffer.concat([u16(b.length), b])
const vec24 = (b: Buffer) => Buffer.concat([u24(b.length), b])
const record = (type: number, version: number, body: Buffer) => Buffer.concat([Buffer.from([type]), u16(version), u16(body.length), body])
const handshake = (type: number, body: Buffer) => Buffer.concat([Buffer.from([type]), vec24(body)])
const alert = (version: number, description: number) => record(21, version, Buffer.from([2, description]))
const extension = (type: number, data: Buffer) => Buffer.concat([u16(type), vec16(data)])

interface Hello {
  version: number
  sessionId: Buffer
  suites: number[]
  compression: number[]
  extensions: Map<number, Buffer>
}

function parseHello(body: Buffer): Hello {
  let at = 0
  const version = body.readUInt16BE(at)
  at += 2 + 32
  const sessionId = body.subarray(at + 1, at + 1 + body[at]!)
  at += 1 + body[at]!
  const suitesLength = body.readUInt16BE(at)
  const suites: number[] = []
  for (let i = 0; i < suitesLength; i += 2) suites.push(body.readUInt16BE(at + 2 + i))
  at += 2 + suitesLength
  const compression = [...body.subarray(at + 1, at + 1 + body[at]!)]
  at += 1 + body[at]!
  const extensions = new Map<number, Buffer>()
  if (at + 2 <= body.length) {
    const end = at + 2 + body.readUInt16BE(at)
    at += 2
    while (at + 4 <= end) {
      const type = body.readUInt16BE(at)
      const length = body.readUInt16BE(at + 2)
      extensions.set(type, body.subarray(at + 4, at + 4 + length))
      at += 4 + length
    }
  }
  return { version, sessionId, suites, compression, extensions }
}

const list16 = (data: Buffer | undefined, skip: number) => {
  const out: number[] = []
  if (!data) return out
  for (let i = skip; i + 1 < data.length; i += 2) out.push(data.readUInt16BE(i))
  return out
}

function session(socket: Socket, o: FlawOptions, stats: FlawServer['stats']): void {
  let buffer = Buffer.alloc(0)
  let version = 0x0303
  let flightSent = false
  let ccsTaken = false
  let keyExchanged = false
  const send = (b: Buffer) => void socket.write(b)
  const fail = (description: number) => {
    send(alert(version, description))
    socket.end()
  }
  const onHello = (h: Hello) => {
    stats.hellos++
    const supported = list16(h.extensions.get(43), 1)
    const max = o.maxVersion ?? 0x0303
    if (supported.includes(0x0304) && max >= 0x0304) {
      version = 0x0303
      const groups = list16(h.extensions.get(10), 2)
      const group = (o.groups13 ?? []).find((g) => groups.includes(g))
      const suite = h.suites.find((s) => TLS13_SUITES.includes(s))
      if (group === undefined || suite === undefined) return fail(40)
      const hrr = Buffer.concat([u16(0x0303), HRR_RANDOM, vec8(h.sessionId), u16(suite), Buffer.from([0]), vec16(Buffer.concat([extension(43, u16(0x0304)), extension(51, u16(group))]))])
      send(record(22, 0x0303, handshake(2, hrr)))
      return void socket.end()
    }
    const top = Math.min(h.version, max, 0x0303)
    version = top
    if (top < (o.minVersion ?? 0x0301)) return fail(70)
    if ((o.fallbackScsv ?? true) && h.suites.includes(0x5600) && top < max) return fail(86)
    const suite = h.suites.find((s) => SUITES.includes(s))
    if (suite === undefined) return fail(40)
    const extensions: Buffer[] = []
    if ((o.secureRenegotiation ?? true) && (h.extensions.has(0xff01) || h.suites.includes(0x00ff))) extensions.push(extension(0xff01, Buffer.from([0])))
    if (h.extensions.has(15) && (o.heartbeat ?? 'none') !== 'none') extensions.push(extension(15, Buffer.from([1])))
    const method = o.compression && h.compression.includes(1) ? 1 : 0
    const serverHello = Buffer.concat([u16(top), randomBytes(32), vec8(randomBytes(32)), u16(suite), Buffer.from([method]), ...(extensions.length ? [vec16(Buffer.concat(extensions))] : [])])
    const certificate = vec24(Buffer.concat(o.certificates.map((der) => vec24(der))))
    send(record(22, top, Buffer.concat([handshake(2, serverHello), handshake(11, certificate), handshake(14, Buffer.alloc(0))])))
    flightSent = true
  }
  const onRecord = (type: number, body: Buffer) => {
    if (!flightSent) {
      if (type === 22 && body[0] === 1) return onHello(parseHello(body.subarray(4, 4 + body.readUIntBE(1, 3))))
      return fail(10)
    }
    if (type === 24) {
      if (o.heartbeat === undefined || o.heartbeat === 'none' || body[0] !== 1 || body.length < 3) return
      const claimed = body.readUInt16BE(1)
      // RFC 6520 §4 (the 1.0.1g fix): a request whose payload and 16 bytes of padding do not fit the record is discarded.
      if (o.heartbeat === 'patched' && 3 + claimed + 16 > body.length) return
      const echoed = Buffer.alloc(claimed)
      body.copy(echoed, 0, 3, Math.min(body.length, 3 + claimed))
      stats.heartbeats++
      return send(record(24, version, Buffer.concat([Buffer.from([2]), u16(claimed), echoed, randomBytes(16)])))
    }
    if (type === 22 && body[0] === 16 && o.robot && o.privateKey && !keyExchanged) {
      keyExchanged = true
      const encrypted = body.subarray(6, 6 + body.readUInt16BE(4))
      const padded = privateDecrypt({ key: o.privateKey, padding: constants.RSA_NO_PADDING }, encrypted)
      const separator = padded.indexOf(0, 2)
      const wellFormed = padded[0] === 0 && padded[1] === 2 && separator >= 10 && padded.length - separator - 1 === 48
      if (o.robot === 'oracle' && !(padded[0] === 0 && padded[1] === 2)) return fail(51)
      if (o.robot === 'oracle' && !wellFormed) return fail(40)
      return // a premaster (random in its place when malformed, as RFC 5246 §7.4.7.1 asks): wait for Finished
    }
    if (type === 20 && keyExchanged) {
      ccsTaken = true
      return
    }
    if (type === 20) {
      if (o.ccs !== 'vulnerable') return fail(10)
      if (!ccsTaken) {
        ccsTaken = true
        stats.ccsTaken++
        return
      }
      return fail(20) // "encrypted" under keys from an empty master secret: nothing authenticates
    }
    if (ccsTaken) return fail(20)
    return fail(10)
  }
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    while (buffer.length >= 5 && !socket.destroyed) {
      const length = buffer.readUInt16BE(3)
      if (buffer.length < 5 + length) return
      const type = buffer[0]!
      const body = buffer.subarray(5, 5 + length)
      buffer = buffer.subarray(5 + length)
      onRecord(type, body)
    }
  })
  socket.on('error', () => {})
}

export async function startFlawServer(o: FlawOptions, host = '127.0.0.1'): Promise<FlawServer> {
  const sockets = new Set<Socket>()
  const stats = { heartbeats: 0, ccsTaken: 0, hellos: 0 }
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    session(socket, o, stats)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve())
  })
  return {
    host,
    port: (server.address() as { port: number }).port,
    stats,
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
