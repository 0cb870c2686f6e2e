import type { Area } from './report-findings.ts'

// The weights of the areas in the overall score, and the grades of the score:
// published in the answer (each area's weight, the grade scale), so part of the
// contract; plugins/report/scoring.ts does the arithmetic.

export const WEIGHTS: Readonly<Record<Area, number>> = { dns: 10, dnssec: 10, email: 20, tls: 20, web: 15, registration: 10, network: 10, issuance: 5 }

export const GRADES = ['A+', 'A', 'B', 'C', 'D', 'F'] as const
export type Grade = (typeof GRADES)[number]

export const GRADE_SCALE = 'A+ >= 97, A >= 90, B >= 80, C >= 70, D >= 60, F below'
