import type { Socket } from 'node:net'
import { deadline as withDeadline } from '../../runtime/net/child-signals.ts'
import type { ClientHello, ClientHelloOptions } from './client-hello.ts'
import { buildClientHello } from './client-hello.ts'
import type { CertificateEntry, ServerHello } from './server-flight.ts'
import { ALERTS, FlightReader, HANDSHAKE, parseCertificateMessage, parseCertificateStatus, parseServerHello, parseServerKeyExchange } from './server-flight.ts'
import { suiteOf } from './cipher-suites.ts'
import type { ClientKeys } from './tls13-keys.ts'
import { createClientKeys, DECRYPTABLE_TLS13, serverHandshakeDecrypter } from './tls13-keys.ts'

// One exchange with a server: send a ClientHello on a fresh vetted socket, read
// until we know what we came for, hang up. Enumeration stops at the ServerHello;
// the certificate probe reads on to the Certificate message (decrypting it in TLS 1.3).

/** Opens a vetted TCP connection to the target (the guarded network decides where it may go). */
export type Dial = (signal: AbortSignal) => Promise<Socket>

export type HelloOutcome =
  | { kind: 'accepted'; hello: ServerHello }
  /** The server refused: an alert, or it hung up. */
  | { kind: 'rejected'; alert: string | null }
  /** Not an answer about the hello: timeout, reset, something that is not TLS. */
  | { kind: 'failed'; reason: FailureReason; message: string }

export type FailureReason = 'timeout' | 'refused' | 'reset' | 'not_tls' | 'malformed' | 'network'

interface Exchange {
  reader: FlightReader
  outcome: HelloOutcome
}

function run(dial: Dial, hello: ClientHello, timeoutMs: number, signal: AbortSignal, enough: (reader: FlightReader) => boolean, onHello?: (reader: FlightReader, hello: ServerHello) => void): Promise<Exchange> {
  const limit = withDeadline(signal, timeoutMs)
  const deadline = limit.signal
  return new Promise((resolve) => {
    const reader = new FlightReader()
    let socket: Socket | null = null
    let done = false
    let seenHello: ServerHello | null = null
    const finish = (outcome: HelloOutcome) => {
      if (done) return
      done = true
      limit.clear()
      deadline.removeEventListener('abort', onAbort)
      socket?.destroy()
      resolve({ reader, outcome })
    }
    let helloError: string | null = null
    reader.onMessage = (message) => {
      if (message.type !== HANDSHAKE.serverHello || seenHello || helloError) return
      try {
        seenHello = parseServerHello(message.body)
      } catch (error) {
        helloError = `malformed ServerHello: ${(error as Error).message}`
        return
      }
      onHello?.(reader, seenHello)
    }
    const settleFromReader = (ended: boolean) => {
      if (reader.notTls) return finish({ kind: 'failed', reason: 'not_tls', message: 'the server did not answer with TLS' })
      if (helloError) return finish({ kind: 'failed', reason: 'malformed', message: helloError })
      if (seenHello && (enough(reader) || reader.alert || reader.malformed || ended)) return finish({ kind: 'accepted', hello: seenHello })
      if (reader.malformed) return finish({ kind: 'failed', reason: 'malformed', message: reader.malformed })
      if (!seenHello && reader.alert) return finish({ kind: 'rejected', alert: ALERTS[reader.alert.description] ?? `alert ${reader.alert.description}` })
      if (ended) finish({ kind: 'rejected', alert: null })
    }
    const onAbort = () =>
      finish(seenHello ? { kind: 'accepted', hello: seenHello } : { kind: 'failed', reason: 'timeout', message: `no answer within ${timeoutMs} ms` })
    deadline.addEventListener('abort', onAbort, { once: true })
    dial(deadline).then(
      (s) => {
        if (done) return void s.destroy()
        socket = s
        s.on('data', (chunk: Buffer) => {
          reader.push(chunk)
          settleFromReader(false)
        })
        s.once('end', () => settleFromReader(true))
        s.once('close', () => settleFromReader(true))
        s.once('error', (error: NodeJS.ErrnoException) => {
          if (seenHello) return finish({ kind: 'accepted', hello: seenHello })
          // A reset right after the hello is how some servers say no.
          if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return finish({ kind: 'rejected', alert: null })
          finish({ kind: 'failed', reason: 'network', message: error.message })
        })
        s.write(hello.record)
      },
      (error: Error) => {
        const reason = (error as { details?: { reason?: string } }).details?.reason
        // A STARTTLS dialogue that went wrong (dial() speaks it) is a port that does not lead to TLS.
        const failure: FailureReason = deadline.aborted ? 'timeout' : reason === 'refused' ? 'refused' : reason === 'bad_response' ? 'not_tls' : 'network'
        finish({ kind: 'failed', reason: failure, message: error.message })
      },
    )
  })
}

export interface HelloProbe {
  versions: readonly number[]
  suites: readonly number[]
  serverName: string | null
}

/** Which suite (and version) the server picks from what we offer, or that it refuses. */
export async function probeHello(dial: Dial, probe: HelloProbe, timeoutMs: number, signal: AbortSignal): Promise<HelloOutcome> {
  const keyShares = probe.versions.includes(0x0304) ? SHARED_KEYS.shares : []
  const hello = buildClientHello({ ...probe, keyShares })
  const { outcome } = await run(dial, hello, timeoutMs, signal, () => true)
  return outcome
}

export interface HelloExchange {
  reader: FlightReader
  outcome: HelloOutcome
  /** The server chose TLS 1.3 and its encrypted flight is being decrypted (keys were given and fit). */
  decrypting: boolean
}

/**
 * One ClientHello of any shape (client-hello.ts options), read until `enough`.
 * With `keys` (whose shares the hello must carry), a TLS 1.3 server's encrypted
 * flight is decrypted as it arrives, for the probes that read past the ServerHello.
 */
export async function exchangeHello(dial: Dial, options: ClientHelloOptions, timeoutMs: number, signal: AbortSignal, enough: (reader: FlightReader) => boolean, keys?: ClientKeys): Promise<HelloExchange> {
  const hello = buildClientHello(options)
  let decrypting = false
  let unreadable = false
  const { reader, outcome } = await run(
    dial,
    hello,
    timeoutMs,
    signal,
    (r) => unreadable || enough(r),
    (r, serverHello) => {
      if (serverHello.version !== 0x0304 || !keys) return
      r.decrypter = serverHello.retry ? null : serverHandshakeDecrypter(keys, serverHello, hello.message, r.find(HANDSHAKE.serverHello)!.raw)
      decrypting = r.decrypter !== null
      unreadable = !decrypting
    },
  )
  return { reader, outcome, decrypting }
}

// Enumeration never decrypts: one set of public shares serves every probe (the
// server needs a well-formed share to answer without a retry, nothing more).
const SHARED_KEYS: ClientKeys = createClientKeys()

export interface ServedChain {
  version: number
  suite: number
  /** Certificates in the order the server sent them. */
  certificates: Buffer[]
  /** The stapled OCSP response, if the server sent one. */
  ocsp: Buffer | null
  /** Signed certificate timestamps the server sent in the handshake (TLS extension), counted. */
  tls_sct_count: number
  /** ECDHE group (TLS 1.2 ServerKeyExchange or the TLS 1.3 key share). */
  group: number | null
  /** Prime size of a finite-field DHE exchange. */
  dh_bits: number | null
}

function countScts(list: Buffer | undefined): number {
  if (!list || list.length < 2) return 0
  let n = 0
  for (let at = 2; at + 2 <= list.length; at += 2 + list.readUInt16BE(at)) n++
  return n
}

/**
 * The certificate chain exactly as the server sends it: one hello offering TLS
 * 1.0-1.3 (TLS 1.3 only with suites we can decrypt) and asking for a stapled
 * OCSP response. Null when the server picked nothing we can read.
 */
export async function probeServedChain(dial: Dial, serverName: string | null, legacySuites: readonly number[], timeoutMs: number, signal: AbortSignal): Promise<{ chain: ServedChain | null; outcome: HelloOutcome }> {
  const keys = createClientKeys()
  const hello = buildClientHello({
    versions: [0x0304, 0x0303, 0x0302, 0x0301],
    suites: [...Object.keys(DECRYPTABLE_TLS13).map(Number), ...legacySuites],
    serverName,
    keyShares: keys.shares,
    statusRequest: true,
  })
  let tls13 = false
  // A retry request, or a suite we cannot decrypt: nothing more will be readable.
  let unreadable = false
  const { reader, outcome } = await run(
    dial,
    hello,
    timeoutMs,
    signal,
    (r) => unreadable || (tls13 ? r.find(HANDSHAKE.certificate) !== undefined : r.find(HANDSHAKE.serverHelloDone) !== undefined),
    (r, serverHello) => {
      tls13 = serverHello.version === 0x0304
      if (!tls13) return
      r.decrypter = serverHello.retry ? null : serverHandshakeDecrypter(keys, serverHello, hello.message, r.find(HANDSHAKE.serverHello)!.raw)
      unreadable = r.decrypter === null
    },
  )
  if (outcome.kind !== 'accepted') return { chain: null, outcome }
  const message = reader.find(HANDSHAKE.certificate)
  if (!message) return { chain: null, outcome }
  let entries: CertificateEntry[]
  try {
    entries = parseCertificateMessage(message.body, tls13)
  } catch {
    return { chain: null, outcome }
  }
  const serverHello = outcome.hello
  let ocsp: Buffer | null = null
  let group: number | null = null
  let dhBits: number | null = null
  let scts = countScts(serverHello.extensions.get(18))
  if (tls13) {
    const status = entries[0]?.extensions.get(5)
    ocsp = status ? safe(() => parseCertificateStatus(status)) : null
    scts += countScts(entries[0]?.extensions.get(18))
    const share = serverHello.extensions.get(51)
    group = share && share.length >= 2 ? share.readUInt16BE(0) : null
  } else {
    const status = reader.find(HANDSHAKE.certificateStatus)
    ocsp = status ? safe(() => parseCertificateStatus(status.body)) : null
    const kx = reader.find(HANDSHAKE.serverKeyExchange)
    if (kx) ({ group, dh_bits: dhBits } = parseServerKeyExchange(kx.body, suiteOf(serverHello.suite).key_exchange))
  }
  return {
    chain: { version: serverHello.version, suite: serverHello.suite, certificates: entries.map((e) => e.der), ocsp, tls_sct_count: scts, group, dh_bits: dhBits },
    outcome,
  }
}

function safe<T>(f: () => T): T | null {
  try {
    return f()
  } catch {
    return null
  }
}
