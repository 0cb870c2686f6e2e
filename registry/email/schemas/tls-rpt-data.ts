import { z } from 'zod'
import { FindingList } from './findings.ts'

// SMTP TLS Reporting (RFC 8460) at _smtp._tls.<domain>, as /api/email/diagnose answers it.

export const TlsRptSchema = z.object({
  name: z.string(),
  status: z.enum(['found', 'none', 'multiple', 'invalid', 'dns_error']),
  record: z.string().nullable(),
  rua: z.array(z.string()),
  findings: FindingList,
})

export type TlsRptShape = z.infer<typeof TlsRptSchema>
