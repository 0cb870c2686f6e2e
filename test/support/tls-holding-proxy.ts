// A TCP proxy in front of a loopback TLS server that holds each connection's
// first bytes (the ClientHello) for `holdMs` before passing them on. While a
// hello is held its client is certainly still waiting for the answer, so the
// number of held hellos is a count of probes in flight that does not depend on
// when the proxy notices a hang-up: the client cannot free a pool slot for a
// probe before the proxy has let that probe's hello through.

import { createServer, connect } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'

export interface HoldingProxy {
  address: string
  port: number
  /** Hellos held right now, and the most held at once since the last reset. */
  held(): number
  peak(): number
  connections(): number
  reset(): void
  close(): Promise<void>
}

export async function startHoldingProxy(upstream: { address: string; port: number }, holdMs: number, address = '127.0.0.1'): Promise<HoldingProxy> {
  let held = 0
  let peak = 0
  let connections = 0
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    socket.on('error', () => {})
  }
  const server = createServer((client) => {
    connections++
    track(client)
    const first: Buffer[] = []
    let onward: Socket | null = null
    let holding = false
    client.on('data', (chunk: Buffer) => {
      if (onward) return void onward.write(chunk)
      first.push(chunk)
      if (holding) return
      holding = true
      held++
      peak = Math.max(peak, held)
      setTimeout(() => {
        held--
        if (client.destroyed) return
        const next = connect({ host: upstream.address, port: upstream.port })
        track(next)
        onward = next
        next.write(Buffer.concat(first))
        next.on('data', (data: Buffer) => client.write(data))
        next.once('close', () => client.destroy())
        client.once('close', () => next.destroy())
      }, holdMs)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, address, () => resolve())
  })
  return {
    address,
    port: (server.address() as AddressInfo).port,
    held: () => held,
    peak: () => peak,
    connections: () => connections,
    reset() {
      peak = held
      connections = 0
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
