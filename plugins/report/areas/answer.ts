import type { ReportFinding } from '../../../registry/flagship/schemas/report-findings.ts'

/** What an area makes of its part's data: a score (null: not scorable), the part's grade, a line, findings. */
export interface AreaAnswer {
  score: number | null
  grade: string | null
  summary: string
  findings: ReportFinding[]
}

/** An area that does not apply to this domain, and why (no address: no web server to check). */
export interface AreaSkip {
  skipped: string
}
