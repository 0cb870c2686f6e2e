import type { Area, ReportFinding, Severity } from './findings.ts'

// Each area scores 0-100 (its part's own score where it has one, see the area
// files); the overall score is the weighted mean of the areas that were scored,
// so a failed or skipped area neither helps nor hurts — it is reported instead.

export const WEIGHTS: Readonly<Record<Area, number>> = { dns: 15, dnssec: 10, email: 20, tls: 25, web: 20, registration: 10 }

/** Points a finding takes off an area that has no score of its own (DNS, registration). */
const PENALTY: Readonly<Record<Severity, number>> = { critical: 50, high: 25, medium: 10, low: 5, info: 0 }

export function scoreFromFindings(findings: readonly ReportFinding[]): number {
  return Math.max(0, 100 - findings.reduce((sum, f) => sum + PENALTY[f.severity], 0))
}

export const GRADES = ['A+', 'A', 'B', 'C', 'D', 'F'] as const
export type Grade = (typeof GRADES)[number]

export const GRADE_SCALE = 'A+ >= 97, A >= 90, B >= 80, C >= 70, D >= 60, F below'

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
