import type { z } from 'zod'
import { addressSortKey } from '../../../runtime/address-sort-key.ts'
import type { DependencyFinding } from '../../../registry/domain/schemas/dependencies-data.ts'
import { concentration } from './concentration.ts'
import type { Row } from './rows.ts'

// The findings of /api/domain/dependencies (docs/rdap.md, "A domain's
// dependencies"). Each is decided only on what is known: a row whose AS is unknown
// keeps "all name servers in one AS" from being claimed.

type Finding = z.input<typeof DependencyFinding>
const ORDER: Record<Finding['severity'], number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 }

const uniqueBy = <T>(rows: readonly T[], key: (row: T) => string): T[] => [...new Map(rows.map((r) => [key(r), r])).values()]
/** Evidence in address order (IPv4 first), whatever order the hosts were answered in. */
const addressesOf = (rows: readonly Row[]): string[] =>
  rows.map((r) => r.address).sort((a, b) => (addressSortKey(a) ?? a).localeCompare(addressSortKey(b) ?? b))
const roleNames = (rows: readonly Row[]): string => [...new Set(rows.map((r) => `${r.host} (${r.role})`))].join(', ')

export function dependencyFindings(rows: readonly Row[]): Finding[] {
  const out: Finding[] = []
  const add = (id: Finding['id'], severity: Finding['severity'], message: string, evidence: string[]) => out.push({ id, severity, message, evidence })

  // Name servers: judged over their distinct addresses, and only when there are two or more
  // (one name server is a finding of /api/domain/intelligence, not a concentration).
  const ns = uniqueBy(rows.filter((r) => r.role === 'ns'), (r) => r.address)
  const { singleAs, singleBlocks } = concentration(ns)
  if (singleAs !== null) {
    const anycast = ns.every((r) => r.anycast === true) ? ' They are anycast, which spreads the servers but not the routing: one AS\'s outage or route leak still takes them all.' : ''
    add('dependencies.ns_single_as', 'low', `All ${ns.length} name server addresses are in AS${singleAs}: one network's outage takes the domain's DNS down.${anycast}`, addressesOf(ns))
  }
  if (singleBlocks !== null) {
    add('dependencies.ns_single_prefix', 'medium', `All ${ns.length} name server addresses are in ${singleBlocks.join(' and ')}: one route withdrawn or hijacked takes every name server with it.`, addressesOf(ns))
  }

  const bogons = uniqueBy(rows.filter((r) => r.bogon === true), (r) => r.address)
  if (bogons.length) {
    add('dependencies.bogon', 'high', `${bogons.length} address(es) of ${roleNames(rows.filter((r) => r.bogon === true))} are not globally reachable (bogon space): nobody on the internet can reach them.`, addressesOf(bogons))
  }
  const unannounced = uniqueBy(rows.filter((r) => r.bogon === false && r.announced === false), (r) => r.address)
  if (unannounced.length) {
    add('dependencies.unannounced', 'high', `No BGP route covers ${unannounced.length} address(es) of ${roleNames(rows.filter((r) => r.bogon === false && r.announced === false))}: they are unreachable from the internet.`, addressesOf(unannounced))
  }
  const invalid = uniqueBy(rows.filter((r) => r.rpki === 'invalid'), (r) => r.address)
  if (invalid.length) {
    const routes = [...new Set(invalid.map((r) => `${r.prefix} from AS${r.origins.join('/AS')}`))].join(', ')
    add('dependencies.rpki_invalid', 'high', `The routes to ${invalid.length} address(es) of ${roleNames(rows.filter((r) => r.rpki === 'invalid'))} are RPKI-invalid (${routes}): networks that validate RPKI drop them.`, addressesOf(invalid))
  }
  return out.sort((a, b) => ORDER[a.severity] - ORDER[b.severity])
}
