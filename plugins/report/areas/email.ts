import type { z } from 'zod'
import type { HealthData } from '../../../registry/email/schemas/report-data.ts'
import { EMAIL_SEVERITY } from '../findings.ts'
import type { AreaAnswer } from './answer.ts'

// The email area is /api/email/health as it stands: its score and grade, its
// findings on the report's scale. Parts that do not apply (no MX: no STARTTLS
// to probe) are named in the summary with the reason.

type Health = z.input<typeof HealthData>

const LABEL: Readonly<Record<keyof Health['parts'], string>> = { spf: 'SPF', dmarc: 'DMARC', dkim: 'DKIM', mx: 'MX', tls: 'STARTTLS' }

export function emailAnswer(data: Health): AreaAnswer {
  const parts = (Object.keys(LABEL) as Array<keyof Health['parts']>).map((name) => {
    const part = data.parts[name]
    return part.applicable ? `${LABEL[name]} ${part.score}` : `${LABEL[name]} skipped (${part.summary})`
  })
  return {
    score: data.score,
    grade: data.grade,
    summary: parts.join(', '),
    findings: data.findings.map((f) => ({ area: 'email', id: f.id, severity: EMAIL_SEVERITY[f.severity], message: f.message, fix: f.fix })),
  }
}
