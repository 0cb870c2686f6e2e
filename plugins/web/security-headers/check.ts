import type { WebFinding } from '../../../registry/web/schemas/web-findings.ts'
import type { CheckResult } from '../../../registry/web/schemas/security-headers-data.ts'

// One graded check: which header, what it said, and the points it moved the
// score with the reason — every point of the grade is accounted for here.

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

/** What each analysis gives back: its checks, findings, and the parsed detail. */
export interface Analysis<D> {
  checks: Check[]
  findings: WebFinding[]
  detail: D
}
