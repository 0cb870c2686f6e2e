import type { ReportFinding, Severity } from '../../registry/flagship/schemas/report-findings.ts'
import { AREAS } from '../../registry/flagship/schemas/report-findings.ts'

// The parts that speak another severity scale than the report's
// (registry/flagship/schemas/report-findings.ts) are mapped onto it here.

/** email: critical (mail lost or spoofable), error (a standard violated), warning, info. */
export const EMAIL_SEVERITY: Readonly<Record<'critical' | 'error' | 'warning' | 'info', Severity>> = { critical: 'critical', error: 'high', warning: 'medium', info: 'info' }

/** DNSSEC: critical (validation breaks), warning (weak), info. */
export const DNSSEC_SEVERITY: Readonly<Record<'critical' | 'warning' | 'info', Severity>> = { critical: 'critical', warning: 'medium', info: 'info' }

const RANK: Readonly<Record<Severity, number>> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 }

/** Most severe first; within a severity, in area order, then in the order the part gave them. */
export function mergeFindings(lists: ReadonlyArray<readonly ReportFinding[]>): ReportFinding[] {
  return lists
    .flat()
    .map((f, i) => ({ f, i }))
    .sort((a, b) => RANK[a.f.severity] - RANK[b.f.severity] || AREAS.indexOf(a.f.area) - AREAS.indexOf(b.f.area) || a.i - b.i)
    .map(({ f }) => f)
}

export function countBySeverity(findings: readonly ReportFinding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 }
  for (const f of findings) counts[f.severity] += 1
  return counts
}
