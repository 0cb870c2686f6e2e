import { BlockList, isIP } from 'node:net'

// What counts as staying on the machine, for both halves of the fence
// (loopback-only.ts for sockets, loopback-only-dns.ts for DNS).

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
// BlockList also matches ::ffff:127.x.y.z and the long form 0:0:0:0:0:0:0:1 here
LOOPBACK.addAddress('::1', 'ipv6')

/** An IP literal (brackets allowed) in 127.0.0.0/8 or ::1; a name is never one. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1')
  const family = isIP(bare)
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * The one name the host resolver answers from /etc/hosts without a query. Not
 * `*.localhost` (glibc sends those to the DNS server) and not `127.1` (not an IP
 * literal to Node, so it goes to getaddrinfo too).
 */
export function isLocalName(name: string): boolean {
  return name.toLowerCase() === 'localhost'
}

export class LoopbackFenceError extends Error {
  readonly code = 'ELOOPBACKFENCE'
}

/**
 * Every refusal in this process so far, whether or not the code that met it let
 * the error surface (a service turns a refused connect into a 502 like any
 * other): `count`, and the last few targets. A test that must stay on the box by
 * itself, not by the fence (test/hardening/fuzz-*.test.ts), asserts it stays 0.
 */
export const fenceRefusals: { count: number; recent: string[] } = { count: 0, recent: [] }

/** The fence's error; its message names the fence so a test failure points here. */
export function fenceError(what: string): LoopbackFenceError {
  fenceRefusals.count++
  fenceRefusals.recent.push(what)
  if (fenceRefusals.recent.length > 20) fenceRefusals.recent.shift()
  return new LoopbackFenceError(`test tried to reach ${what} — tests may only use loopback (test/support/loopback-only.ts)`)
}
