import { z } from 'zod'

// Every email check speaks in findings: a stable id a client can key on (it never
// changes once published; the message may be reworded), a severity, the problem in
// words, and what to change. The ids are namespaced by part: spf.*, dmarc.*, ...;
// finding-catalog.ts (beside this file) lists every one.

export const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]

export interface Finding {
  id: string
  severity: Severity
  message: string
  /** What to change; null when nothing needs to (informational findings). */
  fix: string | null
}

export const FindingSchema = z.object({
  id: z.string().meta({ description: 'Stable identifier, e.g. spf.too_many_lookups' }),
  severity: z.enum(SEVERITIES).meta({ description: 'critical: mail is lost or spoofable; error: a standard is violated; warning: a risk; info: worth knowing' }),
  message: z.string(),
  fix: z.string().nullable(),
})

export const FindingList = z.array(FindingSchema)
