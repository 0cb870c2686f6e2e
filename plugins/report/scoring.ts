import type { Area, ReportFinding, Severity } from '../../registry/flagship/schemas/report-findings.ts'
import type { Grade } from '../../registry/flagship/schemas/report-scale.ts'
import { WEIGHTS } from '../../registry/flagship/schemas/report-scale.ts'

// Each area scores 0-100 (its part's own score where it has one, see the area
// files); the overall score is the weighted mean of the areas that were scored,
// so a failed or skipped area neither helps nor hurts — it is reported instead.

/** Points a finding takes off an area that has no score of its own (DNS, registration). */
const PENALTY: Readonly<Record<Severity, number>> = { critical: 50, high: 25, medium: 10, low: 5, info: 0 }

export function scoreFromFindings(findings: readonly ReportFinding[]): number {
  return Math.max(0, 100 - penaltyOf(findings))
}

/** The points `findings` take off: scoreFromFindings's, and DANE's off the email score. */
export function penaltyOf(findings: ReadonlyArray<Pick<ReportFinding, 'severity'>>): number {
  return findings.reduce((sum, f) => sum + PENALTY[f.severity], 0)
}

/** The grade of a score, as GRADE_SCALE (registry/flagship/schemas/report-scale.ts) publishes it. */
export function gradeOf(score: number): Grade {
  if (score >= 97) return 'A+'
  if (score >= 90) return 'A'
  if (score >= 80) return 'B'
  if (score >= 70) return 'C'
  if (score >= 60) return 'D'
  return 'F'
}

export function overallScore(scores: ReadonlyArray<{ area: Area; score: number | null }>): number | null {
  let total = 0
  let weights = 0
  for (const { area, score } of scores) {
    if (score === null) continue
    total += score * WEIGHTS[area]
    weights += WEIGHTS[area]
  }
  return weights === 0 ? null : Math.round(total / weights)
}
