import type { z } from 'zod'
import type { DelegationData } from '../../../registry/domain/schemas/delegation-data.ts'
import type { ReportFinding } from '../../../registry/flagship/schemas/report-findings.ts'
import { scoreFromFindings } from '../scoring.ts'
import type { AreaAnswer, AreaSkip } from './answer.ts'

// The delegation area reads /api/domain/delegation for the registrable domain (the
// zone a registrant runs): its findings on the report's scale as they are (the
// endpoint speaks it), and 100 minus their penalties. When no name server could be
// asked (every address one the service never connects to) nothing was checked,
// so the area is not scored: it neither helps nor hurts, like DNSSEC indeterminate.

export type Delegation = z.input<typeof DelegationData>

export function delegationAnswer(data: Delegation): AreaAnswer | AreaSkip {
  if (data.ns.names.length === 0) return { skipped: `${data.domain} has no NS records (${data.ns.status}): it is not a delegated zone.` }
  const findings: ReportFinding[] = data.findings.map((f) => ({ area: 'delegation', id: f.id, severity: f.severity, message: f.message, fix: f.fix }))
  const asked = data.servers.filter((s) => s.status !== 'refused_target')
  if (asked.length === 0) {
    return { score: null, grade: null, summary: `not checked: no address of the ${data.ns.names.length} name server(s) of ${data.domain} may be asked`, findings }
  }
  const ok = asked.filter((s) => s.status === 'ok').length
  const serials = data.serials.length > 1 ? `, ${data.serials.length} SOA serials` : ''
  const parent = data.parent?.ns ? `, parent ${data.parent.zone} asked` : ''
  return { score: scoreFromFindings(findings), grade: null, summary: `${ok} of ${asked.length} name server addresses answer authoritatively${serials}${parent}`, findings }
}
