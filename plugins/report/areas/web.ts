import type { z } from 'zod'
import type { SecurityHeadersData } from '../../../registry/web/schemas/security-headers-data.ts'
import type { AreaAnswer } from './answer.ts'

// The web area is /api/web/security-headers on the site: its score (100 minus
// the points every header check took) and grade, its findings as they are.

type SecurityHeaders = z.input<typeof SecurityHeadersData>

export function webAnswer(data: SecurityHeaders): AreaAnswer {
  return {
    score: Math.max(0, Math.min(100, data.score)),
    grade: data.grade,
    summary: `${data.grade} (${data.score}): ${data.final_url} answered ${data.status}${data.https ? '' : ', not over https'}`,
    findings: data.findings.map((f) => ({ area: 'web', id: f.code, severity: f.severity, message: f.message, fix: f.fix })),
  }
}
