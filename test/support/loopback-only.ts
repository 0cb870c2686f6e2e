import dgram from 'node:dgram'
import { isIP } from 'node:net'
import net from 'node:net'

// Loaded before every test file (vitest setupFiles): any socket aimed at an
// address outside 127.0.0.0/8 and ::1 throws instead of sending. The service's
// guard has its own tests; this catches a test that forgot to point the app at
// the loopback internet.

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  if (bare === 'localhost') return true
  if (isIP(bare) === 4) return bare.startsWith('127.')
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./i.test(bare)
  return false
}

function refuse(host: unknown, port: unknown): never {
  throw new Error(`test tried to reach ${String(host)}:${String(port)} — tests may only use loopback (test/support/loopback-only.ts)`)
}

const connect = net.Socket.prototype.connect
net.Socket.prototype.connect = function patched(this: net.Socket, ...args: unknown[]) {
  const first = args[0]
  let host: unknown
  let port: unknown
  let path: unknown
  if (Array.isArray(first)) {
    // internal normalized form: [options, callback]
    const o = first[0] as { host?: string; port?: number; path?: string }
    host = o?.host
    port = o?.port
    path = o?.path
  } else if (typeof first === 'object' && first !== null) {
    const o = first as { host?: string; port?: number; path?: string }
    host = o.host
    port = o.port
    path = o.path
  } else {
    port = first
    host = typeof args[1] === 'string' ? args[1] : undefined
  }
  if (path === undefined && host !== undefined && !isLoopback(String(host))) refuse(host, port)
  return connect.apply(this, args as Parameters<typeof connect>)
} as typeof connect

const send = dgram.Socket.prototype.send
dgram.Socket.prototype.send = function patched(this: dgram.Socket, ...args: unknown[]) {
  // send(msg, [offset, length,] port, address, cb) or on a connected socket send(msg, cb)
  const address = args.find((a, i) => i > 0 && typeof a === 'string')
  if (typeof address === 'string' && !isLoopback(address)) refuse(address, args.find((a, i) => i > 0 && typeof a === 'number'))
  return send.apply(this, args as Parameters<typeof send>)
} as typeof send

const dconnect = dgram.Socket.prototype.connect
dgram.Socket.prototype.connect = function patched(this: dgram.Socket, port: number, address?: string | (() => void), cb?: () => void) {
  if (typeof address === 'string' && !isLoopback(address)) refuse(address, port)
  return (dconnect as (...a: unknown[]) => void).call(this, port, address, cb)
} as typeof dconnect
