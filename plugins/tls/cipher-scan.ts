import type { ProtocolName } from './client-hello.ts'
import { PROTOCOLS } from './client-hello.ts'
import { LEGACY_SUITES, TLS13_SUITES } from './cipher-suites.ts'
import { fanOut } from '../../runtime/net/child-signals.ts'
import { createPool } from './pool.ts'
import type { Pooled } from './probe-context.ts'
import type { Dial, FailureReason, HelloOutcome } from './probe.ts'
import { probeHello } from './probe.ts'

// Which protocol versions and suites a server accepts, by elimination: offer a
// set, the server names the one it takes, drop it, offer the rest again, until
// it refuses. Per protocol the suites are dealt into a few subsets eliminated in
// parallel, and every probe goes through one bounded pool. The cost is one
// probe per accepted suite plus one per subset, instead of one per known suite,
// and a probe is a ClientHello and a ServerHello: no key exchange on our side.
// An unsupported protocol costs a single probe.

export interface ProtocolScan {
  protocol: ProtocolName
  version: number
  supported: boolean
  /** Accepted suites: in the server's order when it enforces one, else strongest first. */
  suites: number[]
  /** true: the server picks by its own order; false: by ours; null: fewer than two suites. */
  server_preference: boolean | null
  /** Why the first probe got no answer about the hello at all (timeout, refused, not TLS). */
  error: { reason: FailureReason; message: string } | null
}

export interface CipherScan {
  protocols: ProtocolScan[]
  probes: number
  failed_probes: number
  /** Probes the server answered in TLS: a ServerHello or an alert (a bare hang-up is not an answer). */
  tls_answers: number
  /** The distinct alerts the server refused hellos with. */
  alerts: string[]
  duration_ms: number
}

export interface ScanOptions {
  serverName: string | null
  signal: AbortSignal
  /** Probes in flight at once. */
  concurrency: number
  probeTimeoutMs: number
  /** Subsets per TLS <= 1.2 protocol. */
  subsets?: number
  /** A pool shared with other scans of the same analysis (probe-context.ts); by default the scan's own of `concurrency`. */
  pooled?: Pooled
}

function deal<T>(items: readonly T[], n: number): T[][] {
  const out: T[][] = Array.from({ length: Math.min(n, items.length) }, () => [])
  items.forEach((item, i) => out[i % out.length]!.push(item))
  return out
}

export async function scanCiphers(dial: Dial, options: ScanOptions): Promise<CipherScan> {
  const scope = fanOut(options.signal, options.concurrency)
  try {
    return await scanWithin(dial, options, scope.signal)
  } finally {
    scope.close()
  }
}

/** The scan, its probes hanging off `signal` (at most `concurrency` of them at a time: the pool's bound). */
async function scanWithin(dial: Dial, options: ScanOptions, signal: AbortSignal): Promise<CipherScan> {
  const started = performance.now()
  const pooled = options.pooled ?? createPool(options.concurrency)
  let probes = 0
  let failed = 0
  let answers = 0
  const alerts = new Set<string>()

  const hello = async (version: number, suites: readonly number[]): Promise<HelloOutcome> => {
    signal.throwIfAborted()
    const outcome = await pooled(() => {
      probes++
      return probeHello(dial, { versions: [version], suites, serverName: options.serverName }, options.probeTimeoutMs, signal)
    })
    if (outcome.kind === 'failed') failed++
    else if (outcome.kind === 'accepted') answers++
    else if (outcome.alert !== null) {
      answers++
      alerts.add(outcome.alert)
    }
    return outcome
  }

  /** The suite the server takes from `offered` at exactly `version`, or null. */
  const pick = async (version: number, offered: readonly number[]): Promise<{ suite: number | null; failure: ProtocolScan['error'] }> => {
    const outcome = await hello(version, offered)
    if (outcome.kind === 'failed') return { suite: null, failure: { reason: outcome.reason, message: outcome.message } }
    if (outcome.kind === 'rejected') return { suite: null, failure: null }
    // A lower version in the answer means this one is not supported; a suite we did
    // not offer is a broken server, and continuing would loop.
    if (outcome.hello.version !== version || !offered.includes(outcome.hello.suite)) return { suite: null, failure: null }
    return { suite: outcome.hello.suite, failure: null }
  }

  const eliminate = async (version: number, subset: readonly number[]): Promise<number[]> => {
    const found: number[] = []
    let remaining = [...subset]
    while (remaining.length > 0) {
      const { suite } = await pick(version, remaining)
      if (suite === null) break
      found.push(suite)
      remaining = remaining.filter((s) => s !== suite)
    }
    return found
  }

  const scanProtocol = async (protocol: ProtocolName, version: number): Promise<ProtocolScan> => {
    const candidates = version === 0x0304 ? TLS13_SUITES : LEGACY_SUITES
    const first = await pick(version, candidates)
    if (first.suite === null) return { protocol, version, supported: false, suites: [], server_preference: null, error: first.failure }
    const top = first.suite
    const rest = candidates.filter((s) => s !== top)
    const found = await Promise.all(deal(rest, version === 0x0304 ? 1 : (options.subsets ?? 8)).map((subset) => eliminate(version, subset)))
    const accepted = [top, ...found.flat()].sort((a, b) => candidates.indexOf(a) - candidates.indexOf(b))
    if (accepted.length < 2) return { protocol, version, supported: true, suites: accepted, server_preference: null, error: null }
    // Offered strongest first the server took `top`; offered in reverse, a server
    // that follows our order takes the last one, a server with its own order `top` again.
    const reversed = await pick(version, [...accepted].reverse())
    const serverPreference = reversed.suite === top
    if (!serverPreference) return { protocol, version, supported: true, suites: accepted, server_preference: false, error: null }
    const ordered = [top]
    let remaining = accepted.filter((s) => s !== top)
    while (remaining.length > 1) {
      const { suite } = await pick(version, remaining)
      if (suite === null) break
      ordered.push(suite)
      remaining = remaining.filter((s) => s !== suite)
    }
    ordered.push(...remaining)
    return { protocol, version, supported: true, suites: ordered, server_preference: true, error: null }
  }

  const protocols = await Promise.all(PROTOCOLS.map((p) => scanProtocol(p.name, p.version)))
  return { protocols, probes, failed_probes: failed, tls_answers: answers, alerts: [...alerts], duration_ms: Math.round(performance.now() - started) }
}
