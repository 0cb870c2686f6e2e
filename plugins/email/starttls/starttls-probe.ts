import { connect as tlsConnect, checkServerIdentity } from 'node:tls'
import type { Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import type { GuardedNetwork } from '../../../runtime/net/guarded-network.ts'
import { TargetBlockedError } from '../../../runtime/net/target-blocked-error.ts'
import type { CertificateSummary } from './certificate.ts'
import { summarizeCertificate } from './certificate.ts'
import { SmtpReader } from './smtp-reply.ts'
import { deadline } from '../../../runtime/net/child-signals.ts'

// One STARTTLS probe (RFC 3207) of one MX host, through the guarded network: the
// greeting, EHLO, STARTTLS if offered, a TLS handshake that accepts any
// certificate so it can be described (trust and name are judged afterwards, as
// an MTA-STS sender would judge them), EHLO again over TLS, QUIT. No mail is sent.

export interface TlsDetails {
  protocol: string | null
  cipher: string | null
  /** The chain verifies to a trusted root (Node's bundle plus INFRALENS_EXTRA_CA_FILE). */
  trusted: boolean
  trust_error: string | null
  /** The certificate names the MX host (RFC 6125 rules, wildcards in the first label). */
  name_matches: boolean
  certificate: CertificateSummary | null
}

export interface StarttlsResult {
  host: string
  port: number
  address: string | null
  status: 'ok' | 'no_starttls' | 'tls_failed' | 'unreachable' | 'blocked' | 'smtp_error'
  banner: string | null
  extensions: string[]
  starttls: boolean
  tls: TlsDetails | null
  error: string | null
  time_ms: number
  /**
   * With ProbeOptions.withChain: the certificates the server sent, leaf first, each
   * issued by the next (base64 DER). Give `ca: []` to have exactly those: with roots
   * in the store, Node appends the issuer it finds there as if it had been sent.
   */
  served_chain?: string[]
}

export interface ProbeOptions {
  port: number
  timeoutMs: number
  signal: AbortSignal
  /** Trusted roots (undefined: Node's bundle). */
  ca: string[] | undefined
  /** The name we introduce ourselves with in EHLO. */
  ehloName: string
  /** The service clock's now (ms), for the certificate's days remaining. */
  now: number
  /** Also return the served chain as DER (DANE matches TLSA records against it). */
  withChain?: boolean
}

/** The chain Node linked from the peer's certificates, leaf first (DER, base64). */
function peerChain(tls: TLSSocket): string[] {
  const out: string[] = []
  let current = tls.getPeerCertificate(true)
  for (let i = 0; current?.raw && i < 10; i++) {
    out.push(current.raw.toString('base64'))
    const next = current.issuerCertificate
    if (!next || next === current || next.fingerprint256 === current.fingerprint256) break
    current = next
  }
  return out
}

function handshake(socket: Socket, host: string, ca: string[] | undefined, signal: AbortSignal): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    // Old protocols and ciphers are allowed so a server offering only them can be reported, not just failed.
    const tls = tlsConnect({ socket, servername: host, rejectUnauthorized: false, minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0', ...(ca ? { ca } : {}) })
    const onAbort = () => tls.destroy(new Error('timed out during the TLS handshake'))
    signal.addEventListener('abort', onAbort, { once: true })
    tls.once('secureConnect', () => {
      signal.removeEventListener('abort', onAbort)
      resolve(tls)
    })
    tls.once('error', (error) => {
      signal.removeEventListener('abort', onAbort)
      reject(error)
    })
  })
}

export async function probeStarttls(network: GuardedNetwork, host: string, options: ProbeOptions): Promise<StarttlsResult> {
  const limit = deadline(options.signal, options.timeoutMs)
  try {
    return await probeWithin(network, host, options, limit.signal)
  } finally {
    limit.clear()
  }
}

/** The probe, every step under `signal` (the probe's deadline, or the request going away). */
async function probeWithin(network: GuardedNetwork, host: string, options: ProbeOptions, signal: AbortSignal): Promise<StarttlsResult> {
  const started = performance.now()
  const result: StarttlsResult = { host, port: options.port, address: null, status: 'ok', banner: null, extensions: [], starttls: false, tls: null, error: null, time_ms: 0 }
  // A silent or dripping server is named as such, with the step it stalled at, not as a vague SMTP error.
  let step = 'the connection'
  const timedOut = () => signal.aborted && !options.signal.aborted
  const done = (status: StarttlsResult['status'], error: string | null) => ({
    ...result,
    status,
    error: error !== null && timedOut() ? `timed out after ${options.timeoutMs} ms waiting for ${step}` : error,
    time_ms: Math.round(performance.now() - started),
  })

  let socket
  try {
    const connected = await network.connect({ host, port: options.port, timeoutMs: options.timeoutMs, signal, upstream: 'smtp' })
    socket = connected.socket
    result.address = connected.address
  } catch (error) {
    if (error instanceof TargetBlockedError) return done('blocked', error.message)
    return done('unreachable', (error as Error).message)
  }
  let tls: TLSSocket | undefined
  const reader = new SmtpReader(socket)
  try {
    step = 'the greeting'
    const greeting = await reader.read(signal)
    result.banner = greeting.lines.join(' ')
    if (greeting.code !== 220) return done('smtp_error', `greeting ${greeting.code}: ${result.banner}`)
    step = 'the EHLO reply'
    const ehlo = await reader.command(`EHLO ${options.ehloName}`, signal)
    if (ehlo.code !== 250) return done('smtp_error', `EHLO answered ${ehlo.code}: ${ehlo.lines.join(' ')}`)
    result.extensions = ehlo.lines.slice(1).map((l) => l.trim())
    result.starttls = result.extensions.some((e) => e.toUpperCase() === 'STARTTLS')
    if (!result.starttls) {
      await reader.command('QUIT', signal).catch(() => undefined)
      return done('no_starttls', null)
    }
    step = 'the STARTTLS reply'
    const ready = await reader.command('STARTTLS', signal)
    if (ready.code !== 220) return done('tls_failed', `STARTTLS answered ${ready.code}: ${ready.lines.join(' ')}`)
    reader.detach()
    step = 'the TLS handshake'
    try {
      tls = await handshake(socket, host, options.ca, signal)
    } catch (error) {
      return done('tls_failed', `TLS handshake failed: ${(error as Error).message}`)
    }
    const peer = tls.getPeerCertificate(true)
    const hasCert = peer && Object.keys(peer).length > 0
    result.tls = {
      protocol: tls.getProtocol() ?? null,
      cipher: tls.getCipher()?.standardName ?? tls.getCipher()?.name ?? null,
      trusted: tls.authorized,
      trust_error: tls.authorized ? null : String(tls.authorizationError ?? 'no certificate'),
      name_matches: hasCert ? checkServerIdentity(host, peer) === undefined : false,
      certificate: hasCert ? summarizeCertificate(peer, options.now) : null,
    }
    if (options.withChain) result.served_chain = peerChain(tls)
    step = 'the EHLO reply over TLS'
    const secure = new SmtpReader(tls)
    await secure.command(`EHLO ${options.ehloName}`, signal).catch(() => undefined)
    await secure.command('QUIT', signal).catch(() => undefined)
    return done('ok', null)
  } catch (error) {
    return done('smtp_error', (error as Error).message)
  } finally {
    tls?.destroy()
    socket.destroy()
  }
}
