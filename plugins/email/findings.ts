import { z } from 'zod'
import type { FindingId, SeverityOf } from './finding-catalog.ts'

// Every email check speaks in findings: a stable id a client can key on (it never
// changes once published; the message may be reworded), a severity, the problem in
// words, and what to change. The ids are namespaced by part: spf.*, dmarc.*, ...;
// finding-catalog.ts lists every one.

export const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]

export interface Finding {
  id: string
  severity: Severity
  message: string
  /** What to change; null when nothing needs to (informational findings). */
  fix: string | null
}

export const FindingSchema = z.object({
  id: z.string().meta({ description: 'Stable identifier, e.g. spf.too_many_lookups' }),
  severity: z.enum(SEVERITIES).meta({ description: 'critical: mail is lost or spoofable; error: a standard is violated; warning: a risk; info: worth knowing' }),
  message: z.string(),
  fix: z.string().nullable(),
})

export const FindingList = z.array(FindingSchema)

/** A finding; the id must be in FINDING_CATALOG, with one of the severities listed there. */
export function finding<I extends FindingId>(id: I, severity: SeverityOf<I>, message: string, fix: string | null = null): Finding {
  return { id, severity, message, fix }
}

const RANK: Record<Severity, number> = { critical: 0, error: 1, warning: 2, info: 3 }

/** Most severe first; the order within a severity is the order the checks ran. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => RANK[a.f.severity] - RANK[b.f.severity] || a.i - b.i)
    .map(({ f }) => f)
}

/** The same id with the same message is reported once (e.g. one weak key behind two selectors). */
export function dedupeFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>()
  return findings.filter((f) => {
    const key = `${f.id}\u0000${f.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
