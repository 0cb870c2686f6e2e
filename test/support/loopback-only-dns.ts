import dns from 'node:dns'
import { syncBuiltinESMExports } from 'node:module'
import { isIP } from 'node:net'
import { fenceError, isLocalName, isLoopbackAddress } from './loopback-rule.ts'

// The DNS half of the fence (installed by loopback-only.ts). The host resolver
// sends queries to the machine's DNS server: getaddrinfo (dns.lookup, and
// getnameinfo for dns.lookupService) for any name but localhost, c-ares
// (dns.resolve*, dns.reverse, every Resolver) to the servers of
// /etc/resolv.conf. What stays local is let through: lookups of localhost and
// of IP literals (answered without a query), and c-ares pointed at servers the
// test runs on loopback. The service itself never uses node:dns for DNS (it has
// its own client over dgram and net, fenced in loopback-only.ts).

/**
 * The machine's resolvers, as c-ares read them at start: off the box even when
 * one is on loopback (a 127.0.0.53 stub forwards every query it gets).
 */
const MACHINE_SERVERS = new Set(dns.getServers())

/** '192.0.2.1', '127.0.0.1:5353', '[::1]:5353' or '::1' (getServers' forms) to the address. */
function serverAddress(server: string): string {
  const bracketed = /^\[(.*)\](?::\d+)?$/.exec(server)
  if (bracketed) return bracketed[1]!
  return isIP(server) ? server : server.replace(/:\d+$/, '')
}

function refusedServers(servers: string[], query: string): Error | undefined {
  const outside = servers.filter((s) => MACHINE_SERVERS.has(s) || !isLoopbackAddress(serverAddress(s)))
  if (outside.length) return fenceError(`the DNS server ${outside.join(', ')} (${query}; point a Resolver at a test server on loopback with setServers)`)
  return undefined
}

type Fn = (this: unknown, ...args: unknown[]) => unknown

/**
 * Replaces target[name] with a function that first asks `refuse`; a refusal is
 * thrown (callback API) or a rejected promise (promises API), as Node's own
 * argument errors are. Symbol properties (util.promisify's custom argument
 * names) are kept.
 */
function fence(target: object, name: string, promises: boolean, refuse: (self: unknown, args: unknown[]) => Error | undefined): void {
  const holder = target as Record<string | symbol, unknown>
  const original = holder[name] as Fn
  const replacement = function (this: unknown, ...args: unknown[]) {
    const error = refuse(this, args)
    if (error) {
      if (promises) return Promise.reject(error)
      throw error
    }
    return original.apply(this, args)
  } as Fn & Record<symbol, unknown>
  for (const key of Object.getOwnPropertySymbols(original)) replacement[key] = (original as unknown as Record<symbol, unknown>)[key]
  holder[name] = replacement
}

const localName = (hostname: unknown) => !hostname || isIP(String(hostname)) !== 0 || isLocalName(String(hostname))

export function installDnsFence(): void {
  for (const [api, promises] of [
    [dns, false],
    [dns.promises, true],
  ] as const) {
    fence(api, 'lookup', promises, (_self, [hostname]) =>
      localName(hostname) ? undefined : fenceError(`${String(hostname)} through the host resolver (getaddrinfo asks the machine's DNS server; only localhost is answered locally)`),
    )
    fence(api, 'lookupService', promises, (_self, [address, port]) =>
      isLoopbackAddress(String(address)) ? undefined : fenceError(`${String(address)}:${String(port)} through getnameinfo (a reverse query to the machine's DNS server)`),
    )
    // The resolve* and reverse methods, on Resolver objects and the module's
    // default resolver (whose functions were bound before this ran).
    const queries = Object.getOwnPropertyNames(api.Resolver.prototype).filter((n) => n === 'reverse' || n.startsWith('resolve'))
    for (const name of queries) {
      fence(api.Resolver.prototype, name, promises, (self, [query]) => refusedServers((self as dns.Resolver).getServers(), `${name} ${String(query)}`))
      fence(api, name, promises, (_self, [query]) => refusedServers(api.getServers(), `${name} ${String(query)}`))
    }
  }
  // `import { resolve4 } from 'node:dns'` reads the ES module's copy of the exports.
  syncBuiltinESMExports()
}
