import type { Config } from '../../runtime/config.ts'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import type { TlsSettings } from './target.ts'
import type { TrustStore } from './trust-store.ts'

// The TLS plugin's deadlines and scan pool, from the service's configuration.

/** Scan probes in flight at most: enough to overlap a server's latency, few enough not to look like a flood. */
export const PROBE_CONCURRENCY = 16

/**
 * Connections to the target an analysis may need beside its scan: the node:tls
 * handshake, the served-chain probe and the HSTS request (all three run while the
 * scan does), and one for the web area's request that /api/report sends to the
 * same host and port while it asks for the analysis.
 */
export const SCAN_HEADROOM = 4

/**
 * The scan's pool under the guarded network's per-target bound
 * (INFRALENS_UPSTREAM_CONCURRENCY, 16 by default): the bound minus the headroom.
 * A pool as large as the bound made an analysis queue behind its own scan, and a
 * queued connection's deadline runs while it waits, so on a slow server the
 * handshake could fail on time it never used. The bound stays as it is (it is
 * what protects a target from all users together, and the service upstreams
 * share the setting); the pool shrinks to fit under it instead. With a bound of
 * 4 or less the scan runs one probe at a time and the others may still wait.
 */
export function scanPoolSize(perTargetBound: number): number {
  return Math.max(1, Math.min(PROBE_CONCURRENCY, perTargetBound - SCAN_HEADROOM))
}

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, Math.round(value)))

export function tlsSettings(config: Pick<Config, 'requestTimeoutMs' | 'upstreamConcurrency'>, network: GuardedNetwork, trust: TrustStore): TlsSettings {
  return {
    network,
    trust,
    // A handshake gets a third of the request deadline and a hello probe a fifth:
    // a silent host is reported as a 502 naming it, well before the 504.
    handshakeTimeoutMs: clamp(config.requestTimeoutMs / 3, 300, 10_000),
    probeTimeoutMs: clamp(config.requestTimeoutMs / 5, 200, 5_000),
    concurrency: scanPoolSize(config.upstreamConcurrency),
  }
}
