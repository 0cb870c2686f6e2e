import type { ProtocolScan } from '../cipher-scan.ts'
import type { ProbeContext } from '../probe-context.ts'
import { checkCcsInjection } from './ccs-injection.ts'
import type { CheckResult } from './check-result.ts'
import { highestLegacy } from './check-result.ts'
import { checkClientRenegotiation } from './client-renegotiation.ts'
import { checkCompression } from './compression.ts'
import { checkFallbackScsv } from './fallback-scsv.ts'
import { checkHeartbeat } from './heartbleed.ts'
import { checkResumption } from './resumption.ts'
import { checkRobot } from './robot.ts'
import { checkSecureRenegotiation } from './secure-renegotiation.ts'

// The active checks of an analysis, as sslyze and testssl.sh run them, all at
// once through the analysis's pool, after the cipher scan has said which
// versions and suites the server takes. A check that fails to run is
// `unknown` with the reason as evidence, never an error of the whole analysis.

export const CHECK_NAMES = [
  'secure_renegotiation',
  'client_renegotiation',
  'compression',
  'fallback_scsv',
  'heartbeat',
  'heartbleed',
  'ccs_injection',
  'session_id_resumption',
  'session_ticket_resumption',
  'early_data',
  'robot',
] as const
export type CheckName = (typeof CHECK_NAMES)[number]
export type Checks = Record<CheckName, CheckResult>

async function guarded(run: () => Promise<CheckResult>): Promise<CheckResult> {
  try {
    return await run()
  } catch (error) {
    if ((error as Error).name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR') throw error
    return { result: 'unknown', ok: null, evidence: `The check could not run: ${(error as Error).message.split('\n')[0]}.` }
  }
}

export async function runChecks(ctx: ProbeContext, protocols: readonly ProtocolScan[]): Promise<Checks> {
  const legacy = highestLegacy(protocols)
  const tls13 = protocols.some((p) => p.version === 0x0304 && p.supported)
  const secure = guarded(() => checkSecureRenegotiation(ctx, legacy))
  const heartbeat = checkHeartbeat(ctx, legacy).catch(async (error: unknown) => {
    const failed = await guarded(() => Promise.reject(error))
    return { heartbeat: failed, heartbleed: failed }
  })
  const resumption = checkResumption(ctx, legacy, tls13).catch(async (error: unknown) => {
    const failed = await guarded(() => Promise.reject(error))
    return { session_id: failed, session_ticket: failed, early_data: failed }
  })
  const [secure_renegotiation, client_renegotiation, compression, fallback_scsv, beats, ccs_injection, resumed, robot] = await Promise.all([
    secure,
    guarded(async () => checkClientRenegotiation(ctx, legacy, (await secure).ok)),
    guarded(() => checkCompression(ctx, legacy)),
    guarded(() => checkFallbackScsv(ctx, protocols)),
    heartbeat,
    guarded(() => checkCcsInjection(ctx, legacy)),
    resumption,
    guarded(() => checkRobot(ctx, protocols)),
  ])
  return {
    secure_renegotiation,
    client_renegotiation,
    compression,
    fallback_scsv,
    heartbeat: beats.heartbeat,
    heartbleed: beats.heartbleed,
    ccs_injection,
    session_id_resumption: resumed.session_id,
    session_ticket_resumption: resumed.session_ticket,
    early_data: resumed.early_data,
    robot,
  }
}
