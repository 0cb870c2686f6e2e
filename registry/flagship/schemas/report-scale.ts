import type { Area } from './report-findings.ts'

// The weights of the areas in the overall score, and the grades of the score:
// published in the answer (each area's weight, the grade scale), so part of the
// contract; plugins/report/scoring.ts does the arithmetic.

// Nine areas (issues 23 and 25): delegation health beside DNS, the network
// dependencies and certificate issuance beside TLS; TLS and web gave 5 and 10.
export const WEIGHTS: Readonly<Record<Area, number>> = { dns: 10, delegation: 10, dnssec: 10, email: 20, tls: 15, web: 10, registration: 10, network: 10, issuance: 5 }

export const GRADES = ['A+', 'A', 'B', 'C', 'D', 'F'] as const
export type Grade = (typeof GRADES)[number]

export const GRADE_SCALE = 'A+ >= 97, A >= 90, B >= 80, C >= 70, D >= 60, F below'
