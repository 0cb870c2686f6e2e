import { NotFoundError, UpstreamError } from '../../runtime/errors.ts'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import type { TlsTarget } from '../../registry/tls/schemas/host-param.ts'
import type { StarttlsProtocol } from '../../registry/tls/schemas/starttls-param.ts'
import { STARTTLS_PORTS } from '../../registry/tls/schemas/starttls-param.ts'
import type { Dial } from './probe.ts'
import { startTls } from './starttls/starttls.ts'
import type { TrustStore } from './trust-store.ts'
import type { ProfileStore } from './profiles/profile-store.ts'

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
  /** Mozilla's guidelines for the compliance part of an analysis; none: that part is unavailable. */
  profiles?: ProfileStore
}

export interface Reached {
  target: TlsTarget
  /** The vetted address every connection of this request goes to. */
  address: string
  /** SNI: the name, or null for an IP target. */
  serverName: string | null
  /** The plaintext protocol every connection speaks before TLS, if any. */
  starttls: StarttlsProtocol | null
  dial: Dial
}

/** The target on its STARTTLS protocol's usual port when the host named no port. */
export function onStarttlsPort(target: TlsTarget, starttls: StarttlsProtocol | undefined): TlsTarget {
  if (!starttls || target.port_given) return target
  const port = STARTTLS_PORTS[starttls]
  const host = target.kind === 'ipv6' ? `[${target.host}]` : target.host
  return { ...target, port, label: `${host}:${port}` }
}

/**
 * Resolves the target once (the service's own DNS, vetted by the guard: a
 * refused target is a 400) and pins every later connection of the request to
 * the first address, so what is scanned is one server, not a DNS round-robin.
 */
export async function reach(settings: TlsSettings, target: TlsTarget, signal: AbortSignal, starttls: StarttlsProtocol | null = null): Promise<Reached> {
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
  const plain: Dial = async (probeSignal) =>
    (await settings.network.connect({ host: address!, port: target.port, signal: probeSignal, timeoutMs: settings.handshakeTimeoutMs, upstream: 'tls' })).socket
  // With STARTTLS every connection speaks the protocol first, under the same deadline.
  const dial: Dial = starttls
    ? async (probeSignal) => {
        const socket = await plain(probeSignal)
        await startTls(starttls, socket, target.host, target.label, probeSignal)
        return socket
      }
    : plain
  return { target, address: address!, serverName: target.kind === 'name' ? target.host : null, starttls, dial }
}

export function targetFields(r: Reached) {
  return { host: r.target.host, port: r.target.port, server_name: r.serverName, address: r.address, starttls: r.starttls }
}
