import dgram from 'node:dgram'
import type { LookupAddress } from 'node:dns'
import type { LookupFunction } from 'node:net'
import net, { isIP } from 'node:net'
import { installDnsFence } from './loopback-only-dns.ts'
import { fenceError, isLocalName, isLoopbackAddress } from './loopback-rule.ts'

// Loaded before every test file (vitest setupFiles) and by the scripts and
// benchmarks that run the service offline: any socket aimed off 127.0.0.0/8 and
// ::1 throws instead of sending. The service's guard has its own tests; this
// catches a test that forgot to point the app at the loopback internet.
//
// The check sits in net.Socket.prototype.connect, where net, http, https, tls,
// http2 and fetch (undici) all end, before Node looks the host up or opens a
// socket. A name other than localhost is refused there too: it would go to the
// host resolver, and so to the machine's DNS server. DNS itself is fenced in
// loopback-only-dns.ts. CI also runs the suite in a network namespace with only
// loopback (.ci/run), which covers what this cannot see: child processes.

interface ConnectOptions {
  host?: unknown
  port?: unknown
  path?: unknown
  lookup?: unknown
}

/** The options of any form Node's connect takes, read the way net's normalizeArgs does. */
function optionsOf(args: unknown[]): ConnectOptions {
  const [first, second] = Array.isArray(args[0]) ? (args[0] as unknown[]) : args
  if (typeof first === 'object' && first !== null) return first as ConnectOptions
  if (typeof first === 'string' && Number.isNaN(Number(first))) return { path: first }
  return { port: first, host: typeof second === 'string' ? second : undefined }
}

/** The options to connect with: as given, with a lookup that is checked, or a throw. */
function fenced(options: ConnectOptions): ConnectOptions {
  // Node takes any truthy path as a Unix socket (IPC, nothing leaves the box) and
  // ignores host then; its own normalized options say "TCP" with path: null.
  if (options.path) return options
  const host = String(options.host || 'localhost')
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  // An IP literal is connected to as is: Node skips the lookup, even a custom one.
  if (isIP(bare)) {
    if (isLoopbackAddress(bare)) return options
    throw fenceError(`${host}:${String(options.port)}`)
  }
  // A name with its own lookup (the service pins names to vetted addresses this
  // way) never reaches the host resolver: check what the lookup answers instead.
  if (typeof options.lookup === 'function') return { ...options, lookup: checkedLookup(options.lookup as LookupFunction, options.port) }
  if (isLocalName(bare)) return options
  throw fenceError(`${host}:${String(options.port)} (a name: the host resolver would ask the machine's DNS server)`)
}

function checkedLookup(lookup: LookupFunction, port: unknown): LookupFunction {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
      if (error) return callback(error, address as string, family)
      const outside = (Array.isArray(address) ? address.map((a) => a.address) : [address]).filter((a) => !isLoopbackAddress(a))
      // Handed to Node's callback, not thrown: the lookup may answer later, on a stack of its own.
      if (outside.length) return callback(fenceError(`${hostname} at ${outside.join(', ')} port ${String(port)} (its lookup answered)`), '', 0)
      ;(callback as (e: null, a: string | LookupAddress[], f?: number) => void)(null, address, family)
    })
}

const connect = net.Socket.prototype.connect
net.Socket.prototype.connect = function fencedConnect(this: net.Socket, ...args: unknown[]) {
  const options = optionsOf(args)
  const checked = fenced(options)
  if (checked !== options) {
    // Node's normalized form is an array it marked as such: replace its options in place.
    if (Array.isArray(args[0])) (args[0] as unknown[])[0] = checked
    else args[0] = checked
  }
  return connect.apply(this, args as Parameters<typeof connect>)
} as typeof connect

/** dgram resolves a name with the host resolver too; no address means loopback. */
function checkDatagramTarget(address: unknown, port: unknown): void {
  if (typeof address !== 'string' || address === '') return
  if (isLoopbackAddress(address) || isLocalName(address)) return
  throw fenceError(`${address}:${String(port)} (UDP)`)
}

const send = dgram.Socket.prototype.send
dgram.Socket.prototype.send = function fencedSend(this: dgram.Socket, ...args: unknown[]) {
  // send(msg, [offset, length,] port[, address][, cb]); a connected socket's
  // send(msg[, offset, length][, cb]) goes where connect() was let through to.
  const address = args.find((a, i) => i > 0 && typeof a === 'string')
  checkDatagramTarget(address, args.findLast((a, i) => i > 0 && typeof a === 'number'))
  return send.apply(this, args as Parameters<typeof send>)
} as typeof send

const datagramConnect = dgram.Socket.prototype.connect
dgram.Socket.prototype.connect = function fencedConnect(this: dgram.Socket, ...args: unknown[]) {
  checkDatagramTarget(args[1], args[0])
  return (datagramConnect as (...a: unknown[]) => void).apply(this, args)
} as typeof datagramConnect

installDnsFence()
