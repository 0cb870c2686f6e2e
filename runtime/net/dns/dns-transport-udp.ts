// One query over UDP (RFC 1035 §4.2.1). Each query gets its own socket, connected to
// the server: a fresh random source port per query, and ICMP port-unreachable comes
// back as ECONNREFUSED instead of a silent timeout. Replies from any other address or
// port, with another id or question, or that do not parse are ignored until the
// deadline, so a spoofed packet can neither be accepted nor end the wait early.

import type { RemoteInfo } from 'node:dgram'
import ipaddr from 'ipaddr.js'
import { DnsError, reasonOfSocketError } from './dns-error.ts'
import { abortedError, type ExchangeOutcome, type ExchangeRequest } from './dns-exchange.ts'

function sameAddress(a: string, b: string): boolean {
  if (a === b) return true
  try {
    return ipaddr.parse(a).toNormalizedString() === ipaddr.parse(b).toNormalizedString()
  } catch {
    return false
  }
}

export function exchangeUdp(req: ExchangeRequest): Promise<ExchangeOutcome> {
  return new Promise((resolve, reject) => {
    const { signal } = req
    if (signal?.aborted) return reject(abortedError(signal, 'udp'))
    let socket: ReturnType<ExchangeRequest['sockets']['udpSocket']>
    try {
      socket = req.sockets.udpSocket(req.family)
    } catch (error) {
      return reject(new DnsError('network', `cannot open a UDP socket: ${(error as Error).message}`, { transport: 'udp', cause: error }))
    }

    let settled = false
    let malformed = 0
    let lastMalformed = ''

    const finish = (settle: () => void): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      socket.removeAllListeners('message')
      // A late error (e.g. ICMP after close was requested) must not become an uncaught exception.
      socket.removeAllListeners('error')
      socket.on('error', () => {})
      try {
        socket.close()
      } catch {
        // Already closed.
      }
      settle()
    }

    const onAbort = (): void => finish(() => reject(abortedError(signal as AbortSignal, 'udp')))
    const timer = setTimeout(() => {
      finish(() =>
        reject(
          malformed > 0
            ? new DnsError('bad_response', `no valid reply within ${req.timeoutMs} ms; ${malformed} malformed ignored (${lastMalformed})`, { transport: 'udp' })
            : new DnsError('timeout', `no reply within ${req.timeoutMs} ms`, { transport: 'udp' }),
        ),
      )
    }, req.timeoutMs)
    signal?.addEventListener('abort', onAbort, { once: true })

    socket.on('error', (error) => finish(() => reject(new DnsError(reasonOfSocketError(error), `UDP: ${error.message}`, { transport: 'udp', cause: error }))))
    socket.on('message', (message: Buffer, rinfo: RemoteInfo) => {
      if (rinfo.port !== req.port || !sameAddress(rinfo.address, req.host)) return
      const result = req.inspect(message)
      if (result.kind === 'reply' || result.kind === 'truncated') finish(() => resolve(result))
      else if (result.kind === 'malformed') {
        malformed++
        lastMalformed = result.why
      }
    })
    try {
      socket.connect(req.port, req.host, () => {
        if (settled) return
        socket.send(req.query, (error) => {
          if (error) finish(() => reject(new DnsError(reasonOfSocketError(error), `UDP send: ${error.message}`, { transport: 'udp', cause: error })))
        })
      })
    } catch (error) {
      // A factory may hand over a socket that cannot connect (already connected, closed).
      finish(() => reject(new DnsError('network', `UDP connect: ${(error as Error).message}`, { transport: 'udp', cause: error })))
    }
  })
}
