import type { Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { NotFoundError, UpstreamError } from '../../runtime/errors.ts'
import type { UpstreamReason } from '../../runtime/errors.ts'
import { exchangeHttp1 } from './http1-exchange.ts'
import { exchangeHttp2 } from './http2-exchange.ts'
import { tlsHandshake } from './tls-handshake.ts'
import type { WebClient } from './web-client.ts'
import { deadlineSignal } from '../../runtime/net/deadline-signal.ts'
import type { Exchange, TlsInfo, WebResponse } from './web-response.ts'

// One GET to a site, phase by phase so each can be timed: resolve (the guard
// vets every address; a refused one throws TargetBlockedError before any socket
// exists), connect to a vetted address, TLS, request, bounded body. Redirects are
// not followed here: each hop of a chain is a new webFetch, vetted again.

export interface WebFetchOptions {
  timeoutMs: number
  /** Body bytes read at most; the rest is left unread and the socket closed. */
  maxBytes: number
  signal?: AbortSignal
  headers?: Record<string, string>
  /** Offer HTTP/2 in ALPN (default true). */
  http2?: boolean
}

/** Where a fetch failed, in the error's details.phase. */
export type FetchPhase = 'dns' | 'connect' | 'tls' | 'http'

const ms = (from: number, to: number) => Math.round((to - from) * 10) / 10

function reasonOf(error: unknown, signal: AbortSignal): UpstreamReason {
  if (signal.aborted) return 'timeout'
  const e = error as NodeJS.ErrnoException | undefined
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || e?.code === 'ETIMEDOUT') return 'timeout'
  if (e?.code === 'ECONNREFUSED') return 'refused'
  if (e?.code === 'ECONNRESET' || e?.code === 'EPIPE' || e?.code === 'ERR_HTTP2_SESSION_ERROR' || e?.code === 'ERR_HTTP2_STREAM_ERROR') return 'reset'
  if (typeof e?.code === 'string' && e.code.startsWith('HPE_')) return 'bad_response'
  return 'network'
}

/** A failure after the socket was open: details.phase says where (connect failures come from the guard). */
function phaseError(phase: 'tls' | 'http', url: string, host: string, error: unknown, signal: AbortSignal, extra: Record<string, unknown> = {}): UpstreamError {
  const reason = reasonOf(error, signal)
  const why = signal.aborted ? 'timed out' : (error as Error | undefined)?.message ?? 'failed'
  const what = phase === 'tls' ? `The TLS handshake with ${host} failed` : `${host} did not answer the HTTP request`
  return new UpstreamError('web', phase === 'tls' && reason === 'network' ? 'bad_response' : reason, `${what}: ${why}`, { url, phase, ...extra })
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? 443 : 80)

export async function webFetch(client: WebClient, url: string, o: WebFetchOptions): Promise<WebResponse> {
  const target = new URL(url)
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new TypeError(`webFetch: ${target.protocol} is not http(s)`)
  const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = target.port === '' ? defaultPort(target.protocol) : Number(target.port)
  const signal = deadlineSignal(o.timeoutMs, o.signal)
  const started = performance.now()

  let addresses: string[]
  try {
    addresses = await client.network.resolve(hostname, signal)
  } catch (error) {
    // No address at all is a fact about the name, not a failing resolver.
    if (error instanceof UpstreamError && error.details.upstream === 'dns' && error.details.reason === 'bad_response' && error.details.host !== undefined) {
      throw new NotFoundError(`${hostname} has no A or AAAA records: there is no web server to ask.`, { host: hostname, phase: 'dns' })
    }
    throw error
  }
  const resolved = performance.now()

  let raw: Socket | undefined
  let address = ''
  let lastError: unknown
  // A few addresses at most: a host with a dead first address still answers, a
  // host with fifty does not hold the request for fifty timeouts.
  for (const candidate of addresses.slice(0, 3)) {
    try {
      ;({ socket: raw, address } = await client.network.connect({ host: candidate, port, signal, timeoutMs: o.timeoutMs, upstream: 'web' }))
      break
    } catch (error) {
      lastError = error
      if (signal.aborted) break
    }
  }
  if (!raw) {
    const reason = signal.aborted ? 'timeout' : ((lastError as UpstreamError | undefined)?.details?.reason as UpstreamReason | undefined) ?? 'network'
    const message = signal.aborted ? `Could not connect to ${hostname} port ${port}: timed out` : (lastError as Error | undefined)?.message ?? `Could not connect to ${hostname} port ${port}`
    throw new UpstreamError('web', reason, message, { url, phase: 'connect', addresses: addresses.slice(0, 3) })
  }
  const connected = performance.now()

  let tls: TlsInfo | null = null
  let socket: Socket = raw
  let alpn: string | null = null
  if (target.protocol === 'https:') {
    try {
      const secured = await tlsHandshake(raw, { hostname, secureContext: client.secureContext, signal, alpn: o.http2 === false ? ['http/1.1'] : ['h2', 'http/1.1'] })
      socket = secured.socket
      tls = secured.info
      alpn = secured.info.alpn
    } catch (error) {
      raw.destroy()
      throw phaseError('tls', url, hostname, error, signal, { address })
    }
  }
  const secured = performance.now()

  const request = {
    path: target.pathname + target.search,
    authority: target.host,
    headers: { 'user-agent': client.userAgent, accept: '*/*', ...o.headers },
    maxBytes: o.maxBytes,
    signal,
  }
  const sent = performance.now()
  let exchange: Exchange
  try {
    exchange = alpn === 'h2' && tls ? await exchangeHttp2(socket as TLSSocket, request) : await exchangeHttp1(socket, request)
  } catch (error) {
    socket.destroy()
    throw phaseError('http', url, hostname, error, signal, { address })
  }

  return {
    url: target.href,
    status: exchange.status,
    status_text: exchange.statusText,
    http_version: exchange.httpVersion,
    headers: exchange.headers,
    body: exchange.body,
    truncated: exchange.truncated,
    body_error: exchange.bodyError,
    address,
    port,
    timing: {
      dns_ms: ms(started, resolved),
      connect_ms: ms(resolved, connected),
      tls_ms: tls ? ms(connected, secured) : null,
      first_byte_ms: ms(sent, exchange.headersAt),
      download_ms: ms(exchange.headersAt, exchange.endAt),
      total_ms: ms(started, exchange.endAt),
    },
    tls,
  }
}
