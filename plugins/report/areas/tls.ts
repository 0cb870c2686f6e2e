import type { z } from 'zod'
import type { TlsAnalyzeData } from '../../../registry/tls/schemas/tls-data.ts'
import type { AreaAnswer } from './answer.ts'

// The TLS area is /api/tls/analyze on the site's https port. Its score follows
// the grade (the grade already carries every cap: an untrusted or mismatched
// certificate is T or M, which browsers refuse outright, hence 0).

type Analyze = z.input<typeof TlsAnalyzeData>

export const TLS_GRADE_SCORE: Readonly<Record<Analyze['grade'], number>> = { 'A+': 100, A: 95, 'A-': 90, B: 80, C: 65, D: 50, E: 35, F: 20, T: 0, M: 0 }

export function tlsAnswer(data: Analyze): AreaAnswer {
  const cert = data.certificate
  const validity = cert.expired ? 'certificate expired' : `certificate valid ${cert.days_left} more days`
  return {
    score: TLS_GRADE_SCORE[data.grade],
    grade: data.grade,
    summary: `${data.grade}: ${data.negotiated.protocol}, ${validity}, ${data.trusted ? 'trusted' : 'not trusted'}${data.hostname.matches ? '' : ', name mismatch'}`,
    findings: data.findings.map((f) => ({ area: 'tls', id: f.id, severity: f.severity, message: f.message, fix: f.fix === '' ? null : f.fix })),
  }
}
