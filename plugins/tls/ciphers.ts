import { UpstreamError } from '../../runtime/errors.ts'
import type { CipherScan } from './cipher-scan.ts'
import { scanCiphers } from './cipher-scan.ts'
import { suiteOf } from './cipher-suites.ts'
import type { TlsTarget } from './host-param.ts'
import { suiteData, summarize } from './present.ts'
import type { Reached, TlsSettings } from './target.ts'
import { reach, targetFields } from './target.ts'

// GET /api/tls/ciphers/{host}: every protocol and suite the server accepts.

export async function scanTarget(settings: TlsSettings, r: Reached, signal: AbortSignal): Promise<CipherScan> {
  const scan = await scanCiphers(r.dial, { serverName: r.serverName, signal, concurrency: settings.concurrency, probeTimeoutMs: settings.probeTimeoutMs })
  if (!scan.protocols.some((p) => p.supported) && scan.failed_probes > 0) {
    // Nothing accepted and probes failed outright: the port is closed, silent, or not TLS.
    const error = scan.protocols.find((p) => p.error)?.error ?? { reason: 'network', message: 'no answer' }
    const reason = error.reason === 'not_tls' || error.reason === 'malformed' ? 'bad_response' : error.reason
    throw new UpstreamError('tls', reason, `${r.target.label} did not complete a TLS hello: ${error.message}.`, { host: r.target.label })
  }
  return scan
}

/** Each accepted suite once, whatever the protocols it is accepted on. */
export function distinctSuites(scan: CipherScan) {
  return [...new Set(scan.protocols.flatMap((p) => p.suites))].map(suiteOf)
}

export async function tlsCiphers(settings: TlsSettings, target: TlsTarget, signal: AbortSignal) {
  const r = await reach(settings, target, signal)
  const scan = await scanTarget(settings, r, signal)
  const rows = scan.protocols
    .slice()
    .reverse()
    .flatMap((p) => p.suites.map((code, i) => ({ protocol: p.protocol, ...suiteData(suiteOf(code)), preference: p.server_preference ? i + 1 : null })))
  return {
    ...targetFields(r),
    protocols: scan.protocols.map((p) => ({ protocol: p.protocol, supported: p.supported, server_preference: p.server_preference, suite_count: p.suites.length, error: p.error?.message ?? null })),
    cipher_suites: rows,
    summary: summarize(distinctSuites(scan)),
    probes: scan.probes,
    duration_ms: scan.duration_ms,
  }
}
