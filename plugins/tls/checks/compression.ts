import { exchangeHello } from '../probe.ts'
import type { ProbeContext } from '../probe-context.ts'
import { pooledProbe } from '../probe-context.ts'
import type { CheckResult, Legacy } from './check-result.ts'
import { notApplicable } from './check-result.ts'

// TLS compression (CRIME, CVE-2012-4929): a hello offering DEFLATE (1) before
// null (0); a server that compresses names method 1 in its ServerHello. TLS 1.3
// has no compression at all.

export async function checkCompression(ctx: ProbeContext, legacy: Legacy | null): Promise<CheckResult> {
  if (!legacy) return notApplicable('not_applicable', 'Only TLS 1.3 is accepted, which has no compression.')
  const { outcome } = await pooledProbe(ctx, () =>
    exchangeHello(ctx.dial, { versions: [legacy.version], suites: legacy.suites, serverName: ctx.serverName, compressionMethods: [1, 0] }, ctx.timeoutMs, ctx.signal, () => true),
  )
  if (outcome.kind !== 'accepted') {
    const why = outcome.kind === 'rejected' ? (outcome.alert ? `alert ${outcome.alert}` : 'a hang-up') : outcome.message
    return { result: 'unknown', ok: null, evidence: `A ${legacy.name} hello offering DEFLATE and null compression was answered with ${why}.` }
  }
  const method = outcome.hello.compression
  if (method === 0) return { result: 'not_supported', ok: true, evidence: `Offered DEFLATE (1) and null (0) on ${legacy.name}; the ServerHello chose compression method 0 (null).` }
  return { result: 'supported', ok: false, evidence: `Offered DEFLATE (1) and null (0) on ${legacy.name}; the ServerHello chose compression method ${method}${method === 1 ? ' (DEFLATE)' : ''}.` }
}
