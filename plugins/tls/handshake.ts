import type { Socket } from 'node:net'
import { createSecureContext, connect as tlsConnect } from 'node:tls'
import type { ConnectionOptions, DetailedPeerCertificate, SecureContext, TLSSocket } from 'node:tls'
import { UpstreamError } from '../../runtime/errors.ts'
import { deadline as withDeadline } from '../../runtime/net/child-signals.ts'
import type { ProtocolName } from './client-hello.ts'
import type { CipherSuite } from './cipher-suites.ts'
import { suiteByName } from './cipher-suites.ts'

// One complete handshake with node:tls, as a client that accepts anything the
// server might speak (TLS 1.0-1.3, OpenSSL security level 0): what gets
// negotiated, ALPN, the key exchange group, timings, the stapled OCSP response,
// and OpenSSL's own verdict on the chain against the trust store. Verification
// never aborts the handshake — a bad chain is a finding, not an error — and the
// host name is checked separately (hostname.ts), so `verify_error` is about
// the chain alone.

// Client-like order first (Node's defaults), then everything else this OpenSSL
// can speak. Anonymous and NULL suites stay out: no real client offers them.
// SECLEVEL=0 lets OpenSSL 3 speak TLS 1.0/1.1, SHA-1 signatures and small keys.
const CLIENT_CIPHERS = 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:ALL:!aNULL:!eNULL:@SECLEVEL=0'

// One context per root list, built once: loading ~150 roots into a fresh
// OpenSSL store costs about 20 ms, more than many handshakes take.
const NODE_ROOTS: string[] = []
const contexts = new WeakMap<string[], SecureContext>()
function contextFor(ca: string[] | undefined): SecureContext {
  const key = ca ?? NODE_ROOTS
  let context = contexts.get(key)
  if (!context) {
    context = createSecureContext({ ...(ca ? { ca } : {}), ciphers: CLIENT_CIPHERS, minVersion: 'TLSv1', maxVersion: 'TLSv1.3' })
    contexts.set(key, context)
  }
  return context
}

const PROTOCOL_NAMES: Record<string, ProtocolName> = { SSLv3: 'SSLv3', TLSv1: 'TLSv1.0', 'TLSv1.1': 'TLSv1.1', 'TLSv1.2': 'TLSv1.2', 'TLSv1.3': 'TLSv1.3' }

export interface Handshake {
  protocol: ProtocolName
  cipher: CipherSuite | null
  /** OpenSSL's name, for suites the table does not know. */
  cipher_openssl_name: string
  /** ECDHE group or DHE size as negotiated (X25519, P-256, DH 2048). */
  key_exchange: { type: string; group: string | null; bits: number | null } | null
  alpn: string | null
  connect_ms: number
  handshake_ms: number
  /** OpenSSL verified the chain up to a trusted root (host name not considered). */
  chain_verified: boolean
  /** OpenSSL's verification error code (CERT_HAS_EXPIRED, UNABLE_TO_GET_ISSUER_CERT_LOCALLY, ...). */
  verify_error: string | null
  /** Leaf first, then the issuers as OpenSSL ordered them (ending in the trust-store root when found). */
  peer_chain: Buffer[]
  ocsp: Buffer | null
}

export interface HandshakeOptions {
  /** Opens the vetted TCP connection. */
  dial: (signal: AbortSignal) => Promise<Socket>
  serverName: string | null
  /** Trusted roots; undefined: Node's bundled roots. */
  ca: string[] | undefined
  timeoutMs: number
  signal: AbortSignal
  /** For error messages. */
  label: string
}

function chainOf(peer: DetailedPeerCertificate): Buffer[] {
  const out: Buffer[] = []
  const seen = new Set<string>()
  for (let cert: DetailedPeerCertificate | undefined = peer; cert?.raw && !seen.has(cert.fingerprint256); cert = cert.issuerCertificate) {
    seen.add(cert.fingerprint256)
    out.push(cert.raw)
  }
  return out
}

export async function tlsHandshake(o: HandshakeOptions): Promise<Handshake> {
  const limit = withDeadline(o.signal, o.timeoutMs)
  const deadline = limit.signal
  const connectStarted = performance.now()
  let raw: Socket
  try {
    raw = await o.dial(deadline)
  } catch (error) {
    limit.clear()
    throw error
  }
  const connectMs = performance.now() - connectStarted
  const started = performance.now()
  return new Promise<Handshake>((resolve, reject) => {
    let ocsp: Buffer | null = null
    const options: ConnectionOptions & { requestOCSP: boolean } = {
      socket: raw,
      ...(o.serverName ? { servername: o.serverName } : {}),
      // Roots, suites (SECLEVEL=0) and TLS 1.0-1.3.
      secureContext: contextFor(o.ca),
      rejectUnauthorized: false,
      // The chain's verdict only: the name is matched by our own rules.
      checkServerIdentity: () => undefined,
      ALPNProtocols: ['h2', 'http/1.1'],
      // A TLSSocket option tls.connect passes on (missing from @types/node's ConnectionOptions).
      requestOCSP: true,
    }
    const socket: TLSSocket = tlsConnect(options)
    const onAbort = () => socket.destroy(new Error('timed out'))
    deadline.addEventListener('abort', onAbort, { once: true })
    // Emitted with null when the server staples nothing.
    socket.once('OCSPResponse', (response: Buffer | null) => {
      ocsp = response && response.length ? response : null
    })
    socket.once('secureConnect', () => {
      const handshakeMs = performance.now() - started
      limit.clear()
      deadline.removeEventListener('abort', onAbort)
      const cipher = socket.getCipher()
      const eph = socket.getEphemeralKeyInfo() as { type?: string; name?: string; size?: number } | null
      const alpn = socket.alpnProtocol
      const result: Handshake = {
        protocol: PROTOCOL_NAMES[socket.getProtocol() ?? ''] ?? 'TLSv1.2',
        cipher: suiteByName(cipher.standardName) ?? suiteByName(cipher.name) ?? null,
        cipher_openssl_name: cipher.name,
        key_exchange: eph && eph.type ? { type: eph.type === 'ECDH' ? 'ECDHE' : eph.type === 'DH' ? 'DHE' : eph.type, group: eph.name ?? null, bits: eph.size ?? null } : null,
        alpn: typeof alpn === 'string' ? alpn : null,
        connect_ms: Math.round(connectMs * 10) / 10,
        handshake_ms: Math.round(handshakeMs * 10) / 10,
        chain_verified: socket.authorized,
        verify_error: socket.authorized ? null : String(socket.authorizationError ?? 'UNKNOWN'),
        peer_chain: chainOf(socket.getPeerCertificate(true)),
        ocsp,
      }
      socket.destroy()
      resolve(result)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => {
      limit.clear()
      deadline.removeEventListener('abort', onAbort)
      raw.destroy()
      const timedOut = deadline.aborted
      const reason = timedOut ? 'timeout' : error.code === 'ECONNRESET' ? 'reset' : 'bad_response'
      const what = timedOut ? `no TLS handshake within ${o.timeoutMs} ms` : (error.message.split('\n')[0] ?? error.message)
      reject(
        new UpstreamError('tls', reason, `The TLS handshake with ${o.label} failed: ${what}.`, {
          host: o.label,
          ...(error.code ? { tls_error: error.code } : {}),
        }),
      )
    })
  })
}
