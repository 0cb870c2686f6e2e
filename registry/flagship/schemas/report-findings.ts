import { z } from 'zod'

// One severity scale for the whole report (the one TLS, web and domain checks
// already speak; plugins/report/findings.ts maps the others onto it). Every
// finding keeps the id, message and fix its part gave it, and says which area
// it came from.

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]

export const AREAS = ['dns', 'delegation', 'dnssec', 'email', 'tls', 'web', 'registration', 'network', 'issuance'] as const
export type Area = (typeof AREAS)[number]

export interface ReportFinding {
  area: Area
  id: string
  severity: Severity
  message: string
  /** What to change; null when nothing needs to. */
  fix: string | null
}

export const ReportFindingData = z.object({
  area: z.enum(AREAS),
  id: z.string().meta({ description: 'The part\'s own stable id (e.g. spf.missing, hsts.missing, certificate_expired)' }),
  severity: z.enum(SEVERITIES),
  message: z.string(),
  fix: z.string().nullable(),
})
