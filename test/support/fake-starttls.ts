// STARTTLS servers of the loopback internet (issue 24): for each protocol the
// TLS endpoints speak before TLS (smtp, imap, pop3, ftp, xmpp, ldap, postgres,
// mysql), a fake that plays the server's plaintext part as the protocol's RFC
// or wire documentation has it, and on the client's STARTTLS hands the
// connection, byte for byte, to a real TLS server (node:tls or openssl
// s_server) behind it. So everything after the go-ahead — handshake, cipher
// scan, active checks — meets a real TLS stack, and `openssl s_client
// -starttls <protocol>` (an independent client) can be pointed at each fake.
// Written for these tests; every reply below is ours, not a recording.

import { randomInt } from 'node:crypto'
import { connect, createServer } from 'node:net'
import type { Server, Socket } from 'node:net'

export const STARTTLS_FAKE_PROTOCOLS = ['smtp', 'imap', 'pop3', 'ftp', 'xmpp', 'ldap', 'postgres', 'mysql'] as const
export type FakeProtocol = (typeof STARTTLS_FAKE_PROTOCOLS)[number]

/** The protocols' usual ports (the service's default when the host names none). */
export const USUAL_PORTS: Record<FakeProtocol, number> = { smtp: 25, imap: 143, pop3: 110, ftp: 21, xmpp: 5222, ldap: 389, postgres: 5432, mysql: 3306 }

/** `ok`: STARTTLS offered and granted; `refuse`: the protocol spoken, TLS refused; `garbage`: not the protocol at all. */
export type FakeMode = 'ok' | 'refuse' | 'garbage'

export interface Backend {
  host: string
  port: number
}

/** One step of a fake: what the client sent so far, and what to answer. */
interface Session {
  write(data: string | Buffer): void
  /** TLS from here on: `rest` (bytes after the STARTTLS request) goes to the backend first. */
  handOver(rest: Buffer): void
  close(): void
}

/** Returns the bytes it consumed from `buffer` (0: wait for more). */
type Step = (buffer: Buffer, s: Session, mode: FakeMode) => number

interface Protocol {
  /** What the server says first (before the client speaks), if anything. */
  greeting?: (mode: FakeMode) => string | Buffer
  step: Step
}

/** One CRLF line, or null until one is complete. */
function line(buffer: Buffer): { text: string; length: number } | null {
  const nl = buffer.indexOf(10)
  return nl < 0 ? null : { text: buffer.subarray(0, nl).toString('latin1').replace(/\r$/, ''), length: nl + 1 }
}

const lineProtocol =
  (answer: (text: string, s: Session, mode: FakeMode, rest: () => Buffer) => void): Step =>
  (buffer, s, mode) => {
    const l = line(buffer)
    if (!l) return 0
    answer(l.text, s, mode, () => buffer.subarray(l.length))
    return l.length
  }

// SMTP (RFC 5321, RFC 3207).
const smtp: Protocol = {
  greeting: (mode) => (mode === 'garbage' ? 'SSH-2.0-OpenSSH_9.2\r\n' : '220 mail.starttls.test ESMTP infralens test fake\r\n'),
  step: lineProtocol((text, s, mode, rest) => {
    const verb = text.split(' ')[0]!.toUpperCase()
    if (verb === 'EHLO') s.write(`250-mail.starttls.test\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n${mode === 'refuse' ? '' : '250-STARTTLS\r\n'}250 8BITMIME\r\n`)
    else if (verb === 'HELO') s.write('250 mail.starttls.test\r\n')
    else if (verb === 'STARTTLS' && mode === 'ok') {
      s.write('220 2.0.0 Ready to start TLS\r\n')
      s.handOver(rest())
    } else if (verb === 'QUIT') s.close()
    else s.write('502 5.5.2 command not recognized\r\n')
  }),
}

// IMAP (RFC 9051 §6.2.1).
const imap: Protocol = {
  greeting: (mode) => (mode === 'garbage' ? '220 this is not IMAP\r\n' : `* OK [CAPABILITY IMAP4rev1${mode === 'ok' ? ' STARTTLS' : ''} LOGINDISABLED] infralens test fake ready\r\n`),
  step: lineProtocol((text, s, mode, rest) => {
    const [tag, verb = ''] = text.split(' ')
    const command = verb.toUpperCase()
    if (command === 'CAPABILITY') s.write(`* CAPABILITY IMAP4rev1${mode === 'ok' ? ' STARTTLS' : ''} LOGINDISABLED\r\n${tag} OK CAPABILITY completed\r\n`)
    else if (command === 'STARTTLS' && mode === 'ok') {
      s.write(`${tag} OK Begin TLS negotiation now\r\n`)
      s.handOver(rest())
    } else if (command === 'STARTTLS') s.write(`${tag} BAD STARTTLS not available\r\n`)
    else s.write(`${tag} BAD unknown command\r\n`)
  }),
}

// POP3 (RFC 2595 §4, RFC 2449 CAPA).
const pop3: Protocol = {
  greeting: (mode) => (mode === 'garbage' ? '* OK this is IMAP, not POP3\r\n' : '+OK infralens test fake POP3 ready\r\n'),
  step: lineProtocol((text, s, mode, rest) => {
    const command = text.toUpperCase()
    if (command === 'CAPA') s.write(`+OK capability list follows\r\nUSER\r\n${mode === 'ok' ? 'STLS\r\n' : ''}.\r\n`)
    else if (command === 'STLS' && mode === 'ok') {
      s.write('+OK Begin TLS negotiation\r\n')
      s.handOver(rest())
    } else s.write('-ERR command not available\r\n')
  }),
}

// FTP (RFC 4217 §4): AUTH TLS answered 234.
const ftp: Protocol = {
  greeting: (mode) => (mode === 'garbage' ? '+OK POP3, not FTP\r\n' : '220-infralens test fake FTP\r\n220 ready\r\n'),
  step: lineProtocol((text, s, mode, rest) => {
    const command = text.toUpperCase()
    if (command === 'FEAT') s.write(`211-Features:\r\n${mode === 'ok' ? ' AUTH TLS\r\n' : ''} PASV\r\n211 End\r\n`)
    else if (command === 'AUTH TLS' && mode === 'ok') {
      s.write('234 AUTH TLS successful\r\n')
      s.handOver(rest())
    } else if (command.startsWith('AUTH')) s.write('504 AUTH mechanism not implemented\r\n')
    else s.write('500 command not understood\r\n')
  }),
}

// XMPP client-to-server (RFC 6120 §5.4): stream header in, stream features with
// <starttls/> out, <starttls/> in, <proceed/> out.
const xmpp: Protocol = {
  step: (buffer, s, mode) => {
    const said = buffer.toString('latin1')
    const header = /<stream:stream\b[^>]*>/.exec(said)
    const starttls = /<starttls\b[^>]*\/>/.exec(said)
    if (starttls) {
      s.write(mode === 'ok' ? "<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>" : "<failure xmlns='urn:ietf:params:xml:ns:xmpp-tls'/></stream:stream>")
      const end = starttls.index + starttls[0].length
      if (mode === 'ok') s.handOver(buffer.subarray(end))
      return end
    }
    if (header) {
      if (mode === 'garbage') s.write('HTTP/1.1 400 Bad Request\r\n\r\n')
      else {
        const features = mode === 'ok' ? "<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls>" : "<mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms>"
        s.write(`<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' id='fake-1' from='starttls.test' version='1.0'><stream:features>${features}</stream:features>`)
      }
      return header.index + header[0].length
    }
    return 0
  },
}

// LDAP (RFC 4511 §4.14): ExtendedRequest 1.3.6.1.4.1.1466.20037 in, an
// ExtendedResponse (resultCode 0, or 2 protocolError when refusing) out.
const ldap: Protocol = {
  step: (buffer, s, mode) => {
    if (buffer.length < 2) return 0
    const length = buffer[1]! < 0x80 ? buffer[1]! + 2 : null
    if (length === null) return s.close(), buffer.length
    if (buffer.length < length) return 0
    const idAt = 2
    const id = buffer.subarray(idAt, idAt + 2 + buffer[idAt + 1]!) // INTEGER messageID, echoed
    if (mode === 'garbage') s.write('220 not LDAP\r\n')
    else {
      const code = mode === 'ok' ? 0 : 2
      const inner = Buffer.from([0x0a, 1, code, 0x04, 0, 0x04, 0])
      const op = Buffer.concat([Buffer.from([0x78, inner.length]), inner])
      s.write(Buffer.concat([Buffer.from([0x30, id.length + op.length]), id, op]))
      if (mode === 'ok') s.handOver(buffer.subarray(length))
    }
    return length
  },
}

// PostgreSQL: SSLRequest (length 8, code 80877103) in, 'S' or 'N' out.
const postgres: Protocol = {
  step: (buffer, s, mode) => {
    if (buffer.length < 8) return 0
    if (mode === 'garbage') s.write('HTTP/1.0 400 Bad Request\r\n\r\n')
    else if (mode === 'refuse') s.write('N')
    else {
      s.write('S')
      s.handOver(buffer.subarray(8))
    }
    return 8
  },
}

// MySQL: Initial Handshake v10 out (CLIENT_SSL set or not), the 32-byte
// SSLRequest packet in, and TLS at once (no answer).
function mysqlGreeting(mode: FakeMode): Buffer {
  if (mode === 'garbage') return Buffer.from('220 not MySQL\r\n')
  const CLIENT_SSL = 0x800
  const lower = 0xf7ff & ~CLIENT_SSL
  const caps = mode === 'ok' ? lower | CLIENT_SSL : lower
  const payload = Buffer.concat([
    Buffer.from([10]),
    Buffer.from('8.0.0-infralens-fake\0', 'latin1'),
    Buffer.from([1, 0, 0, 0]), // thread id
    Buffer.from('abcdefgh', 'latin1'), // auth data, part 1
    Buffer.from([0]),
    Buffer.from([caps & 0xff, caps >> 8]),
    Buffer.from([33]), // utf8_general_ci
    Buffer.from([2, 0]), // status: autocommit
    Buffer.from([0xff, 0x81]), // capabilities, upper half (CLIENT_PLUGIN_AUTH among them)
    Buffer.from([21]),
    Buffer.alloc(10),
    Buffer.from('ijklmnopqrst\0', 'latin1'), // auth data, part 2
    Buffer.from('mysql_native_password\0', 'latin1'),
  ])
  const header = Buffer.alloc(4)
  header.writeUIntLE(payload.length, 0, 3)
  header[3] = 0
  return Buffer.concat([header, payload])
}
const mysql: Protocol = {
  greeting: mysqlGreeting,
  step: (buffer, s, mode) => {
    if (buffer.length < 4) return 0
    const length = 4 + buffer.readUIntLE(0, 3)
    if (buffer.length < length) return 0
    // An SSLRequest is the 32-byte packet; anything longer is a login we do not take.
    if (mode === 'ok' && length === 36) s.handOver(buffer.subarray(length))
    else s.close()
    return length
  },
}

const PROTOCOLS: Record<FakeProtocol, Protocol> = { smtp, imap, pop3, ftp, xmpp, ldap, postgres, mysql }

export interface FakeStarttls {
  protocol: FakeProtocol
  mode: FakeMode
  address: string
  port: number
  /** Connections that reached TLS (handed over to the backend). */
  handedOver: number
  close(): Promise<void>
}

/**
 * One fake on `address`:`port` (port 0: any); `backend` is the TLS server the
 * connection goes to after the go-ahead.
 */
export async function startFakeStarttls(o: { protocol: FakeProtocol; mode?: FakeMode; backend: Backend; address: string; port?: number }): Promise<FakeStarttls> {
  const mode = o.mode ?? 'ok'
  const protocol = PROTOCOLS[o.protocol]
  const sockets = new Set<Socket>()
  const fake: FakeStarttls = { protocol: o.protocol, mode, address: o.address, port: 0, handedOver: 0, close: async () => {} }
  const server: Server = createServer((client) => {
    sockets.add(client)
    client.once('close', () => sockets.delete(client))
    client.on('error', () => {})
    let buffer = Buffer.alloc(0)
    let tls = false
    const session: Session = {
      write: (data) => void client.write(data),
      close: () => void client.end(),
      handOver(rest) {
        tls = true
        fake.handedOver++
        client.off('data', onData)
        client.pause()
        const upstream = connect(o.backend.port, o.backend.host, () => {
          if (rest.length) upstream.write(rest)
          client.pipe(upstream)
          upstream.pipe(client)
          client.resume()
        })
        sockets.add(upstream)
        upstream.once('close', () => {
          sockets.delete(upstream)
          client.destroy()
        })
        client.once('close', () => upstream.destroy())
        upstream.on('error', () => client.destroy())
      },
    }
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      for (let used = 1; used > 0 && !tls && buffer.length; ) {
        used = protocol.step(buffer, session, mode)
        if (!tls) buffer = buffer.subarray(used)
      }
    }
    client.on('data', onData)
    const hello = protocol.greeting?.(mode)
    if (hello !== undefined) client.write(hello)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port ?? 0, o.address, () => resolve())
  })
  fake.port = (server.address() as { port: number }).port
  fake.close = async () => {
    for (const s of sockets) s.destroy()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return fake
}

/**
 * Every protocol on its usual port, each on an address of its own (a random
 * 127.x.y.z, so test files running side by side do not collide on port 25).
 */
export async function startStarttlsFakes(backend: Backend, mode: FakeMode = 'ok'): Promise<Record<FakeProtocol, FakeStarttls>> {
  const out = {} as Record<FakeProtocol, FakeStarttls>
  for (const protocol of STARTTLS_FAKE_PROTOCOLS) {
    for (let attempt = 0; !out[protocol]; attempt++) {
      const address = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`
      try {
        out[protocol] = await startFakeStarttls({ protocol, mode, backend, address, port: USUAL_PORTS[protocol] })
      } catch (error) {
        if (attempt > 5) throw error
      }
    }
  }
  return out
}
