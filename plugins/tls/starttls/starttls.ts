import type { Socket } from 'node:net'
import { UpstreamError } from '../../../runtime/errors.ts'
import type { StarttlsProtocol } from '../../../registry/tls/schemas/starttls-param.ts'
import { DIALOGUES, StarttlsRefused } from './dialogues.ts'
import { PlainReader } from './plain-reader.ts'

// STARTTLS for every TLS endpoint: the plaintext dialogue runs inside dial(),
// on each vetted connection (target.ts), so the handshake, the certificate
// probe, every scan probe and every check sees a socket that is ready for a
// ClientHello, exactly as it would with implicit TLS. Bounded by the dial's
// own deadline and by MAX_REPLY_BYTES per reply.

export async function startTls(protocol: StarttlsProtocol, socket: Socket, domain: string, label: string, signal: AbortSignal): Promise<void> {
  const reader = new PlainReader(socket)
  try {
    await DIALOGUES[protocol]({ reader, signal, domain })
  } catch (error) {
    socket.destroy()
    const refused = error instanceof StarttlsRefused
    const timedOut = signal.aborted
    throw new UpstreamError('tls', timedOut ? 'timeout' : 'bad_response', `STARTTLS (${protocol}) with ${label} failed: ${(error as Error).message}.`, {
      host: label,
      starttls: protocol,
      ...(refused ? { starttls_refused: true } : {}),
    })
  }
  reader.detach()
}
