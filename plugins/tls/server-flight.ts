// Reads what a server sends back to a ClientHello: TLS records, the handshake
// messages inside them (which may span records or share one), alerts, and — once
// a TLS 1.3 decrypter is installed — the encrypted part of the flight.

export const CONTENT = { changeCipherSpec: 20, alert: 21, handshake: 22, applicationData: 23, heartbeat: 24 } as const
export const HANDSHAKE = {
  serverHello: 2,
  encryptedExtensions: 8,
  certificate: 11,
  serverKeyExchange: 12,
  certificateRequest: 13,
  serverHelloDone: 14,
  certificateVerify: 15,
  finished: 20,
  certificateStatus: 22,
  newSessionTicket: 4,
} as const

/**
 * What one exchange reads from a server at most. A certificate chain is rarely
 * over 20 KB; a hostile server that streams records (or announces a 16 MB
 * handshake message and feeds it) is cut off here instead of filling memory.
 */
export const MAX_FLIGHT_BYTES = 256 * 1024

// SHA-256("HelloRetryRequest"): the ServerHello.random of a HelloRetryRequest (RFC 8446 §4.1.3).
const HRR_RANDOM = Buffer.from('cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c', 'hex')

export interface HandshakeMessage {
  type: number
  body: Buffer
  /** Header and body, as hashed into the transcript. */
  raw: Buffer
}

export interface ServerHello {
  /** The negotiated version: supported_versions when present, else the legacy field. */
  version: number
  suite: number
  compression: number
  extensions: Map<number, Buffer>
  retry: boolean
}

/** Decrypts one TLS 1.3 record: inner content type and plaintext, or throws. */
export type RecordDecrypter = (header: Buffer, payload: Buffer) => { type: number; data: Buffer }

export class FlightReader {
  private pending: Buffer = Buffer.alloc(0)
  private handshakeBytes: Buffer = Buffer.alloc(0)
  readonly messages: HandshakeMessage[] = []
  alert: { level: number; description: number } | null = null
  /** The first bytes were not a TLS record: the port speaks something else. */
  notTls = false
  /** A record or message could not be parsed or decrypted. */
  malformed: string | null = null
  decrypter: RecordDecrypter | null = null
  /** Bytes received so far (bounded by MAX_FLIGHT_BYTES). */
  received = 0
  /**
   * Heartbeat records (RFC 6520) go here and nowhere else: they are never kept,
   * so the only code that sees one is the Heartbleed check's, which looks at the
   * bytes it sent itself (checks/heartbleed.ts).
   */
  onHeartbeat: ((payload: Buffer) => void) | null = null
  /** ChangeCipherSpec records seen (session resumption, the CCS check). */
  changeCipherSpecs = 0
  /**
   * Called as each handshake message completes, before the next record is read:
   * the ServerHello hook installs the TLS 1.3 decrypter in time for the records
   * that follow it in the same TCP segment.
   */
  onMessage: ((message: HandshakeMessage) => void) | null = null

  push(chunk: Buffer): void {
    if (this.notTls || this.malformed) return
    this.received += chunk.length
    if (this.received > MAX_FLIGHT_BYTES) {
      this.malformed = `the server sent more than ${MAX_FLIGHT_BYTES} bytes`
      this.pending = Buffer.alloc(0)
      return
    }
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk
    while (this.pending.length >= 5 && !this.notTls && !this.malformed) {
      const type = this.pending[0]!
      const major = this.pending[1]!
      const length = this.pending.readUInt16BE(3)
      if (type < 20 || type > 24 || major !== 3 || length > 18_432) {
        if (this.messages.length === 0 && !this.alert) this.notTls = true
        else this.malformed = `unexpected record header ${this.pending.subarray(0, 5).toString('hex')}`
        return
      }
      if (this.pending.length < 5 + length) return
      const header = this.pending.subarray(0, 5)
      const payload = this.pending.subarray(5, 5 + length)
      this.pending = this.pending.subarray(5 + length)
      this.record(type, header, payload)
    }
  }

  private record(type: number, header: Buffer, payload: Buffer): void {
    if (type === CONTENT.applicationData && this.decrypter) {
      try {
        const inner = this.decrypter(header, payload)
        this.content(inner.type, inner.data)
      } catch (error) {
        this.malformed = `could not decrypt the server's handshake: ${(error as Error).message}`
      }
      return
    }
    this.content(type, payload)
  }

  private content(type: number, data: Buffer): void {
    if (type === CONTENT.heartbeat) return void this.onHeartbeat?.(data)
    if (type === CONTENT.changeCipherSpec) return void this.changeCipherSpecs++
    if (type === CONTENT.alert) {
      if (data.length >= 2) this.alert ??= { level: data[0]!, description: data[1]! }
      return
    }
    if (type !== CONTENT.handshake) return
    this.handshakeBytes = this.handshakeBytes.length ? Buffer.concat([this.handshakeBytes, data]) : data
    while (this.handshakeBytes.length >= 4) {
      const length = this.handshakeBytes.readUIntBE(1, 3)
      if (this.handshakeBytes.length < 4 + length) return
      const raw = this.handshakeBytes.subarray(0, 4 + length)
      const message = { type: raw[0]!, body: raw.subarray(4), raw }
      this.messages.push(message)
      this.handshakeBytes = this.handshakeBytes.subarray(4 + length)
      this.onMessage?.(message)
    }
  }

  find(type: number): HandshakeMessage | undefined {
    return this.messages.find((m) => m.type === type)
  }
}

/** A cursor over a message body; reading past the end throws (a malformed message). */
export class Cursor {
  private at = 0
  constructor(private readonly buf: Buffer) {}
  get remaining(): number {
    return this.buf.length - this.at
  }
  private take(n: number): Buffer {
    if (this.at + n > this.buf.length) throw new RangeError('message ends early')
    const out = this.buf.subarray(this.at, this.at + n)
    this.at += n
    return out
  }
  u8(): number {
    return this.take(1)[0]!
  }
  u16(): number {
    return this.take(2).readUInt16BE(0)
  }
  u24(): number {
    return this.take(3).readUIntBE(0, 3)
  }
  bytes(n: number): Buffer {
    return this.take(n)
  }
  vec8(): Buffer {
    return this.take(this.u8())
  }
  vec16(): Buffer {
    return this.take(this.u16())
  }
  vec24(): Buffer {
    return this.take(this.u24())
  }
}

export function parseServerHello(body: Buffer): ServerHello {
  const c = new Cursor(body)
  const legacy = c.u16()
  const random = c.bytes(32)
  c.vec8() // session id
  const suite = c.u16()
  const compression = c.u8()
  const extensions = new Map<number, Buffer>()
  if (c.remaining >= 2) {
    const ext = new Cursor(c.vec16())
    while (ext.remaining >= 4) {
      const type = ext.u16()
      extensions.set(type, ext.vec16())
    }
  }
  const supported = extensions.get(43)
  const version = supported && supported.length === 2 ? supported.readUInt16BE(0) : legacy
  return { version, suite, compression, extensions, retry: random.equals(HRR_RANDOM) }
}

export interface CertificateEntry {
  der: Buffer
  /** TLS 1.3 per-certificate extensions (status_request: 5, SCTs: 18). */
  extensions: Map<number, Buffer>
}

/** The Certificate message: TLS 1.3 has a request context and per-entry extensions. */
export function parseCertificateMessage(body: Buffer, tls13: boolean): CertificateEntry[] {
  const c = new Cursor(body)
  if (tls13) c.vec8()
  const list = new Cursor(c.vec24())
  const out: CertificateEntry[] = []
  while (list.remaining > 0) {
    const der = list.vec24()
    const extensions = new Map<number, Buffer>()
    if (tls13) {
      const ext = new Cursor(list.vec16())
      while (ext.remaining >= 4) {
        const type = ext.u16()
        extensions.set(type, ext.vec16())
      }
    }
    out.push({ der: Buffer.from(der), extensions })
  }
  return out
}

/** The OCSP response in a CertificateStatus message (or a TLS 1.3 status_request entry extension). */
export function parseCertificateStatus(body: Buffer): Buffer | null {
  const c = new Cursor(body)
  return c.u8() === 1 ? Buffer.from(c.vec24()) : null
}

/** What ServerKeyExchange says about the key exchange: the ECDHE group or the DHE prime size. */
export function parseServerKeyExchange(body: Buffer, keyExchange: string): { group: number | null; dh_bits: number | null } {
  try {
    const c = new Cursor(body)
    if (keyExchange === 'ECDHE' || keyExchange === 'ECDHE_PSK') {
      if (keyExchange === 'ECDHE_PSK') c.vec16()
      return c.u8() === 3 ? { group: c.u16(), dh_bits: null } : { group: null, dh_bits: null }
    }
    if (keyExchange === 'DHE' || keyExchange === 'DHE_PSK') {
      if (keyExchange === 'DHE_PSK') c.vec16()
      const p = c.vec16()
      let bits = p.length * 8
      for (let i = 0; i < p.length && p[i] === 0; i++) bits -= 8
      return { group: null, dh_bits: bits }
    }
  } catch {
    // a malformed message says nothing
  }
  return { group: null, dh_bits: null }
}

/** The signature scheme of a TLS 1.2 ServerKeyExchange (after the ECDHE or DHE parameters), or null. */
export function serverKeyExchangeScheme(body: Buffer, keyExchange: string): number | null {
  try {
    const c = new Cursor(body)
    if (keyExchange === 'ECDHE') {
      if (c.u8() !== 3) return null
      c.u16()
      c.vec8()
    } else if (keyExchange === 'DHE') {
      c.vec16()
      c.vec16()
      c.vec16()
    } else return null
    return c.remaining >= 4 ? c.u16() : null
  } catch {
    return null
  }
}

/** The group a HelloRetryRequest asks for (its key_share holds just the group), or a ServerHello's share's group. */
export function keyShareGroup(hello: ServerHello): number | null {
  const share = hello.extensions.get(51)
  return share && share.length >= 2 ? share.readUInt16BE(0) : null
}

export interface NewSessionTicket {
  lifetime_s: number
  ticket_bytes: number
  /** max_early_data_size of the ticket's early_data extension (RFC 8446 §4.6.1), null without one. */
  max_early_data: number | null
}

/** A TLS 1.3 NewSessionTicket message body (RFC 8446 §4.6.1). */
export function parseNewSessionTicket(body: Buffer): NewSessionTicket {
  const c = new Cursor(body)
  const lifetime = c.bytes(4).readUInt32BE(0)
  c.bytes(4) // ticket_age_add
  c.vec8() // nonce
  const ticket = c.vec16()
  const ext = new Cursor(c.vec16())
  let early: number | null = null
  while (ext.remaining >= 4) {
    const type = ext.u16()
    const data = ext.vec16()
    if (type === 42 && data.length === 4) early = data.readUInt32BE(0)
  }
  return { lifetime_s: lifetime, ticket_bytes: ticket.length, max_early_data: early }
}

/** The first alert a reader has seen (a function, so a caller's earlier check does not narrow it for good). */
export function alertOf(reader: FlightReader): { level: number; description: number } | null {
  return reader.alert
}

export const ALERTS: Record<number, string> = {
  0: 'close_notify', 10: 'unexpected_message', 20: 'bad_record_mac', 22: 'record_overflow', 40: 'handshake_failure', 42: 'bad_certificate',
  47: 'illegal_parameter', 48: 'unknown_ca', 50: 'decode_error', 51: 'decrypt_error', 70: 'protocol_version', 71: 'insufficient_security',
  21: 'decryption_failed', 30: 'decompression_failure', 43: 'unsupported_certificate', 49: 'access_denied',
  80: 'internal_error', 86: 'inappropriate_fallback', 90: 'user_canceled', 100: 'no_renegotiation', 109: 'missing_extension', 110: 'unsupported_extension',
  112: 'unrecognized_name', 116: 'certificate_required', 120: 'no_application_protocol',
}
