import { UpstreamError, isApiError } from '../../runtime/errors.ts'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { deadlineSignal } from '../../runtime/net/deadline-signal.ts'
import { TargetBlockedError } from '../../runtime/net/target-blocked-error.ts'
import { whoisText } from './whois-text.ts'

// One port-43 exchange (RFC 3912): connect, send the query and CRLF, read until
// the server closes. Through the guarded network like every other connection
// (the host resolved with the service's DNS, every address vetted, the socket
// pinned, at most INFRALENS_UPSTREAM_CONCURRENCY connections to one address and
// port); on top of that a deadline for the whole exchange (a server that drips
// or never closes is cut off) and a size limit on what is read (a server that
// sends without end is cut off too). The server is data (IANA's referral, a
// registry's "Registrar WHOIS Server:"), so a refused target is the upstream's
// failure, never the caller's.

export interface ExchangeOptions {
  host: string
  port: number
  query: string
  timeoutMs: number
  maxBytes: number
  signal?: AbortSignal | undefined
}

export interface WhoisExchange {
  /** host:port asked. */
  server: string
  /** The vetted address the socket was pinned to. */
  address: string
  text: string
  bytes: number
}

const where = (o: ExchangeOptions) => `${o.host}:${o.port}`

function connectFailure(error: unknown, o: ExchangeOptions): Error {
  if (error instanceof TargetBlockedError) {
    return new UpstreamError('whois', 'blocked', `Refusing to query the WHOIS server ${o.host}: ${error.refused[0]?.reason ?? 'not a public address'}.`, {
      whois_server: where(o),
      host: error.host,
      refused: error.refused.map((r) => ({ ...r })),
    })
  }
  if (error instanceof UpstreamError && error.details.upstream !== 'whois') {
    // Resolving the server's name failed: still the WHOIS lookup that failed.
    return new UpstreamError('whois', 'network', `Could not reach the WHOIS server ${o.host}: ${error.message}`, { whois_server: where(o), cause: { ...error.details } })
  }
  if (isApiError(error)) return error
  return new UpstreamError('whois', 'network', `Could not query the WHOIS server ${where(o)}: ${(error as Error).message}`, { whois_server: where(o) })
}

export async function whoisExchange(network: GuardedNetwork, o: ExchangeOptions): Promise<WhoisExchange> {
  const deadline = deadlineSignal(o.timeoutMs, o.signal)
  let connected: Awaited<ReturnType<GuardedNetwork['connect']>>
  try {
    connected = await network.connect({ host: o.host, port: o.port, timeoutMs: o.timeoutMs, signal: deadline, upstream: 'whois' })
  } catch (error) {
    throw connectFailure(error, o)
  }
  const { socket, address } = connected
  return new Promise<WhoisExchange>((resolve, reject) => {
    const chunks: Buffer[] = []
    let bytes = 0
    let settled = false
    const finish = (error: Error | null) => {
      if (settled) return
      settled = true
      deadline.removeEventListener('abort', onAbort)
      socket.destroy()
      if (error) reject(error)
      else resolve({ server: where(o), address, text: whoisText(Buffer.concat(chunks)), bytes })
    }
    const onAbort = () => {
      const clientGone = o.signal?.aborted === true
      finish(
        clientGone && !(o.signal!.reason instanceof DOMException && o.signal!.reason.name === 'TimeoutError')
          ? (o.signal!.reason as Error)
          : new UpstreamError('whois', 'timeout', `The WHOIS server ${where(o)} did not finish its answer within ${o.timeoutMs} ms.`, { whois_server: where(o), bytes }),
      )
    }
    if (deadline.aborted) return onAbort()
    deadline.addEventListener('abort', onAbort, { once: true })
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > o.maxBytes) {
        finish(new UpstreamError('whois', 'bad_response', `The WHOIS server ${where(o)} sent more than ${o.maxBytes} bytes.`, { whois_server: where(o), max_bytes: o.maxBytes }))
        return
      }
      chunks.push(chunk)
    })
    socket.once('end', () => finish(null))
    socket.once('close', () => finish(null))
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 'reset' : 'network'
      // A reset after a complete answer is how some servers hang up; with nothing read it is a failure.
      if (bytes > 0 && reason === 'reset') return finish(null)
      finish(new UpstreamError('whois', reason, `The WHOIS server ${where(o)} failed: ${error.message}`, { whois_server: where(o) }))
    })
    socket.setNoDelay(true)
    socket.write(`${o.query}\r\n`)
  })
}
