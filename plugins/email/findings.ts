import type { FindingId, SeverityOf } from '../../registry/email/schemas/finding-catalog.ts'
import type { Finding, Severity } from '../../registry/email/schemas/findings.ts'

// The helpers every email check builds its findings with. What a finding is (its
// schema, the severities, the catalog of ids) is part of the answers and lives in
// registry/email/schemas/.

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
