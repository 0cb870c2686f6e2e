import type { LookupAddress } from 'node:dns'
import { request as httpRequest } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, connect as netConnect } from 'node:net'
import type { LookupFunction, Socket } from 'node:net'
import { connect as tlsConnect, rootCertificates } from 'node:tls'
import type { ConnectionOptions, TLSSocket } from 'node:tls'
import { UpstreamError } from '../errors.ts'
import type { UpstreamReason } from '../errors.ts'
import { TargetBlockedError } from './target-blocked-error.ts'
import type { TargetPolicy } from './target-policy.ts'
import { checkTargetText } from './target-policy.ts'
import { deadlineSignal } from './deadline-signal.ts'
import type { UpstreamGuard } from './upstream-guard.ts'

// The one way out of the process. Every hostname is resolved with the service's
// own DNS client, every address is vetted by the target policy, and the socket is
// opened to exactly the vetted address (no second lookup a rebinding DNS server
// could answer differently). Every connection has a deadline.

/** Resolves a hostname to addresses (A and AAAA), with the service's own DNS client. */
export type HostLookup = (host: string, signal: AbortSignal) => Promise<string[]>

export interface GuardedNetworkOptions {
  policy: TargetPolicy
  lookup: HostLookup
  /** Extra trusted roots (PEM) for outbound TLS, added to Node's bundled ones. */
  extraCa?: string
  defaultTimeoutMs?: number
  /**
   * Breaker and concurrency bound for the service's own upstreams (requests with
   * `upstream` and without `probe`); for targets users name (connect(), probe
   * requests, unnamed requests) only the bound, per target address and port.
   */
  guard?: UpstreamGuard
}

export interface ConnectOptions {
  host: string
  port: number
  timeoutMs?: number
  signal?: AbortSignal
  /** Name for errors (`details.upstream`). */
  upstream?: string
}

export interface HttpRequestOptions {
  method?: 'GET' | 'HEAD' | 'POST'
  headers?: Record<string, string>
  body?: string
  /** Connect to this address (vetted like any other) instead of resolving the URL's host: for a caller that pinned the host already. */
  address?: string
  /** Trusted roots for https instead of the service's: for a caller that judges certificates by its own store. */
  ca?: string[]
  timeoutMs?: number
  signal?: AbortSignal
  /** Responses larger than this are cut off with an upstream error. */
  maxBytes?: number
  upstream?: string
  /**
   * The host is one a user asked about (an MTA-STS policy host, a site): no shared
   * circuit breaker, so every call reports what the host does now and one user's
   * probes of a dead host decide nothing for anyone else; only the per-target bound.
   */
  probe?: boolean
}

export interface HttpResponse {
  url: string
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
  /** The address actually connected to. */
  address: string
  timeMs: number
}

export interface GuardedNetwork {
  /** The vetted addresses of a host (an IP literal is vetted as is). Throws TargetBlockedError. */
  resolve(host: string, signal?: AbortSignal): Promise<string[]>
  connect(options: ConnectOptions): Promise<{ socket: Socket; address: string }>
  connectTls(options: ConnectOptions & { tls?: ConnectionOptions }): Promise<{ socket: TLSSocket; address: string }>
  request(url: string, options?: HttpRequestOptions): Promise<HttpResponse>
}

function reasonOf(error: unknown): UpstreamReason {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if ((error as Error | undefined)?.name === 'TimeoutError' || code === 'ETIMEDOUT' || code === 'ABORT_ERR') return 'timeout'
  if (code === 'ECONNREFUSED') return 'refused'
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset'
  if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH') return 'network'
  return 'network'
}

export function createGuardedNetwork(options: GuardedNetworkOptions): GuardedNetwork {
  const defaultTimeout = options.defaultTimeoutMs ?? 10_000
  const ca = options.extraCa ? [...rootCertificates, options.extraCa] : undefined

  async function resolve(host: string, signal?: AbortSignal): Promise<string[]> {
    const bare = host.replace(/^\[(.*)\]$/, '$1')
    const candidates = isIP(bare) ? [bare] : await options.lookup(bare, signal ?? AbortSignal.timeout(defaultTimeout))
    const allowed: string[] = []
    const refused: Array<{ address: string; reason: string }> = []
    for (const address of candidates) {
      const verdict = checkTargetText(address, options.policy)
      if (verdict.allowed) allowed.push(verdict.address)
      else refused.push({ address: verdict.address, reason: verdict.reason })
    }
    // One private address among public ones is how rebinding attacks start: refuse the host.
    if (refused.length > 0 || allowed.length === 0) {
      if (refused.length === 0 && allowed.length === 0) {
        throw new UpstreamError('dns', 'bad_response', `${host} has no A or AAAA records.`, { host })
      }
      throw new TargetBlockedError(host, refused)
    }
    return allowed
  }

  async function connectTo(address: string, port: number, signal: AbortSignal): Promise<Socket> {
    return new Promise<Socket>((resolveSocket, reject) => {
      const socket = netConnect({ host: address, port, family: isIP(address) })
      const onAbort = () => socket.destroy(signal.reason as Error)
      signal.addEventListener('abort', onAbort, { once: true })
      socket.once('connect', () => {
        signal.removeEventListener('abort', onAbort)
        resolveSocket(socket)
      })
      socket.once('error', (error) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      })
    })
  }

  /** A slot of the per-target bound (none without a guard); given back when the work is done. */
  async function targetSlot(address: string, port: number, signal: AbortSignal): Promise<() => void> {
    if (!options.guard) return () => {}
    return options.guard.slot(`target ${isIP(address) === 6 ? `[${address}]` : address}:${port}`, signal)
  }

  // Sockets are opened to targets users name (web, TLS and SMTP probes), so there
  // is no breaker here: each probe says what the host does now. The bound holds a
  // slot for the socket's whole life, so N users probing one host open at most
  // `maxConcurrent` connections to it between them.
  async function connect(o: ConnectOptions): Promise<{ socket: Socket; address: string }> {
    const signal = deadlineSignal(o.timeoutMs ?? defaultTimeout, o.signal)
    const addresses = await resolve(o.host, signal)
    let lastError: unknown
    for (const address of addresses) {
      let release: (() => void) | undefined
      try {
        release = await targetSlot(address, o.port, signal)
        const socket = await connectTo(address, o.port, signal)
        socket.once('close', release)
        return { socket, address }
      } catch (error) {
        release?.()
        lastError = error
        if (signal.aborted) break
      }
    }
    throw new UpstreamError(o.upstream ?? o.host, reasonOf(signal.aborted ? signal.reason : lastError), `Could not connect to ${o.host}:${o.port}: ${(lastError as Error | undefined)?.message ?? 'timed out'}`, {
      host: o.host,
      port: o.port,
    })
  }

  async function connectTls(o: ConnectOptions & { tls?: ConnectionOptions }): Promise<{ socket: TLSSocket; address: string }> {
    const signal = deadlineSignal(o.timeoutMs ?? defaultTimeout, o.signal)
    const { socket: raw, address } = await connect({ ...o, signal })
    return new Promise((resolveTls, reject) => {
      const servername = isIP(o.host.replace(/^\[(.*)\]$/, '$1')) ? undefined : o.host
      const socket = tlsConnect({ socket: raw, ...(servername ? { servername } : {}), ...(ca ? { ca } : {}), ...o.tls })
      const onAbort = () => socket.destroy(signal.reason as Error)
      signal.addEventListener('abort', onAbort, { once: true })
      socket.once('secureConnect', () => {
        signal.removeEventListener('abort', onAbort)
        resolveTls({ socket, address })
      })
      socket.once('error', (error) => {
        signal.removeEventListener('abort', onAbort)
        raw.destroy()
        reject(error)
      })
    })
  }

  async function request(url: string, o: HttpRequestOptions = {}): Promise<HttpResponse> {
    if (!options.guard || o.upstream === undefined || o.probe) return requestOnce(url, o, true)
    // Keyed by upstream and host: one dead RDAP server does not stop the others.
    const key = `${o.upstream} ${new URL(url).host}`
    return options.guard.run(key, o.upstream, () => requestOnce(url, o, false), o.signal, (res) => res.status >= 500 || res.status === 429)
  }

  async function requestOnce(url: string, o: HttpRequestOptions, boundPerTarget: boolean): Promise<HttpResponse> {
    const started = performance.now()
    const target = new URL(url)
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new TypeError(`Only http(s) URLs can be fetched, not ${target.protocol}`)
    const upstream = o.upstream ?? target.hostname
    const signal = deadlineSignal(o.timeoutMs ?? defaultTimeout, o.signal)
    const [address] = await resolve(o.address ?? target.hostname, signal)
    const maxBytes = o.maxBytes ?? 8 * 1024 * 1024
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    let release = () => {}
    if (boundPerTarget) {
      try {
        release = await targetSlot(address!, Number(target.port) || (target.protocol === 'https:' ? 443 : 80), signal)
      } catch (error) {
        throw new UpstreamError(upstream, reasonOf(signal.aborted ? signal.reason : error), `${upstream} did not answer: timed out waiting for a connection slot`, { url })
      }
    }
    const exchange = new Promise<HttpResponse>((resolveResponse, reject) => {
      const fail = (reason: UpstreamReason, message: string) => reject(new UpstreamError(upstream, reason, message, { url }))
      const req = send(
        target,
        {
          method: o.method ?? 'GET',
          headers: { 'user-agent': 'infralens/1.0 (+https://github.com/infralens)', accept: '*/*', ...o.headers },
          signal,
          // Pin the socket to the vetted address; the Host header and SNI keep the name.
          lookup: ((_host, opts, cb) => {
            const family = isIP(address!)
            if (opts.all) cb(null, [{ address: address!, family } satisfies LookupAddress])
            else cb(null, address!, family)
          }) satisfies LookupFunction,
          ...(target.protocol === 'https:' && (o.ca ?? ca) ? { ca: o.ca ?? ca } : {}),
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = []
          let size = 0
          res.on('data', (chunk: Buffer) => {
            size += chunk.length
            if (size > maxBytes) {
              res.destroy()
              fail('bad_response', `${upstream} sent more than ${maxBytes} bytes`)
              return
            }
            chunks.push(chunk)
          })
          res.once('error', (error) => fail(reasonOf(signal.aborted ? signal.reason : error), `${upstream}: ${error.message}`))
          res.once('end', () =>
            resolveResponse({
              url,
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
              address: address!,
              timeMs: Math.round(performance.now() - started),
            }),
          )
        },
      )
      req.once('error', (error) => fail(reasonOf(signal.aborted ? signal.reason : error), `${upstream} did not answer: ${signal.aborted ? 'timed out' : error.message}`))
      if (o.body !== undefined) req.end(o.body)
      else req.end()
    })
    return exchange.finally(release)
  }

  return { resolve, connect, connectTls, request }
}
