import { z } from 'zod'
import type { WebFinding } from '../web-findings.ts'

// One graded check: which header, what it said, and the points it moved the
// score with the reason — every point of the grade is accounted for here.

export const CHECK_RESULTS = ['pass', 'warn', 'fail', 'info', 'not_applicable'] as const
export type CheckResult = (typeof CHECK_RESULTS)[number]

export interface Check {
  id: string
  header: string
  result: CheckResult
  /** 0 or negative: what this check took off the score of 100. */
  points: number
  /** The header value as received (first one when repeated); null when absent. */
  value: string | null
  reason: string
}

export const CheckData = z.object({
  id: z.string(),
  header: z.string(),
  result: z.enum(CHECK_RESULTS),
  points: z.number().int().meta({ description: 'Taken off the score of 100 (0 or negative)' }),
  value: z.string().nullable(),
  reason: z.string(),
})

/** What each analysis gives back: its checks, findings, and the parsed detail. */
export interface Analysis<D> {
  checks: Check[]
  findings: WebFinding[]
  detail: D
}
