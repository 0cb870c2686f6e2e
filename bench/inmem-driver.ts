import { execFileSync } from 'node:child_process'
import net from 'node:net'
import { Duplex } from 'node:stream'

// Preloaded into a bench server (node --import tsx --import ./bench/inmem-driver.ts
// bench/servers/<name>-server.ts): when the server listens, requests are fed to it
// through in-memory sockets instead of the kernel, so every byte of node's HTTP
// stack and of the app runs, and nothing else (no loopback TCP, no wakeups, no load
// generator competing for the CPU). Under callgrind (bench/instructions.ts) the
// counters are zeroed after the warm-up and dumped after the measured requests:
// instructions per request, which does not depend on what else the box is doing
// (though it still varies between runs: see bench/instructions.ts).
//
// IM_W warm-up requests (20000), IM_N measured requests (5000), IM_C connections (50),
// IM_PATH the path (/api/uuid).

const W = Number(process.env.IM_W ?? 20_000)
const N = Number(process.env.IM_N ?? 5_000)
const C = Number(process.env.IM_C ?? 50)
const REQUEST = Buffer.from(`GET ${process.env.IM_PATH ?? '/api/uuid'} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: inmem\r\nAccept: */*\r\n\r\n`)

/** A socket whose far end is this driver: counts response heads, sends the next request. */
class MemorySocket extends Duplex {
  remoteAddress = '127.0.0.1'
  remotePort = 40_000
  remoteFamily = 'IPv4'
  localAddress = '127.0.0.1'
  localPort = 3000
  constructor(private readonly onResponse: (socket: MemorySocket) => void) {
    super()
  }
  override _read(): void {}
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    if (chunk.includes('HTTP/1.1 ')) this.onResponse(this)
    done()
  }
  override _writev(chunks: { chunk: Buffer }[], done: () => void): void {
    for (const { chunk } of chunks) if (chunk.includes('HTTP/1.1 ')) this.onResponse(this)
    done()
  }
  setTimeout(): this {
    return this
  }
  setNoDelay(): this {
    return this
  }
  setKeepAlive(): this {
    return this
  }
}

function drive(server: net.Server, count: number): Promise<void> {
  let sent = 0
  let answered = 0
  return new Promise((resolve) => {
    const onResponse = (socket: MemorySocket) => {
      if (++answered === count) return resolve()
      if (sent < count) {
        sent++
        setImmediate(() => socket.push(REQUEST))
      }
    }
    for (let i = 0; i < C && sent < count; i++) {
      const socket = new MemorySocket(onResponse)
      server.emit('connection', socket)
      sent++
      socket.push(REQUEST)
    }
  })
}

const callgrind = (...args: string[]) => execFileSync('callgrind_control', [...args, String(process.pid)], { stdio: 'ignore' })

const listen = net.Server.prototype.listen
net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
  this.once('listening', async () => {
    await drive(this, W)
    const underCallgrind = process.env.IM_CALLGRIND === '1'
    if (underCallgrind) callgrind('-z')
    const started = process.cpuUsage()
    await drive(this, N)
    const cpu = process.cpuUsage(started)
    if (underCallgrind) callgrind('-d', 'measured')
    process.stderr.write(`inmem: ${N} requests, ${((cpu.user + cpu.system) / N).toFixed(2)} µs CPU per request\n`)
    process.exit(0)
  })
  return (listen as (...a: unknown[]) => net.Server).apply(this, args)
} as typeof listen
