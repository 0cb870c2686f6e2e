import type { z } from 'zod'
import type { DnssecData } from '../../../registry/dns/schemas/dnssec-data.ts'
import type { ReportFinding } from '../../../registry/flagship/schemas/report-findings.ts'
import { DNSSEC_SEVERITY } from '../findings.ts'
import type { AreaAnswer } from './answer.ts'

// The DNSSEC area reads /api/dns/dnssec. Its score is the verdict's: secure 100,
// insecure (unsigned: answers can be forged, but nothing breaks) 60, bogus 0
// (validating resolvers refuse the domain). Indeterminate (the resolver would not
// say) is not scored: that says nothing about the domain.

type Dnssec = z.input<typeof DnssecData>

const SCORE: Readonly<Record<Dnssec['status'], number | null>> = { secure: 100, insecure: 60, bogus: 0, indeterminate: null }

export function dnssecAnswer(data: Dnssec): AreaAnswer {
  const findings: ReportFinding[] = []
  const add = (id: string, severity: ReportFinding['severity'], message: string, fix: string | null) => findings.push({ area: 'dnssec', id, severity, message, fix })
  if (data.status === 'bogus') {
    add('dnssec.bogus', 'critical', `DNSSEC validation fails${data.bogus_at ? ` at ${data.bogus_at}` : ''}: ${data.message}. Validating resolvers answer SERVFAIL for the domain.`, 'Re-sign the zone, or make the DS records at the registrar match the zone\'s DNSKEYs.')
  } else if (data.status === 'insecure') {
    add('dnssec.unsigned', 'low', `Not DNSSEC-signed${data.insecure_at ? ` (the chain of trust ends at ${data.insecure_at})` : ''}: answers for the domain can be forged on their way.`, 'Sign the zone at the DNS provider and publish its DS record at the registrar.')
  } else if (data.status === 'indeterminate') {
    add('dnssec.indeterminate', 'info', `DNSSEC could not be checked: ${data.message}.`, null)
  }
  for (const f of data.findings) add(f.code, DNSSEC_SEVERITY[f.severity], `${f.zone}: ${f.message}`, null)
  return { score: SCORE[data.status], grade: null, summary: `${data.status}: ${data.message}`, findings }
}
