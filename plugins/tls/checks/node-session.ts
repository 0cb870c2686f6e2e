import { Duplex } from 'node:stream'
import type { Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import type { ConnectionOptions, SecureVersion, TLSSocket } from 'node:tls'
import { deadline as withDeadline } from '../../../runtime/net/child-signals.ts'
import type { Dial } from '../probe.ts'
import { MAX_FLIGHT_BYTES } from '../server-flight.ts'

// Full handshakes with node:tls for the checks that need a finished handshake
// (client-initiated renegotiation, session resumption, TLS 1.3 tickets): Node's
// OpenSSL does the key exchange, and a tap between it and the socket keeps what
// the server sent (bounded, as every probe's reading is), so a check can read
// post-handshake messages itself with the secrets node:tls logs (keylog).

const CIPHERS = 'ALL:!aNULL:!eNULL:@SECLEVEL=0'
/** How long a close waits for the server to close its side after our close_notify. */
const CLOSE_WAIT_MS = 200

export interface NodeSession {
  socket: TLSSocket
  /** Bytes the server sent, as received (at most MAX_FLIGHT_BYTES). */
  received(): Buffer
  /** NSS key log lines node:tls emitted (SERVER_TRAFFIC_SECRET_0 ...). */
  keylog: string[]
  /** The first resumable session node:tls reported ('session' event: TLS 1.3 tickets), waiting at most `ms`. */
  nextSession(ms: number): Promise<Buffer | undefined>
  /** Resolves when the connection is closed (a per-target slot is free again). */
  closed: Promise<void>
  close(): Promise<void>
}

export interface NodeSessionOptions {
  dial: Dial
  serverName: string | null
  signal: AbortSignal
  timeoutMs: number
  maxVersion: SecureVersion
  minVersion?: SecureVersion
  /** Resume this session (from an earlier NodeSession's getSession() or 'session' event). */
  session?: Buffer
  /** OpenSSL options (SSL_OP_NO_TICKET to ask for resumption by session id). */
  secureOptions?: number
}

/** A tap: the TLS socket talks to this duplex, which copies what the server sends. */
function tapped(raw: Socket, keep: Buffer[]): Duplex {
  let kept = 0
  const tap = new Duplex({
    read() {
      raw.resume()
    },
    write(chunk: Buffer, _encoding, done) {
      raw.write(chunk, done)
    },
    final(done) {
      raw.end()
      done()
    },
    destroy(error, done) {
      raw.destroy()
      done(error)
    },
  })
  raw.on('data', (chunk: Buffer) => {
    if (kept < MAX_FLIGHT_BYTES) {
      keep.push(chunk.subarray(0, MAX_FLIGHT_BYTES - kept))
      kept += chunk.length
    }
    if (!tap.push(chunk)) raw.pause()
  })
  raw.once('end', () => tap.push(null))
  raw.once('close', () => tap.destroy())
  raw.on('error', (error) => tap.destroy(error))
  return tap
}

/** A finished handshake, or the error it failed with (already an Error with OpenSSL's message). */
export async function nodeSession(o: NodeSessionOptions): Promise<NodeSession> {
  const limit = withDeadline(o.signal, o.timeoutMs)
  let raw: Socket
  try {
    raw = await o.dial(limit.signal)
  } catch (error) {
    limit.clear()
    throw error
  }
  const closed = new Promise<void>((resolve) => raw.once('close', () => resolve()))
  const chunks: Buffer[] = []
  const keylog: string[] = []
  const options: ConnectionOptions = {
    socket: tapped(raw, chunks),
    ...(o.serverName ? { servername: o.serverName } : {}),
    rejectUnauthorized: false,
    checkServerIdentity: () => undefined,
    minVersion: o.minVersion ?? 'TLSv1',
    maxVersion: o.maxVersion,
    ciphers: CIPHERS,
    ...(o.session ? { session: o.session } : {}),
    ...(o.secureOptions ? { secureOptions: o.secureOptions } : {}),
  }
  const socket = tlsConnect(options)
  socket.on('keylog', (line: Buffer) => keylog.push(line.toString('latin1').trim()))
  // Listened for from the start: TLS 1.3 tickets can arrive with the server's last flight.
  const sessions: Buffer[] = []
  let onSession: (() => void) | null = null
  socket.on('session', (session: Buffer) => {
    sessions.push(session)
    onSession?.()
  })
  const nextSession = (ms: number) =>
    new Promise<Buffer | undefined>((resolve) => {
      if (sessions[0]) return resolve(sessions[0])
      const timer = setTimeout(() => resolve(undefined), ms)
      onSession = () => {
        clearTimeout(timer)
        onSession = null
        // A second ticket may be in the same flight: let it land before the tap is read.
        setImmediate(() => resolve(sessions[0]))
      }
    })
  // A clean close (close_notify): OpenSSL servers drop a session from their
  // cache when the connection ends without one, and resumption by id would fail.
  const close = async () => {
    limit.clear()
    socket.end()
    const quick = setTimeout(() => {
      socket.destroy()
      raw.destroy()
    }, CLOSE_WAIT_MS)
    await closed
    clearTimeout(quick)
  }
  return new Promise<NodeSession>((resolve, reject) => {
    const onAbort = () => socket.destroy(new Error(`no TLS handshake within ${o.timeoutMs} ms`))
    limit.signal.addEventListener('abort', onAbort, { once: true })
    socket.once('secureConnect', () => {
      limit.signal.removeEventListener('abort', onAbort)
      // The deadline keeps running: a check that waits on this session stays bounded by it.
      socket.on('error', () => {})
      resolve({ socket, received: () => Buffer.concat(chunks), keylog, nextSession, closed, close })
    })
    socket.once('error', (error) => {
      limit.signal.removeEventListener('abort', onAbort)
      limit.clear()
      socket.destroy()
      raw.destroy()
      reject(error)
    })
  })
}
