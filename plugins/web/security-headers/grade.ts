import type { Grade } from '../../../registry/web/schemas/security-headers-data.ts'

// Score -> grade. Every check starts from 100 and only takes points away, so A+
// means nothing was taken: https with a trusted certificate, HSTS of six months
// or more, an enforced CSP without unsafe sources, framing protection, nosniff,
// a Referrer-Policy, a valid Permissions-Policy and well-flagged cookies.

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
