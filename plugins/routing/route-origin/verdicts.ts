import type { z } from 'zod'
import type { OriginCheckRow, RouteOriginData } from '../../../registry/network/schemas/route-origin-data.ts'
import type { RouteOriginFinding } from '../../../registry/network/schemas/route-origin-findings.ts'

// The verdicts and findings of /api/network/route-origin (docs/routing.md,
// "Route origin against registration"). A verdict is only claimed on what is
// known: an RPKI state or a holder that could not be asked is neither a match
// nor a mismatch.

export type Row = z.input<typeof OriginCheckRow>
type Data = z.input<typeof RouteOriginData>
type Finding = z.input<typeof RouteOriginFinding>
export type MoreSpecific = Data['more_specifics'][number]
export type Allocation = NonNullable<Data['allocation']>

/**
 * One origin: RPKI invalid or an origin the allocation does not register is a
 * mismatch whatever else is known; a valid ROA, a registered origin or the same
 * holder makes it consistent; another holder with nothing vouching is a mismatch.
 */
export function rowVerdict(row: Omit<Row, 'verdict'>): Row['verdict'] {
  if (row.rpki === 'invalid' || row.registered_origin === false) return 'mismatch'
  if (row.rpki === 'valid' || row.registered_origin === true || row.same_holder === true) return 'consistent'
  if (row.same_holder === false) return 'mismatch'
  return 'unknown'
}

export function overallVerdict(route: string | null, announced: boolean | null, rows: readonly Row[], more: readonly MoreSpecific[]): Data['verdict'] {
  if (route === null) return announced === false ? 'unannounced' : 'unknown'
  if (rows.some((r) => r.verdict === 'mismatch') || more.some((m) => !m.known_origin)) return 'mismatch'
  if (rows.length > 0 && rows.every((r) => r.verdict === 'consistent')) return 'consistent'
  return 'unknown'
}

const ORDER: Record<Finding['severity'], number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 }

const holderText = (h: { handle: string | null; name: string | null } | null): string => (h === null ? 'unknown' : [h.name, h.handle && `(${h.handle})`].filter(Boolean).join(' ') || 'unknown')

export function allocationEvidence(a: Allocation): string {
  const origins = a.origin_asns.length > 0 ? `; registered origin ASNs ${a.origin_asns.map((n) => `AS${n}`).join(', ')}` : '; no registered origin ASNs'
  return `RDAP (${a.registry ?? 'registry unknown'}): ${a.cidrs.join(', ') || a.handle || 'the allocation'} held by ${holderText(a.holder)}${origins}`
}

export function routeOriginFindings(prefix: string, route: string | null, announced: boolean | null, allocation: Allocation | null, rows: readonly Row[], more: readonly MoreSpecific[]): Finding[] {
  const out: Finding[] = []
  const add = (id: Finding['id'], severity: Finding['severity'], message: string, evidence: string[]) => out.push({ id, severity, message, evidence })
  const bgp = (r: Row) => `BGP: ${route} originated by AS${r.asn}${r.as_name ? ` (${r.as_name})` : ''}`
  const alloc = allocation ? [allocationEvidence(allocation)] : []

  if (route === null && announced === false) {
    add('route_origin.unannounced', 'info', `No BGP route carries ${prefix}: there is no origin to check against the registration.`, [`BGP: no route covers ${prefix}`, ...alloc])
  }
  for (const r of rows) {
    if (r.rpki === 'invalid') {
      const why = r.rpki_reason === 'length' ? `AS${r.asn} holds a VRP for it, but not down to this length` : `no VRP covering ${route} names AS${r.asn}`
      add('route_origin.rpki_invalid', 'high', `The route ${route} from AS${r.asn} is RPKI-invalid (${why}): a hijack, a route leak or a stale ROA; validating networks drop it.`, [bgp(r), ...r.vrps.map((v) => `VRP: ${v}`)])
    }
    if (r.registered_origin === false && allocation) {
      add('route_origin.unregistered_origin', 'high', `AS${r.asn} originates ${route}, but the allocation registers only ${allocation.origin_asns.map((n) => `AS${n}`).join(', ')} as its origins.`, [bgp(r), ...alloc])
    }
    if (r.same_holder === false && r.rpki !== 'valid' && r.registered_origin !== true && r.rpki !== 'invalid' && r.registered_origin !== false) {
      add(
        'route_origin.foreign_holder',
        'medium',
        `AS${r.asn} (held by ${holderText(r.as_holder)}) originates ${route}, whose allocation is held by ${holderText(allocation?.holder ?? null)}, and no ROA or registered origin vouches for it. A provider announcing its customer's block looks the same; a ROA would settle it.`,
        [bgp(r), `RDAP: AS${r.asn} held by ${holderText(r.as_holder)}`, ...alloc],
      )
    }
  }
  const foreign = more.filter((m) => !m.known_origin)
  if (foreign.length > 0) {
    add(
      'route_origin.foreign_more_specific',
      'high',
      `${foreign.length} more specific route(s) inside ${prefix} come from an AS that neither originates ${route ?? prefix} nor is registered for it: the shape of a sub-prefix hijack (or a customer's own announcement).`,
      foreign.map((m) => `BGP: ${m.prefix} originated by ${m.origin === null ? 'an unknown AS' : `AS${m.origin}`}`),
    )
  }
  if (rows.length > 1) {
    add('route_origin.multi_origin', 'low', `${route} has ${rows.length} origin ASes (MOAS): anycast, a migration, or a hijack.`, rows.map(bgp))
  }
  return out.sort((a, b) => ORDER[a.severity] - ORDER[b.severity])
}
