import type { NewSessionTicket } from '../server-flight.ts'
import { CONTENT, HANDSHAKE, parseNewSessionTicket } from '../server-flight.ts'
import { suiteByName } from '../cipher-suites.ts'
import { DECRYPTABLE_TLS13, trafficDecrypter } from '../tls13-keys.ts'

// The TLS 1.3 NewSessionTicket messages of a finished node:tls handshake, read
// from the bytes the server sent (node-session.ts keeps them) with the server
// application traffic secret node:tls logs (keylog, SERVER_TRAFFIC_SECRET_0).
// Handshake records come first, encrypted under another secret: the first
// record that authenticates under the application key starts the sequence.

export interface TicketsSeen {
  tickets: NewSessionTicket[]
  error: string | null
}

export function readTickets(received: Buffer, keylog: readonly string[], suiteName: string | undefined): TicketsSeen {
  const line = keylog.find((l) => l.startsWith('SERVER_TRAFFIC_SECRET_0 '))
  const suite = suiteName ? suiteByName(suiteName) : undefined
  const aead = suite ? DECRYPTABLE_TLS13[suite.code] : undefined
  if (!line) return { tickets: [], error: 'node:tls logged no application traffic secret' }
  if (!aead) return { tickets: [], error: `suite ${suiteName ?? 'unknown'} is not one this reader decrypts` }
  const secret = Buffer.from(line.split(' ')[2] ?? '', 'hex')
  const decrypt = trafficDecrypter(aead, secret)
  const tickets: NewSessionTicket[] = []
  let started = false
  let handshake = Buffer.alloc(0)
  try {
    for (let at = 0; at + 5 <= received.length; ) {
      const type = received[at]!
      const length = received.readUInt16BE(at + 3)
      if (at + 5 + length > received.length) break
      const header = received.subarray(at, at + 5)
      const payload = received.subarray(at + 5, at + 5 + length)
      at += 5 + length
      if (type !== CONTENT.applicationData) continue
      let inner: { type: number; data: Buffer }
      try {
        inner = decrypt(header, payload)
      } catch (error) {
        if (started) throw error
        continue // a handshake record, under the handshake secret
      }
      started = true
      if (inner.type !== CONTENT.handshake) continue
      handshake = Buffer.concat([handshake, inner.data])
      while (handshake.length >= 4) {
        const size = handshake.readUIntBE(1, 3)
        if (handshake.length < 4 + size) break
        if (handshake[0] === HANDSHAKE.newSessionTicket) tickets.push(parseNewSessionTicket(handshake.subarray(4, 4 + size)))
        handshake = handshake.subarray(4 + size)
      }
    }
  } catch (error) {
    return { tickets, error: (error as Error).message }
  }
  return { tickets, error: null }
}

