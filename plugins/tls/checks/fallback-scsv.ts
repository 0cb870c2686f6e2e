import type { ProtocolScan } from '../cipher-scan.ts'
import { exchangeHello } from '../probe.ts'
import type { ProbeContext } from '../probe-context.ts'
import { pooledProbe } from '../probe-context.ts'
import type { CheckResult } from './check-result.ts'
import { notApplicable } from './check-result.ts'

// TLS_FALLBACK_SCSV (RFC 7507): a client that retries with a lower version after
// a failure adds the signalling suite 0x5600; a server that supports a higher
// version must then refuse with inappropriate_fallback, so an attacker who
// breaks the first attempt cannot push both sides down. The probe offers the
// second-highest version the server accepts (with the suites it accepts there)
// plus the SCSV: a ServerHello means the downgrade goes through.

const FALLBACK_SCSV = 0x5600

export async function checkFallbackScsv(ctx: ProbeContext, protocols: readonly ProtocolScan[]): Promise<CheckResult> {
  const supported = protocols.filter((p) => p.supported && p.suites.length > 0)
  const highest = supported.at(-1)
  const lower = supported.slice(0, -1).reverse().find((p) => p.version < 0x0304)
  if (!highest || !lower) {
    return notApplicable('not_applicable', highest ? `Only ${highest.protocol} is accepted: there is no lower version to fall back to.` : 'No protocol version is accepted.')
  }
  const { outcome } = await pooledProbe(ctx, () =>
    exchangeHello(ctx.dial, { versions: [lower.version], suites: lower.suites, serverName: ctx.serverName, scsv: [FALLBACK_SCSV] }, ctx.timeoutMs, ctx.signal, () => true),
  )
  const what = `A ${lower.protocol} hello with TLS_FALLBACK_SCSV (the server's highest version is ${highest.protocol})`
  if (outcome.kind === 'rejected' && outcome.alert === 'inappropriate_fallback') return { result: 'supported', ok: true, evidence: `${what} was refused with alert inappropriate_fallback.` }
  if (outcome.kind === 'accepted') return { result: 'not_supported', ok: false, evidence: `${what} was accepted: the ServerHello chose ${lower.protocol === 'TLSv1.2' && outcome.hello.version === 0x0303 ? 'TLSv1.2' : `version 0x${outcome.hello.version.toString(16)}`}.` }
  const why = outcome.kind === 'rejected' ? (outcome.alert ? `alert ${outcome.alert}` : 'a hang-up') : outcome.message
  return { result: 'unknown', ok: null, evidence: `${what} was answered with ${why}, not inappropriate_fallback.` }
}
