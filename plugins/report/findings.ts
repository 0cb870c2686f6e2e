import { z } from 'zod'

// One severity scale for the whole report (the one TLS, web and domain checks
// already speak); the parts that speak another are mapped onto it here. Every
// finding keeps the id, message and fix its part gave it, and says which area
// it came from.

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]

export const AREAS = ['dns', 'dnssec', 'email', 'tls', 'web', 'registration'] as const
export type Area = (typeof AREAS)[number]

export interface ReportFinding {
  area: Area
  id: string
  severity: Severity
  message: string
  /** What to change; null when nothing needs to. */
  fix: string | null
}

export const ReportFindingData = z.object({
  area: z.enum(AREAS),
  id: z.string().meta({ description: 'The part\'s own stable id (e.g. spf.missing, hsts.missing, certificate_expired)' }),
  severity: z.enum(SEVERITIES),
  message: z.string(),
  fix: z.string().nullable(),
})

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
