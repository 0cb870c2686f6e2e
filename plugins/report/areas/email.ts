import type { z } from 'zod'
import type { EmailDaneData } from '../../../registry/email/schemas/dane-data.ts'
import type { HealthData } from '../../../registry/email/schemas/report-data.ts'
import type { ReportFinding } from '../../../registry/flagship/schemas/report-findings.ts'
import { EMAIL_SEVERITY } from '../findings.ts'
import { gradeOf, penaltyOf } from '../scoring.ts'
import type { AreaAnswer } from './answer.ts'

// The email area is /api/email/health as it stands: its score and grade, its
// findings on the report's scale. Parts that do not apply (no MX: no STARTTLS
// to probe) are named in the summary with the reason. DANE (/api/email/dane) joins
// it: a domain that publishes TLSA for its MX hosts loses the points of DANE's
// findings (a failing host: senders defer its mail), and the grade follows the
// score; one that does not use DANE is not marked down (it is optional), and a DANE
// check that failed leaves health's score as it is, said in the summary.

type Health = z.input<typeof HealthData>
export type EmailDane = z.input<typeof EmailDaneData>
/** DANE statuses that say nothing against the domain: it is not used, or mail does not apply. */
const NEUTRAL: ReadonlySet<EmailDane['status']> = new Set(['not_used', 'not_applicable'])

const LABEL: Readonly<Record<keyof Health['parts'], string>> = { spf: 'SPF', dmarc: 'DMARC', dkim: 'DKIM', mx: 'MX', tls: 'STARTTLS' }

export function emailAnswer(data: Health, dane: EmailDane | { error: string } | null = null): AreaAnswer {
  const parts = (Object.keys(LABEL) as Array<keyof Health['parts']>).map((name) => {
    const part = data.parts[name]
    return part.applicable ? `${LABEL[name]} ${part.score}` : `${LABEL[name]} skipped (${part.summary})`
  })
  const findings: ReportFinding[] = data.findings.map((f) => ({ area: 'email', id: f.id, severity: EMAIL_SEVERITY[f.severity], message: f.message, fix: f.fix }))
  if (dane === null) return { score: data.score, grade: data.grade, summary: parts.join(', '), findings }
  if ('error' in dane) return { score: data.score, grade: data.grade, summary: `${parts.join(', ')}, DANE not checked (${dane.error})`, findings }
  // "not used" is the summary's to say, not a finding on every report.
  const daneFindings: ReportFinding[] = dane.findings.filter((f) => f.id !== 'dane.not_used').map((f) => ({ area: 'email', id: f.id, severity: f.severity, message: f.message, fix: f.fix }))
  const summary = `${parts.join(', ')}, DANE ${dane.status.replace('_', ' ')}`
  if (NEUTRAL.has(dane.status) || data.score === null) return { score: data.score, grade: data.grade, summary, findings: [...findings, ...daneFindings] }
  const penalty = penaltyOf(daneFindings)
  const score = Math.max(0, data.score - penalty)
  return { score, grade: penalty > 0 ? gradeOf(score) : data.grade, summary, findings: [...findings, ...daneFindings] }
}
