import type { z } from 'zod'
import type { EmailDaneData } from '../../../registry/email/schemas/dane-data.ts'
import type { EmailNetworksData } from '../../../registry/email/schemas/networks-data.ts'
import type { HealthData } from '../../../registry/email/schemas/report-data.ts'
import type { ReportFinding } from '../../../registry/flagship/schemas/report-findings.ts'
import { EMAIL_SEVERITY } from '../findings.ts'
import { gradeOf, penaltyOf, scoreFromFindings } from '../scoring.ts'
import type { AreaAnswer } from './answer.ts'

// The email area is /api/email/health as it stands (its score and grade, its
// findings on the report's scale), joined by /api/email/networks (the networks
// SPF authorizes and the MX addresses: blocklists, RPKI, FCrDNS, STARTTLS). Parts
// that do not apply (no MX: no STARTTLS to probe) are named in the summary with
// the reason. With the networks part, the score is 80 % health and 20 % the
// networks part's own (100 minus its findings); without it (failed), health's
// alone, and the grade is health's own.
// DANE (/api/email/dane) joins it too: a domain that publishes TLSA for its MX
// hosts loses the points of DANE's findings (a failing host: senders defer its
// mail), and the grade then follows the score; one that does not use DANE is not
// marked down (it is optional), and a DANE check that failed leaves the score as
// it is, said in the summary.

type Health = z.input<typeof HealthData>
type Networks = z.input<typeof EmailNetworksData>
export type EmailDane = z.input<typeof EmailDaneData>
/** DANE statuses that say nothing against the domain: it is not used, or mail does not apply. */
const NEUTRAL: ReadonlySet<EmailDane['status']> = new Set(['not_used', 'not_applicable'])

const LABEL: Readonly<Record<keyof Health['parts'], string>> = { spf: 'SPF', dmarc: 'DMARC', dkim: 'DKIM', mx: 'MX', tls: 'STARTTLS' }
/** The networks part's share of the email area's score. */
export const NETWORKS_SHARE = 0.2

const FIX: Readonly<Record<Networks['findings'][number]['id'], string>> = {
  'email_networks.spf_listed': "Find out why the address is listed (often a compromised account or host) and request delisting, or remove it from the SPF record if it no longer sends the domain's mail.",
  'email_networks.mx_listed': 'Find out why the address is listed and request delisting from each list.',
  'email_networks.mx_no_starttls': 'Enable STARTTLS with a trusted certificate for the host name on the mail server.',
  'email_networks.spf_rpki_invalid': "Ask the network's operator to fix its ROA or its announcement.",
  'email_networks.mx_rpki_invalid': "Ask the network's operator to fix its ROA or its announcement.",
  'email_networks.spf_bogon': 'Remove private, documentation and reserved ranges from the SPF record.',
  'email_networks.spf_large_network': 'Authorize only the addresses that send the domain\'s mail (the provider\'s include, or narrow ip4/ip6 ranges).',
  'email_networks.mx_no_fcrdns': 'Publish a PTR record for each MX address naming a host that resolves back to it.',
  'email_networks.spf_unannounced': 'Remove networks that no longer send the domain\'s mail from the SPF record.',
}

export function emailAnswer(data: Health, networks: Networks | null, dane: EmailDane | { error: string } | null = null): AreaAnswer {
  const parts = (Object.keys(LABEL) as Array<keyof Health['parts']>).map((name) => {
    const part = data.parts[name]
    return part.applicable ? `${LABEL[name]} ${part.score}` : `${LABEL[name]} skipped (${part.summary})`
  })
  const healthFindings: ReportFinding[] = data.findings.map((f) => ({ area: 'email', id: f.id, severity: EMAIL_SEVERITY[f.severity], message: f.message, fix: f.fix }))
  const summary = [...parts]
  let findings = healthFindings
  let score = data.score
  if (networks === null) summary.push('sender networks not read')
  else {
    const networkFindings: ReportFinding[] = networks.findings.map((f) => ({ area: 'email', id: f.id, severity: f.severity, message: f.message, fix: FIX[f.id] }))
    const networksScore = scoreFromFindings(networkFindings)
    if (score !== null) score = Math.round((1 - NETWORKS_SHARE) * score + NETWORKS_SHARE * networksScore)
    summary.push(`sender networks ${networksScore} (${networks.networks.length} SPF network(s), ${networks.mx.length} MX address(es))`)
    findings = [...findings, ...networkFindings]
  }
  if (dane === null) return { score, grade: data.grade, summary: summary.join(', '), findings }
  if ('error' in dane) return { score, grade: data.grade, summary: `${summary.join(', ')}, DANE not checked (${dane.error})`, findings }
  // "not used" is the summary's to say, not a finding on every report.
  const daneFindings: ReportFinding[] = dane.findings.filter((f) => f.id !== 'dane.not_used').map((f) => ({ area: 'email', id: f.id, severity: f.severity, message: f.message, fix: f.fix }))
  summary.push(`DANE ${dane.status.replace('_', ' ')}`)
  findings = [...findings, ...daneFindings]
  if (NEUTRAL.has(dane.status) || score === null) return { score, grade: data.grade, summary: summary.join(', '), findings }
  const penalty = penaltyOf(daneFindings)
  const lowered = Math.max(0, score - penalty)
  return { score: lowered, grade: penalty > 0 ? gradeOf(lowered) : data.grade, summary: summary.join(', '), findings }
}
