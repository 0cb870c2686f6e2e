import { UpstreamError } from '../../runtime/errors.ts'
import type { CipherScan } from './cipher-scan.ts'
import { scanCiphers } from './cipher-scan.ts'
import { suiteOf } from './cipher-suites.ts'
import type { Finding } from './findings.ts'
import type { TlsTarget } from '../../registry/tls/schemas/host-param.ts'
import { suiteData, summarize } from './present.ts'
import type { Reached, TlsSettings } from './target.ts'
import { onStarttlsPort, reach, targetFields } from './target.ts'
import type { Pooled } from './probe-context.ts'
import type { StarttlsProtocol } from '../../registry/tls/schemas/starttls-param.ts'

// GET /api/tls/ciphers/{host}: every protocol and suite the server accepts.

export async function scanTarget(settings: TlsSettings, r: Reached, signal: AbortSignal, pooled?: Pooled): Promise<CipherScan> {
  const scan = await scanCiphers(r.dial, { serverName: r.serverName, signal, concurrency: settings.concurrency, probeTimeoutMs: settings.probeTimeoutMs, ...(pooled ? { pooled } : {}) })
  // Nothing accepted, and either probes failed outright (closed, silent, not TLS) or
  // not one hello got a TLS answer: a hang-up is how some servers refuse a hello,
  // but a port that hangs up on every one of them has not been shown to speak TLS
  // at all, and the handshake endpoints call it a reset (a 502), so the scan does too.
  if (!scan.protocols.some((p) => p.supported) && (scan.failed_probes > 0 || scan.tls_answers === 0)) {
    const error = scan.protocols.find((p) => p.error)?.error ?? { reason: 'reset', message: `every one of ${scan.probes} connections was closed or reset before any TLS answer` }
    const reason = error.reason === 'not_tls' || error.reason === 'malformed' ? 'bad_response' : error.reason
    throw new UpstreamError('tls', reason, `${r.target.label} did not complete a TLS hello: ${error.message}.`, { host: r.target.label })
  }
  return scan
}

/** A server that answers TLS and refuses everything: nobody can connect to it over TLS. */
function refusesEverything(r: Reached, scan: CipherScan): Finding[] {
  if (scan.protocols.some((p) => p.supported)) return []
  const alerts = scan.alerts.length ? ` (${scan.alerts.join(', ')})` : ''
  return [
    {
      id: 'no_protocol_accepted',
      severity: 'critical',
      message: `${r.target.label} speaks TLS but refused every hello${alerts}: no protocol version from SSLv3 to TLS 1.3 with any known cipher suite was accepted, so no client can connect.`,
      fix: r.serverName === null
        ? 'Enable TLS 1.2 and 1.3 with current suites; if the server only serves certain names, ask about the name (SNI) instead of the address.'
        : 'Enable TLS 1.2 and 1.3 with current suites and a certificate for this name.',
      grade_cap: null,
    },
  ]
}

/** Each accepted suite once, whatever the protocols it is accepted on. */
export function distinctSuites(scan: CipherScan) {
  return [...new Set(scan.protocols.flatMap((p) => p.suites))].map(suiteOf)
}

export async function tlsCiphers(settings: TlsSettings, asked: TlsTarget, signal: AbortSignal, starttls: StarttlsProtocol | null = null) {
  const r = await reach(settings, onStarttlsPort(asked, starttls ?? undefined), signal, starttls)
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
    findings: refusesEverything(r, scan),
    probes: scan.probes,
    duration_ms: scan.duration_ms,
  }
}
