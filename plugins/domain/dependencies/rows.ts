import type { z } from 'zod'
import type { DependencyRow } from '../../../registry/domain/schemas/dependencies-data.ts'
import type { IntelligenceData } from '../../../registry/network/schemas/routing-data.ts'
import type { HostAddress } from './hosts.ts'
import type { PartError } from './part-error.ts'

// One row of the dependencies answer from /api/network/intelligence's answer
// about its address (or from that lookup's failure).

export type Row = z.input<typeof DependencyRow>
export type Intelligence = z.input<typeof IntelligenceData>

type RpkiState = NonNullable<Row['rpki']>

/**
 * The intelligence parts a row reports on. Its PTR names are not part of the row,
 * so a reverse-DNS failure is not this row's error (nor a reason to cache it less).
 */
const ROW_PARTS = new Set(['asn', 'bgp', 'rpki'])

/**
 * One verdict for a route with several origins: invalid when any origin is (a
 * validating router drops that announcement, and traffic may be following it),
 * valid when every origin is, else not-found.
 */
export function routeState(origins: ReadonlyArray<{ state: RpkiState }>): RpkiState | null {
  if (origins.length === 0) return null
  if (origins.some((o) => o.state === 'invalid')) return 'invalid'
  if (origins.every((o) => o.state === 'valid')) return 'valid'
  return 'not-found'
}

export function rowOf(dep: HostAddress, d: Intelligence): Row {
  const origins = d.bgp?.origins ?? []
  // The route's origin is what traffic follows; the offline data only stands in without one.
  const [asn, source] = origins.length > 0 ? [origins[0]!, 'bgp' as const] : d.asn ? [d.asn.number, 'offline' as const] : [null, null]
  return {
    ...dep,
    version: d.version,
    bogon: d.bogon.bogon,
    bogon_reason: d.bogon.reason,
    asn,
    asn_source: source,
    // The offline AS name is this AS's only when the two sources agree on the AS.
    organization: d.asn !== null && d.asn.number === asn ? d.asn.name : null,
    prefix: d.bgp?.prefix ?? null,
    origins,
    announced: d.routed,
    rpki: d.rpki ? routeState(d.rpki.origins) : null,
    anycast: d.anycast.anycast,
    anycast_service: d.anycast.service,
    errors: d.errors.filter((e) => ROW_PARTS.has(e.part)),
  }
}

export function failedRow(dep: HostAddress, error: PartError): Row {
  return {
    ...dep,
    version: null,
    bogon: null,
    bogon_reason: null,
    asn: null,
    asn_source: null,
    organization: null,
    prefix: null,
    origins: [],
    announced: null,
    rpki: null,
    anycast: null,
    anycast_service: null,
    errors: [error],
  }
}
