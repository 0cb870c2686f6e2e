import type { FindingSeverity, WebFinding } from '../../registry/web/schemas/web-findings.ts'

// Findings of the web and security checks (registry/web/schemas/web-findings.ts),
// most severe first.

const RANK: Record<FindingSeverity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 }

export function sortFindings(findings: readonly WebFinding[]): WebFinding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => RANK[a.f.severity] - RANK[b.f.severity] || a.i - b.i)
    .map(({ f }) => f)
}
