import type { z } from 'zod'
import type { DependenciesData } from '../../../registry/domain/schemas/dependencies-data.ts'
import { UpstreamError } from '../../../runtime/errors.ts'
import { scoreFromFindings } from '../scoring.ts'
import type { AreaAnswer } from './answer.ts'

// The network area is /api/domain/dependencies: which networks the domain's name
// servers, mail exchangers and web hosts live in, and whether they are sound
// (bogon, unannounced, RPKI-invalid, all name servers in one AS or one /24).
// Its score is 100 minus its findings (scoring.ts); an answer in which every DNS
// question failed is the area failing, not a clean bill.

type Dependencies = z.input<typeof DependenciesData>

const FIX: Readonly<Record<Dependencies['findings'][number]['id'], string>> = {
  'dependencies.bogon': 'Point the records at globally reachable addresses.',
  'dependencies.unannounced': 'Move the host to an announced network, or have its network announced again.',
  'dependencies.rpki_invalid': "Have the network's holder publish a ROA that matches the route (origin AS and maxLength), or announce the route its ROA allows.",
  'dependencies.ns_single_prefix': 'Add a name server in another network (another /24 and /48), e.g. a secondary DNS provider.',
  'dependencies.ns_single_as': 'Add a name server run by another network (AS), e.g. a secondary DNS provider.',
}

export function networkAnswer(data: Dependencies): AreaAnswer {
  if (data.dependencies.length === 0 && data.errors.length > 0 && data.lookups.every((l) => l.status === 'failed')) {
    const first = data.errors[0]!
    throw new UpstreamError(first.upstream ?? 'dns', 'unavailable', `No DNS question about ${data.domain}'s hosts could be answered (${first.part}: ${first.message}).`)
  }
  const rows = data.dependencies
  const addresses = new Set(rows.map((r) => r.address))
  const asns = new Set(rows.flatMap((r) => (r.asn === null ? [] : [r.asn])))
  const count = (state: string) => new Set(rows.filter((r) => r.rpki === state).map((r) => r.address)).size
  const findings = data.findings.map((f) => ({ area: 'network' as const, id: f.id, severity: f.severity, message: f.message, fix: FIX[f.id] }))
  return {
    score: scoreFromFindings(findings),
    grade: null,
    summary: `${addresses.size} address(es) in ${asns.size} AS(es); RPKI ${count('valid')} valid, ${count('invalid')} invalid, ${count('not-found')} not-found; ${new Set(rows.filter((r) => r.bogon === true).map((r) => r.address)).size} bogon${data.errors.length ? `; ${data.errors.length} question(s) failed` : ''}`,
    findings,
  }
}
