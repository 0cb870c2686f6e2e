import { DANE_FINDINGS, type DaneFindingId } from '../../registry/dns/schemas/dane-findings.ts'
import type { OperatorFinding, OperatorSeverity } from '../../registry/dns/schemas/operator-findings.ts'

// A DANE finding: its id's catalog severity (registry/dns/schemas/dane-findings.ts),
// the message and fix of this case, the hosts it is about.

export function daneFinding(id: DaneFindingId, message: string, fix: string | null, servers: readonly string[] = []): OperatorFinding {
  return { id, severity: DANE_FINDINGS[id].severity, message, fix, zonemaster: null, servers: [...servers] }
}

const ORDER: Readonly<Record<OperatorSeverity, number>> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 }

/** Most severe first; the id then keeps the order stable. */
export function sortFindings(findings: OperatorFinding[]): OperatorFinding[] {
  return findings.sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || a.id.localeCompare(b.id))
}

const PENALTY: Readonly<Record<OperatorSeverity, number>> = { critical: 50, high: 25, medium: 10, low: 5, info: 0 }

/** 0-100: what the findings take off (docs/report.md). */
export function scoreOf(findings: readonly OperatorFinding[]): number {
  return Math.max(0, 100 - findings.reduce((sum, f) => sum + PENALTY[f.severity], 0))
}
