import net from 'node:net'
import { TLSSocket, createSecureContext } from 'node:tls'
import type { KeyAndCert } from './certs.ts'

// Mail servers of the loopback internet: one port, several 127.x addresses, each
// address its own host (name, STARTTLS or not, certificate). They speak enough
// ESMTP for a probe — greeting, EHLO, STARTTLS (RFC 3207), NOOP, QUIT — or fail
// on purpose (the fault matrix), and log every session, so tests can see what
// the service really did on the wire.

export interface FakeSmtpHost {
  address: string
  hostname: string
  /** Offer STARTTLS with this certificate; without it the host has no STARTTLS. */
  tls?: KeyAndCert
  /** Announce STARTTLS but answer it with 454 (a broken TLS setup). */
  refuseStarttls?: boolean
  /**
   * Fail on purpose, from the first byte: `hang` accepts and never greets,
   * `reset` drops the connection (RST), `garbage` greets with bytes that are not
   * SMTP, `drip` sends the greeting a byte every `dripMs` (default 100), `reject`
   * greets with 554 (RFC 5321 §3.1: no service here) and closes.
   */
  fault?: 'hang' | 'reset' | 'garbage' | 'drip' | 'reject'
  dripMs?: number
}

export interface SmtpSession {
  address: string
  commands: string[]
  tls: boolean
  protocol: string | null
}

export interface FakeSmtp {
  port: number
  sessions: SmtpSession[]
  close(): Promise<void>
}

/** true: the host's fault took the session over. */
function misbehave(socket: net.Socket, host: FakeSmtpHost, timers: Set<NodeJS.Timeout>): boolean {
  switch (host.fault) {
    case undefined:
      return false
    case 'hang':
      return true
    case 'reset':
      socket.resetAndDestroy()
      return true
    case 'garbage':
      socket.end(Buffer.from('\u0000\u00ff\u0016\u0003\u0001 not smtp at all\r\n', 'latin1'))
      return true
    case 'reject':
      socket.end(`554 5.3.2 ${host.hostname} no SMTP service here\r\n`)
      return true
    case 'drip': {
      const greeting = Buffer.from(`220 ${host.hostname} ESMTP infralens-fake\r\n`)
      let at = 0
      const tick = () => {
        if (socket.destroyed || at >= greeting.length) return
        socket.write(greeting.subarray(at, ++at))
        const t = setTimeout(tick, host.dripMs ?? 100)
        timers.add(t)
      }
      tick()
      return true
    }
  }
}

function serve(socket: net.Socket, host: FakeSmtpHost, session: SmtpSession): void {
  let buffer = ''
  let stream: net.Socket | TLSSocket = socket
  const reply = (text: string) => stream.write(text)
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('latin1')
    let newline: number
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '')
      buffer = buffer.slice(newline + 1)
      if (handle(line)) return
    }
  }
  /** true: stop reading this stream (it was handed to TLS or closed). */
  const handle = (line: string): boolean => {
    session.commands.push(line)
    const verb = line.split(' ')[0]!.toUpperCase()
    if (verb === 'EHLO') {
      const ext = ['PIPELINING', 'SIZE 10240000', ...(host.tls && !session.tls ? ['STARTTLS'] : []), '8BITMIME']
      reply(`250-${host.hostname} greets ${line.slice(5)}\r\n${ext.map((e, i) => `250${i === ext.length - 1 ? ' ' : '-'}${e}\r\n`).join('')}`)
    } else if (verb === 'HELO') reply(`250 ${host.hostname}\r\n`)
    else if (verb === 'NOOP') reply('250 2.0.0 OK\r\n')
    else if (verb === 'QUIT') {
      reply('221 2.0.0 Bye\r\n')
      stream.end()
      return true
    } else if (verb === 'STARTTLS' && host.tls && !session.tls && !host.refuseStarttls) {
      reply('220 2.0.0 Ready to start TLS\r\n')
      socket.off('data', onData)
      const secure = new TLSSocket(socket, { isServer: true, secureContext: createSecureContext({ key: host.tls.key, cert: host.tls.cert }) })
      secure.on('secure', () => {
        session.tls = true
        session.protocol = secure.getProtocol() || null
      })
      secure.on('error', () => socket.destroy())
      secure.on('data', onData)
      stream = secure
      buffer = ''
      return true
    } else if (verb === 'STARTTLS') reply('454 4.7.0 TLS not available\r\n')
    else reply('502 5.5.2 Command not implemented\r\n')
    return false
  }
  socket.on('data', onData)
  socket.on('error', () => {})
  reply(`220 ${host.hostname} ESMTP infralens-fake\r\n`)
}

async function listen(server: net.Server, address: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, address, () => {
      server.off('error', reject)
      resolve((server.address() as net.AddressInfo).port)
    })
  })
}

/** All hosts on one port (the probe's INFRALENS_SMTP_PORT), each on its own loopback address. */
export async function startFakeSmtp(hosts: FakeSmtpHost[]): Promise<FakeSmtp> {
  const sessions: SmtpSession[] = []
  const timers = new Set<NodeJS.Timeout>()
  for (let attempt = 0; attempt < 20; attempt++) {
    const servers: net.Server[] = []
    const sockets = new Set<net.Socket>()
    try {
      let port = 0
      for (const host of hosts) {
        const server = net.createServer((socket) => {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          const session: SmtpSession = { address: host.address, commands: [], tls: false, protocol: null }
          sessions.push(session)
          socket.on('error', () => {})
          if (!misbehave(socket, host, timers)) serve(socket, host, session)
        })
        servers.push(server)
        port = await listen(server, host.address, port)
      }
      return {
        port,
        sessions,
        async close() {
          for (const t of timers) clearTimeout(t)
          for (const s of sockets) s.destroy()
          await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
        },
      }
    } catch (error) {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    }
  }
  throw new Error('no port free on every fake SMTP address')
}
