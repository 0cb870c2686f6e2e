import { isIP } from 'node:net'
import type { Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import type { SecureContext, TLSSocket } from 'node:tls'
import type { TlsInfo } from './web-response.ts'

// TLS on a socket the guard opened. The certificate is checked (chain and name)
// but a failure does not stop the exchange: the web checks report on what the
// site serves, and an untrusted certificate is one more fact about it
// (`authorized: false`) — /api/tls/* judges certificates in depth.

export interface HandshakeOptions {
  hostname: string
  secureContext: SecureContext | undefined
  signal: AbortSignal
  /** ALPN offer, most preferred first. */
  alpn: string[]
}

export function tlsHandshake(raw: Socket, o: HandshakeOptions): Promise<{ socket: TLSSocket; info: TlsInfo }> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      socket: raw,
      // For an IP target there is no SNI; the name check then looks for an IP SAN.
      host: o.hostname,
      ...(isIP(o.hostname) ? {} : { servername: o.hostname }),
      ALPNProtocols: o.alpn,
      rejectUnauthorized: false,
      ...(o.secureContext ? { secureContext: o.secureContext } : {}),
    })
    const onAbort = () => {
      socket.destroy()
      reject(o.signal.reason instanceof Error ? o.signal.reason : new Error('aborted'))
    }
    o.signal.addEventListener('abort', onAbort, { once: true })
    socket.once('secureConnect', () => {
      o.signal.removeEventListener('abort', onAbort)
      const cipher = socket.getCipher()
      const authError = socket.authorizationError as unknown
      resolve({
        socket,
        info: {
          protocol: socket.getProtocol() ?? null,
          cipher: cipher?.name ?? null,
          alpn: typeof socket.alpnProtocol === 'string' ? socket.alpnProtocol : null,
          authorized: socket.authorized,
          authorization_error: socket.authorized ? null : authError instanceof Error ? authError.message : authError ? String(authError) : 'unverified',
        },
      })
    })
    socket.on('error', (error) => {
      o.signal.removeEventListener('abort', onAbort)
      raw.destroy()
      reject(error)
    })
  })
}
