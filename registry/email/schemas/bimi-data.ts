import { z } from 'zod'
import { FindingList } from './findings.ts'

// BIMI at default._bimi.<domain>, as /api/email/diagnose answers it.

export const BimiSchema = z.object({
  name: z.string(),
  status: z.enum(['found', 'none', 'multiple', 'invalid', 'declined', 'dns_error']),
  record: z.string().nullable(),
  logo_url: z.string().nullable(),
  certificate_url: z.string().nullable(),
  findings: FindingList,
})

export type BimiShape = z.infer<typeof BimiSchema>
