import type { EmailEnv } from './email-checks.ts'
import { runEmailChecks } from './email-checks.ts'
import { partSummaries } from './email-summary.ts'
import { dedupeFindings, sortFindings } from './findings.ts'
import type { DiagnoseDataShape, HealthDataShape } from '../../registry/email/schemas/report-data.ts'
import type { PartSummary } from '../../registry/email/schemas/part-summary.ts'
import { DIAGNOSE_WEIGHTS, HEALTH_WEIGHTS, grade, overallScore } from './scoring.ts'

type Grade = HealthDataShape['grade']

/** What health and diagnose share: the overall score, its grade and the parts' findings in one list. */
function scored<P extends Record<string, PartSummary>>(report: { sends_mail: boolean; receives_mail: boolean }, parts: P) {
  const score = overallScore(parts)
  return {
    score,
    grade: grade(score) as Grade,
    sends_mail: report.sends_mail,
    receives_mail: report.receives_mail,
    findings: sortFindings(dedupeFindings(Object.values(parts).flatMap((p) => p.findings))),
    parts,
  }
}

/** SPF, DMARC, DKIM, MX and STARTTLS, scored. */
export async function emailHealth(env: EmailEnv, domain: string, selectors: readonly string[] = []): Promise<HealthDataShape> {
  const report = await runEmailChecks(env, domain, { selectors, extended: false })
  return { domain, ...scored(report, partSummaries(report, HEALTH_WEIGHTS) as HealthDataShape['parts']) }
}

/** Everything in health, plus MTA-STS, TLS-RPT, BIMI and cross-checks, with each part's full data. */
export async function emailDiagnose(env: EmailEnv, domain: string, selectors: readonly string[] = []): Promise<DiagnoseDataShape> {
  const report = await runEmailChecks(env, domain, { selectors, extended: true })
  return {
    domain,
    ...scored(report, partSummaries(report, DIAGNOSE_WEIGHTS) as DiagnoseDataShape['parts']),
    spf: report.spf,
    dmarc: report.dmarc,
    dkim: report.dkim,
    mx: report.mx,
    tls: report.tls,
    mta_sts: report.mta_sts!,
    tls_rpt: report.tls_rpt!,
    bimi: report.bimi!,
  }
}
