import type { z } from 'zod'
import type { IssuanceData, IssuanceFinding } from '../../../registry/domain/schemas/issuance-data.ts'

// The findings of /api/domain/issuance (docs/tls.md, "Certificate issuance
// consistency"). Each is claimed only on what is known: an issuer not on the
// table of CA identifiers is `issuer_unknown`, never "not allowed"; a CAA set that
// could not be read judges nothing.

type Data = z.input<typeof IssuanceData>
type Finding = z.input<typeof IssuanceFinding>
const ORDER: Record<Finding['severity'], number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 }

const issuerText = (i: { organization: string | null; common_name: string | null }) => [i.organization, i.common_name && `CN=${i.common_name}`].filter(Boolean).join(', ') || 'an unnamed issuer'

export function issuanceFindings(d: Omit<Data, 'findings'>): Finding[] {
  const out: Finding[] = []
  const add = (id: Finding['id'], severity: Finding['severity'], message: string, evidence: string[]) => out.push({ id, severity, message, evidence })
  const caaEvidence = d.caa.relevant_name ? d.caa.records.map((r) => `CAA at ${d.caa.relevant_name}: ${r}`) : []

  if (d.served?.authorization === 'not_allowed') {
    const s = d.served
    add(
      'issuance.served_not_authorized',
      'high',
      `The certificate served on ${s.host}:${s.port} is from ${s.issuer.ca ?? issuerText(s.issuer)}, which the CAA set at ${d.caa.relevant_name} does not allow${s.wildcard ? ' for wildcard names' : ''}: it was issued before the CAA record changed, or by a CA that ignored it.`,
      [`served: ${s.names.join(', ')} issued by ${issuerText(s.issuer)} (CAA identifiers ${s.issuer.caa_identifiers.join(', ')}), valid until ${s.not_after}`, ...caaEvidence],
    )
  }
  const logged = d.logged?.issuers ?? []
  const disallowed = logged.filter((i) => i.authorization === 'not_allowed')
  if (disallowed.length > 0) {
    add(
      'issuance.logged_not_authorized',
      'medium',
      `CT logs hold ${disallowed.reduce((n, i) => n + i.certificates, 0)} unexpired certificate(s) for ${d.domain} from CA(s) the CAA set at ${d.caa.relevant_name} does not allow (${disallowed.map((i) => i.ca ?? issuerText(i)).join(', ')}): issued before the record changed, mis-issued, or from a CA you forgot to list.`,
      [...disallowed.map((i) => `CT: ${i.certificates} certificate(s) from ${issuerText(i)}, e.g. ${i.example_serials.join(', ')}`), ...caaEvidence],
    )
  }
  if (d.caa.complete && d.caa.relevant_name === null) {
    const cas = new Set(logged.map((i) => i.ca ?? i.organization ?? i.common_name ?? '?'))
    if (cas.size >= 2) {
      add('issuance.no_caa_several_cas', 'low', `No CAA record governs ${d.domain} while CT shows certificates from ${cas.size} CAs: a CAA record naming the ones you use stops the others issuing.`, [
        ...logged.map((i) => `CT: ${i.certificates} certificate(s) from ${issuerText(i)}`),
        `CAA: none at ${d.caa.lookups.map((l) => l.name).join(', ')}`,
      ])
    }
  }
  const unknown = [...(d.served?.authorization === 'unknown_issuer' ? [d.served.issuer] : []), ...logged.filter((i) => i.authorization === 'unknown_issuer')]
  if (unknown.length > 0) {
    const names = [...new Set(unknown.map(issuerText))]
    add('issuance.issuer_unknown', 'info', `${names.length} issuer(s) are not in the bundled table of CA identifiers, so they could not be compared with the CAA set: ${names.join('; ')}.`, names.map((n) => `issuer: ${n}`))
  }
  const gone = d.names.filter((n) => n.resolves === false)
  if (gone.length > 0) {
    add('issuance.unresolved_names', 'info', `${gone.length} name(s) of certificates in CT no longer resolve: leftovers worth revoking or letting expire, and names someone could take over if their zone is delegated elsewhere.`, gone.map((n) => `${n.name}: ${n.status}`))
  }
  return out.sort((a, b) => ORDER[a.severity] - ORDER[b.severity])
}
