import { z } from 'zod'
import { FindingList } from './findings.ts'

// One part of an email report (SPF, DMARC, DKIM, ...) as /api/email/health and
// /api/email/diagnose summarize it: its score, weight and findings.

export const PartSummarySchema = z.object({
  applicable: z.boolean(),
  score: z.number().int().nullable().meta({ description: '0-100; null when the part does not apply to this domain' }),
  weight: z.number().int(),
  status: z.enum(['good', 'warning', 'bad', 'not_applicable']),
  summary: z.string(),
  findings: FindingList,
})

export type PartSummary = z.infer<typeof PartSummarySchema>
