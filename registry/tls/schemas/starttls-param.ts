import { z } from 'zod'

// The `starttls` query parameter of the TLS endpoints: which plaintext protocol
// to speak before the TLS handshake, and the port it is usually on (the
// target's port when the host names none).

export const STARTTLS_PORTS = {
  smtp: 25,
  imap: 143,
  pop3: 110,
  ftp: 21,
  xmpp: 5222,
  ldap: 389,
  postgres: 5432,
  mysql: 3306,
} as const

export type StarttlsProtocol = keyof typeof STARTTLS_PORTS

export const STARTTLS_PROTOCOLS = Object.keys(STARTTLS_PORTS) as [StarttlsProtocol, ...StarttlsProtocol[]]

export const StarttlsParam = z
  .preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(STARTTLS_PROTOCOLS, { error: () => `must be one of ${STARTTLS_PROTOCOLS.join(', ')}` }))
  .optional()
  .meta({
    description:
      'Speak this protocol in plaintext and upgrade with STARTTLS before TLS: smtp (port 25; submission: give :587), imap (143), pop3 (110), ftp (21, AUTH TLS), xmpp (5222), ldap (389), postgres (5432), mysql (3306). The port is the protocol’s unless the host names one.',
    example: 'smtp',
  })
