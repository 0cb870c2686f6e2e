// One query over TCP (RFC 1035 §4.2.2, RFC 7766): two-byte length framing, one query
// per connection. A TCP peer cannot be spoofed off-path, so a reply that does not parse
// fails the exchange at once; replies for another id or question are still skipped.

import { DnsError, reasonOfSocketError } from './dns-error.ts'
import { abortedError, type ExchangeOutcome, type ExchangeRequest } from './dns-exchange.ts'

export function exchangeTcp(req: ExchangeRequest): Promise<ExchangeOutcome> {
  return new Promise((resolve, reject) => {
    const { signal } = req
    if (signal?.aborted) return reject(abortedError(signal, 'tcp'))
    let socket: ReturnType<ExchangeRequest['sockets']['tcpConnect']>
    try {
      socket = req.sockets.tcpConnect({ host: req.host, port: req.port })
    } catch (error) {
      return reject(new DnsError('network', `cannot open a TCP connection: ${(error as Error).message}`, { transport: 'tcp', cause: error }))
    }

    let settled = false
    let pending: Buffer = Buffer.alloc(0)
    const fail = (reason: DnsError['reason'], message: string, cause?: unknown): void =>
      finish(() => reject(new DnsError(reason, message, { transport: 'tcp', cause })))

    const finish = (settle: () => void): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      socket.removeAllListeners('data')
      socket.removeAllListeners('end')
      socket.removeAllListeners('close')
      socket.removeAllListeners('error')
      socket.on('error', () => {})
      socket.destroy()
      settle()
    }

    const onAbort = (): void => finish(() => reject(abortedError(signal as AbortSignal, 'tcp')))
    const timer = setTimeout(() => fail('timeout', `no reply within ${req.timeoutMs} ms`), req.timeoutMs)
    signal?.addEventListener('abort', onAbort, { once: true })

    socket.setNoDelay(true)
    socket.on('error', (error) => fail(reasonOfSocketError(error), `TCP: ${error.message}`, error))
    socket.on('end', () => fail(pending.length > 0 ? 'bad_response' : 'network', 'connection closed before a complete reply'))
    socket.on('close', () => fail('network', 'connection closed before a reply'))
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      while (!settled && pending.length >= 2) {
        const length = pending.readUInt16BE(0)
        if (pending.length < 2 + length) return
        const message = pending.subarray(2, 2 + length)
        pending = pending.subarray(2 + length)
        const result = req.inspect(message)
        if (result.kind === 'reply') finish(() => resolve(result))
        else if (result.kind === 'truncated') fail('bad_response', 'reply over TCP has TC set')
        else if (result.kind === 'malformed') fail('bad_response', `malformed reply: ${result.why}`)
      }
    })

    const frame = Buffer.alloc(2 + req.query.length)
    frame.writeUInt16BE(req.query.length, 0)
    req.query.copy(frame, 2)
    // net buffers writes made before the connection is up.
    socket.write(frame)
  })
}
