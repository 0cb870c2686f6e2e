import net from 'node:net'
import type { AddressInfo } from 'node:net'

// A TCP port that only ever misbehaves, for targets that speak TLS (or anything
// else) from the first byte: it waits for the client's first bytes (a
// ClientHello) and then hangs, resets, answers with bytes of another protocol,
// or drips a TLS record header a byte at a time. The fault can be changed
// between requests; connections are logged.

export type TcpFault = 'hang' | 'reset' | 'garbage' | 'drip'

export interface FaultyTcp {
  address: string
  port: number
  /** "address:port" */
  target: string
  connections: number
  setFault(fault: TcpFault): void
  close(): Promise<void>
}

export async function startFaultyTcp(address: string, options: { dripMs?: number } = {}): Promise<FaultyTcp> {
  let fault: TcpFault = 'hang'
  const sockets = new Set<net.Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const state = { connections: 0 }
  const server = net.createServer((socket) => {
    state.connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    socket.once('data', () => {
      if (fault === 'hang') return
      if (fault === 'reset') return void socket.resetAndDestroy()
      // A plain HTTP server on the port the client expected TLS on.
      if (fault === 'garbage') return void socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n')
      // A handshake record header promising 64 bytes, one byte at a time.
      const record = Buffer.from([0x16, 0x03, 0x03, 0x00, 0x40, ...Buffer.alloc(64, 0x02)])
      let at = 0
      const tick = () => {
        if (socket.destroyed || at >= record.length) return
        socket.write(record.subarray(at, ++at))
        const t = setTimeout(tick, options.dripMs ?? 100)
        timers.add(t)
      }
      tick()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, address, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    address,
    port,
    target: `${address}:${port}`,
    get connections() {
      return state.connections
    },
    setFault(next) {
      fault = next
    },
    async close() {
      for (const t of timers) clearTimeout(t)
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
