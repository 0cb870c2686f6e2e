import type { CipherScan } from './cipher-scan.ts'
import { suiteOf } from './cipher-suites.ts'
import type { Checks } from './checks/run-checks.ts'
import { runChecks } from './checks/run-checks.ts'
import type { GroupScan } from './group-scan.ts'
import { scanGroups } from './group-scan.ts'
import type { ProbeContext } from './probe-context.ts'
import type { SigalgScan } from './sigalg-scan.ts'
import { scanSignatureSchemes } from './sigalg-scan.ts'

// What an analysis asks after the cipher scan, all at once through its pool:
// the key exchange groups and signature schemes, each offered alone, and the
// active checks (checks/run-checks.ts). Each needs the versions and suites the
// scan found, so its hellos are ones the server answers.

export interface DeepScan {
  groups: GroupScan
  sigalgs: SigalgScan
  checks: Checks
}

export async function deepScan(ctx: ProbeContext, scan: CipherScan): Promise<DeepScan> {
  const supported = scan.protocols.filter((p) => p.supported)
  const tls13 = supported.some((p) => p.version === 0x0304)
  const legacy = [...supported].reverse().find((p) => p.version < 0x0304 && p.version >= 0x0301)
  const tls12 = supported.find((p) => p.version === 0x0303)
  const kx = (codes: number[], kinds: string[]) => codes.filter((c) => kinds.includes(suiteOf(c).key_exchange))
  const [groups, sigalgs, checks] = await Promise.all([
    scanGroups(ctx, { tls13, legacy: legacy ? { version: legacy.version, ecdheSuites: kx(legacy.suites, ['ECDHE']) } : null }),
    scanSignatureSchemes(ctx, { tls13, tls12: tls12 ? { version: 0x0303, signedSuites: kx(tls12.suites, ['ECDHE', 'DHE']) } : null }),
    runChecks(ctx, scan.protocols),
  ])
  return { groups, sigalgs, checks }
}

const hex = (n: number) => `0x${n.toString(16).toUpperCase().padStart(4, '0')}`

/** The groups as the answer shows them. */
export function groupList(g: GroupScan) {
  const show = (list: GroupScan['tls13']) => list?.map((x) => ({ name: x.name, code: hex(x.id), kind: x.kind, post_quantum: x.post_quantum })) ?? null
  return {
    tls13: show(g.tls13),
    tls12: show(g.tls12),
    post_quantum: g.tls13 === null ? null : g.tls13.some((x) => x.post_quantum),
  }
}

export function schemeList(s: SigalgScan) {
  const show = (list: SigalgScan['tls13']) => list?.map((x) => ({ name: x.name, code: hex(x.id), hash: x.hash, weak: x.weak })) ?? null
  return { tls13: show(s.tls13), tls12: show(s.tls12) }
}
