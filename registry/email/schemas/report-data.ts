import { z } from 'zod'
import { DkimData } from './dkim-data.ts'
import { DmarcData } from './dmarc-data.ts'
import { FindingList } from './findings.ts'
import { MtaStsSchema } from './mta-sts-data.ts'
import { MxData } from './mx-data.ts'
import { BimiSchema } from './bimi-data.ts'
import { TlsRptSchema } from './tls-rpt-data.ts'
import { PartSummarySchema } from './part-summary.ts'
import { SpfData } from './spf-data.ts'
import { TlsPartSchema } from './starttls-data.ts'

// Shapes of /api/email/health (scores and findings) and /api/email/diagnose (the
// same, every part's full data, and the checks health leaves out).

const common = {
  domain: z.string(),
  score: z.number().int().meta({ description: '0-100: weighted mean of the applicable parts' }),
  grade: z.enum(['A+', 'A', 'B', 'C', 'D', 'F']),
  sends_mail: z.boolean().meta({ description: 'false when the SPF record is exactly "v=spf1 -all"' }),
  receives_mail: z.boolean().meta({ description: 'false for a null MX or no mail host at all' }),
  findings: FindingList.meta({ description: 'Every part\'s findings, most severe first' }),
}

export const HealthData = z.object({
  ...common,
  parts: z.object({ spf: PartSummarySchema, dmarc: PartSummarySchema, dkim: PartSummarySchema, mx: PartSummarySchema, tls: PartSummarySchema }),
})

export const DiagnoseData = z.object({
  ...common,
  parts: z.object({
    spf: PartSummarySchema,
    dmarc: PartSummarySchema,
    dkim: PartSummarySchema,
    mx: PartSummarySchema,
    tls: PartSummarySchema,
    mta_sts: PartSummarySchema,
    tls_rpt: PartSummarySchema,
    bimi: PartSummarySchema,
  }),
  spf: SpfData,
  dmarc: DmarcData,
  dkim: DkimData,
  mx: MxData,
  tls: TlsPartSchema,
  mta_sts: MtaStsSchema,
  tls_rpt: TlsRptSchema,
  bimi: BimiSchema,
})

export type HealthDataShape = z.infer<typeof HealthData>
export type DiagnoseDataShape = z.infer<typeof DiagnoseData>
