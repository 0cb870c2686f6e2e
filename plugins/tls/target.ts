import { NotFoundError, UpstreamError } from '../../runtime/errors.ts'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import type { TlsTarget } from '../../registry/tls/schemas/host-param.ts'
import type { Dial } from './probe.ts'
import type { TrustStore } from './trust-store.ts'

// Everything the TLS resolvers share: the guarded network, the trust store,
// deadlines and the probe pool size (settings.ts), and how a target is reached.

export interface TlsSettings {
  network: GuardedNetwork
  trust: TrustStore
  /** One full handshake (node:tls). */
  handshakeTimeoutMs: number
  /** One ClientHello/ServerHello probe. */
  probeTimeoutMs: number
  /** Probes in flight per scan (settings.ts: under the per-target bound, with headroom). */
  concurrency: number
}

export interface Reached {
  target: TlsTarget
  /** The vetted address every connection of this request goes to. */
  address: string
  /** SNI: the name, or null for an IP target. */
  serverName: string | null
  dial: Dial
}

/**
 * Resolves the target once (the service's own DNS, vetted by the guard: a
 * refused target is a 400) and pins every later connection of the request to
 * the first address, so what is scanned is one server, not a DNS round-robin.
 */
export async function reach(settings: TlsSettings, target: TlsTarget, signal: AbortSignal): Promise<Reached> {
  let address: string | undefined
  try {
    ;[address] = await settings.network.resolve(target.host, signal)
  } catch (error) {
    // The guard's "no A or AAAA records" (it names the host): the host does not exist.
    if (error instanceof UpstreamError && error.details.upstream === 'dns' && error.details.reason === 'bad_response' && error.details.host === target.host) {
      throw new NotFoundError(`${target.host} has no A or AAAA records, so there is no server to connect to.`, { host: target.host })
    }
    throw error
  }
  const dial: Dial = async (probeSignal) =>
    (await settings.network.connect({ host: address!, port: target.port, signal: probeSignal, timeoutMs: settings.handshakeTimeoutMs, upstream: 'tls' })).socket
  return { target, address: address!, serverName: target.kind === 'name' ? target.host : null, dial }
}

export function targetFields(r: Reached) {
  return { host: r.target.host, port: r.target.port, server_name: r.serverName, address: r.address }
}
