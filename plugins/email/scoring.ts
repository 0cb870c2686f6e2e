import type { FindingId } from '../../registry/email/schemas/finding-catalog.ts'
import type { Finding, Severity } from '../../registry/email/schemas/findings.ts'
import type { PartSummary } from '../../registry/email/schemas/part-summary.ts'

// Scores are arithmetic on findings, so every point lost has a finding that says
// why: a part starts at 100 and loses a fixed amount per finding by severity (a
// few ids weigh their own amount); findings that mean the part is absent or
// defeated score it 0. The overall score is the weighted mean of the parts that
// apply to the domain (a domain that accepts no mail has no STARTTLS to score).

const PENALTY: Record<Severity, number> = { critical: 50, error: 30, warning: 10, info: 0 }

const OWN_PENALTY: Readonly<Partial<Record<FindingId, number>>> = {
  'dmarc.policy_none': 40,
  'dmarc.policy_quarantine': 5,
  'spf.neutral_all': 30,
  'dkim.short_key': 15,
  'mta_sts.mode_testing': 20,
  'tls.unreachable': 15,
  'mx.single': 5,
}

const ZERO: ReadonlySet<string> = new Set<FindingId>([
  'spf.missing',
  'spf.multiple_records',
  'spf.pass_all',
  'dmarc.missing',
  'dmarc.multiple_records',
  'dkim.none_found',
  'mx.none',
  'mx.unreachable',
  'mta_sts.missing',
  'tls_rpt.missing',
  'bimi.missing',
])

export const PART_NAMES = ['spf', 'dmarc', 'dkim', 'mx', 'tls', 'mta_sts', 'tls_rpt', 'bimi'] as const
export type PartName = (typeof PART_NAMES)[number]

export const HEALTH_WEIGHTS: Partial<Record<PartName, number>> = { spf: 25, dmarc: 25, dkim: 20, mx: 15, tls: 15 }
export const DIAGNOSE_WEIGHTS: Record<PartName, number> = { spf: 20, dmarc: 20, dkim: 15, mx: 10, tls: 15, mta_sts: 10, tls_rpt: 5, bimi: 5 }

export function scoreFindings(findings: readonly Finding[]): number {
  if (findings.some((f) => ZERO.has(f.id))) return 0
  const lost = findings.reduce((sum, f) => sum + (OWN_PENALTY[f.id as FindingId] ?? PENALTY[f.severity]), 0)
  return Math.max(0, 100 - lost)
}

export function summarizePart(findings: readonly Finding[], weight: number, summary: string, applicable = true): PartSummary {
  // A part that does not apply reports nothing: "no DKIM key" is not news for a domain that sends no mail.
  if (!applicable) return { applicable, score: null, weight, status: 'not_applicable', summary, findings: [] }
  const score = scoreFindings(findings)
  const status = score >= 90 ? 'good' : score >= 60 ? 'warning' : 'bad'
  return { applicable, score, weight, status, summary, findings: [...findings] }
}

export function overallScore(parts: Readonly<Partial<Record<PartName, PartSummary>>>): number {
  let total = 0
  let weights = 0
  for (const part of Object.values(parts)) {
    if (!part || part.score === null) continue
    total += part.score * part.weight
    weights += part.weight
  }
  return weights === 0 ? 100 : Math.round(total / weights)
}

export function grade(score: number): string {
  if (score >= 97) return 'A+'
  if (score >= 90) return 'A'
  if (score >= 80) return 'B'
  if (score >= 70) return 'C'
  if (score >= 60) return 'D'
  return 'F'
}
