import { z } from 'zod'
import { AREAS, ReportFindingData, SEVERITIES } from './report-findings.ts'
import { GRADE_SCALE, GRADES, WEIGHTS } from './report-scale.ts'

// Shape of /api/report data (documentation and tests).

const AreaData = z.object({
  status: z.enum(['ok', 'failed', 'skipped']).meta({ description: 'ok: the part answered; failed: it did not (see error); skipped: it does not apply (see reason)' }),
  score: z.number().int().nullable().meta({ description: '0-100; null when the area failed, was skipped or cannot be scored (DNSSEC indeterminate)' }),
  grade: z.string().nullable().meta({ description: 'The part\'s own grade where it has one (email, TLS, web)' }),
  weight: z.number().int().meta({ description: 'Weight of the area in the overall score' }),
  summary: z.string().nullable(),
  reason: z.string().nullable().meta({ description: 'Why the area was skipped' }),
  error: z
    .object({ code: z.string(), message: z.string(), upstream: z.string().nullable() })
    .nullable()
    .meta({ description: 'Why the area failed: the part\'s error code and message (timeout: the part\'s own deadline passed)' }),
  findings: z.number().int().meta({ description: 'How many findings the area contributed' }),
  sources: z
    .array(
      z.object({
        endpoint: z.string(),
        url: z.string().meta({ description: 'The endpoint\'s own route for this input: the full answer' }),
        status: z.enum(['ok', 'failed']),
        cache: z.enum(['hit', 'miss']).nullable().meta({ description: 'Whether the part came from the shared cache' }),
        ttl: z.number().int().nullable().meta({ description: 'Seconds the part\'s answer stays fresh' }),
        stale: z.boolean().meta({ description: 'A stale cached answer stood in for a failing upstream' }),
      }),
    )
    .meta({ description: 'The endpoints the area asked' }),
})

const areaShape = Object.fromEntries(AREAS.map((a) => [a, AreaData.meta({ description: `weight ${WEIGHTS[a]}` })])) as Record<(typeof AREAS)[number], typeof AreaData>

export const ReportData = z.object({
  domain: z.string(),
  port: z.number().int().meta({ description: 'The https port the TLS and web areas checked' }),
  score: z.number().int().nullable().meta({ description: '0-100: weighted mean of the scored areas; null when none could be scored' }),
  grade: z.enum(GRADES).nullable().meta({ description: `Grade of the score: ${GRADE_SCALE}` }),
  complete: z.boolean().meta({ description: 'false when an area failed: the score stands on the areas that answered' }),
  areas: z.object(areaShape),
  findings: z.array(ReportFindingData).meta({ description: 'The most severe findings of all areas, most severe first (at most 25; findings_total counts all)' }),
  findings_total: z.number().int(),
  severity_counts: z.object(Object.fromEntries(SEVERITIES.map((s) => [s, z.number().int()])) as Record<(typeof SEVERITIES)[number], z.ZodNumber>),
  registration: z
    .object({
      registrar: z.string().nullable(),
      created: z.string().nullable(),
      expires: z.string().nullable(),
      age_days: z.number().int().nullable(),
      days_to_expiry: z.number().int().nullable(),
    })
    .nullable()
    .meta({ description: 'Registrar and dates from RDAP; null when the registration area did not answer' }),
})

export type ReportDataShape = z.infer<typeof ReportData>
