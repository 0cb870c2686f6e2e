import { z } from 'zod'

// Findings of the web and security checks: a stable code a client keys on, a
// severity, the problem in words and what to change. Most severe first
// (plugins/web/web-findings.ts sorts them).

export const FINDING_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number]

export interface WebFinding {
  code: string
  severity: FindingSeverity
  message: string
  /** What to change; null when nothing needs to. */
  fix: string | null
}

export const WebFindingData = z.object({
  code: z.string().meta({ description: 'Stable identifier, e.g. hsts.missing' }),
  severity: z.enum(FINDING_SEVERITIES),
  message: z.string(),
  fix: z.string().nullable(),
})
