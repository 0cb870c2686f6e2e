import { exchangeHello } from '../probe.ts'
import type { ProbeContext } from '../probe-context.ts'
import { pooledProbe } from '../probe-context.ts'
import type { CheckResult, Legacy } from './check-result.ts'
import { notApplicable } from './check-result.ts'

// Secure renegotiation (RFC 5746, against CVE-2009-3555): the hello carries an
// empty renegotiation_info extension; a server that implements RFC 5746 answers
// with one whose renegotiated_connection is empty (a single 0 byte). TLS 1.3
// has no renegotiation.

export async function checkSecureRenegotiation(ctx: ProbeContext, legacy: Legacy | null): Promise<CheckResult> {
  if (!legacy) return notApplicable('not_applicable', 'Only TLS 1.3 is accepted, which has no renegotiation.')
  const { outcome } = await pooledProbe(ctx, () =>
    exchangeHello(ctx.dial, { versions: [legacy.version], suites: legacy.suites, serverName: ctx.serverName }, ctx.timeoutMs, ctx.signal, () => true),
  )
  if (outcome.kind !== 'accepted') {
    const why = outcome.kind === 'rejected' ? (outcome.alert ? `alert ${outcome.alert}` : 'a hang-up') : outcome.message
    return { result: 'unknown', ok: null, evidence: `A ${legacy.name} hello with renegotiation_info was answered with ${why}.` }
  }
  const info = outcome.hello.extensions.get(0xff01)
  if (info && info.length === 1 && info[0] === 0) return { result: 'supported', ok: true, evidence: `The ${legacy.name} ServerHello carried renegotiation_info (0xff01) with an empty renegotiated_connection.` }
  if (info) return { result: 'malformed', ok: false, evidence: `The ${legacy.name} ServerHello carried renegotiation_info with ${info.length} bytes (${info.toString('hex').slice(0, 32)}) on an initial handshake, where RFC 5746 requires it empty.` }
  return { result: 'not_supported', ok: false, evidence: `The ${legacy.name} ServerHello had no renegotiation_info extension although the hello offered one.` }
}
