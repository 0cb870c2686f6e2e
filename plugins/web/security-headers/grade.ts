import { z } from 'zod'

// Score -> grade. Every check starts from 100 and only takes points away, so A+
// means nothing was taken: https with a trusted certificate, HSTS of six months
// or more, an enforced CSP without unsafe sources, framing protection, nosniff,
// a Referrer-Policy, a valid Permissions-Policy and well-flagged cookies.

export const GRADES = ['A+', 'A', 'B', 'C', 'D', 'E', 'F'] as const
export type Grade = (typeof GRADES)[number]

export const GradeData = z.enum(GRADES)

const STEPS: ReadonlyArray<[min: number, grade: Grade]> = [
  [100, 'A+'],
  [90, 'A'],
  [75, 'B'],
  [60, 'C'],
  [45, 'D'],
  [30, 'E'],
]

export function gradeOf(score: number): Grade {
  for (const [min, grade] of STEPS) if (score >= min) return grade
  return 'F'
}

export const GRADE_SCALE = 'A+ 100, A >= 90, B >= 75, C >= 60, D >= 45, E >= 30, F below'
