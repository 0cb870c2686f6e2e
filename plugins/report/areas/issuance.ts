import type { z } from 'zod'
import type { IssuanceData } from '../../../registry/domain/schemas/issuance-data.ts'
import { UpstreamError } from '../../../runtime/errors.ts'
import { scoreFromFindings } from '../scoring.ts'
import type { AreaAnswer } from './answer.ts'

// The issuance area is /api/domain/issuance: the CAA set up the tree against the
// CAs of the certificates in CT and of the one served now. Its score is 100
// minus its findings (scoring.ts); an answer in which no part answered (CAA, CT
// and the served certificate all failed) is the area failing.

type Issuance = z.input<typeof IssuanceData>

const FIX: Readonly<Record<Issuance['findings'][number]['id'], string | null>> = {
  'issuance.served_not_authorized': 'Replace the certificate with one from a CA the CAA record names, or add its CA to the CAA record if it is yours.',
  'issuance.logged_not_authorized': 'Check those certificates were requested by you; revoke any that were not, and add the CA to the CAA record if it is one you use.',
  'issuance.no_caa_several_cas': 'Publish CAA records naming the CAs you use, e.g. 0 issue "letsencrypt.org".',
  'issuance.issuer_unknown': null,
  'issuance.unresolved_names': 'Let certificates for retired names expire (or revoke them), and remove the names from future certificates.',
}

export function issuanceAnswer(data: Issuance): AreaAnswer {
  if (!data.caa.complete && data.served === null && data.logged === null) {
    const first = data.errors[0]
    throw new UpstreamError(first?.upstream ?? 'dns', 'unavailable', `No part of the issuance check for ${data.domain} could be answered${first ? ` (${first.part}: ${first.message})` : ''}.`)
  }
  const caa = !data.caa.complete ? 'CAA unknown' : data.caa.relevant_name === null ? 'no CAA' : `CAA at ${data.caa.relevant_name} (issue: ${data.caa.issue.join(', ') || 'none'})`
  const served = data.served ? `served: ${data.served.issuer.ca ?? data.served.issuer.organization ?? data.served.issuer.common_name ?? 'unknown issuer'} (${data.served.authorization})` : 'served: not read'
  const logged = data.logged ? `CT: ${data.logged.certificates} unexpired from ${data.logged.issuers.length} issuer(s)` : 'CT: not read'
  const findings = data.findings.map((f) => ({ area: 'issuance' as const, id: f.id, severity: f.severity, message: f.message, fix: FIX[f.id] }))
  return { score: scoreFromFindings(findings), grade: null, summary: `${caa}; ${served}; ${logged}`, findings }
}
