import type { z } from 'zod'
import type { ResolverContext } from '../../../runtime/define-plugin.ts'
import type { DependenciesData } from '../../../registry/domain/schemas/dependencies-data.ts'
import intelligence from '../../../registry/network/intelligence.ts'
import { dependencyFindings } from './findings.ts'
import type { HostWork } from './hosts.ts'
import { dependencyHosts, dnsAsker } from './hosts.ts'
import { partError } from './part-error.ts'
import type { Row } from './rows.ts'
import { failedRow, rowOf } from './rows.ts'

// /api/domain/dependencies: the hosts a domain depends on (hosts.ts), each of their
// addresses asked about once through /api/network/intelligence (ASN, route, RPKI,
// anycast, bogon: the routing plugin's own answer and cache), and the findings
// that need them all (findings.ts). Every part degrades on its own.

type Data = z.input<typeof DependenciesData>

/** More addresses than this are listed as skipped: each costs a BGP question upstream. */
export const MAX_ADDRESSES = 32

/** An answer missing a part is kept this long, not the descriptor's 5 minutes. */
const DEGRADED_TTL_S = 60

export async function domainDependencies(domain: string, ctx: ResolverContext, budgetMs: number): Promise<Data> {
  // The parts share one deadline inside the request's, so a slow part is its own error, not a 504.
  const deadlineAt = performance.now() + budgetMs
  const left = () => Math.max(1, Math.round(deadlineAt - performance.now()))
  const fail = (part: string, error: unknown) => partError(part, error, ctx)
  const work: HostWork = { lookups: [], errors: [] }
  const ask = dnsAsker(async (endpoint, name) => (await ctx.invoke(endpoint, { domain: name }, { timeoutMs: left() })).data, work, fail)
  const hosts = await dependencyHosts(domain, ask)

  const skipped: Data['skipped'] = []
  const addresses = [...new Set(hosts.map((h) => h.address))]
  const asked = new Set(addresses.slice(0, MAX_ADDRESSES))
  if (addresses.length > MAX_ADDRESSES) {
    skipped.push({ part: 'intelligence', reason: `${addresses.length} addresses; the first ${MAX_ADDRESSES} were asked about: ${addresses.slice(MAX_ADDRESSES).join(', ')} were not` })
  }
  const answers = new Map(
    [...asked].map((address) => [address, ctx.invoke(intelligence, { ip: address }, { timeoutMs: left() }).then((a) => ({ ok: true as const, data: a.data }), (error: unknown) => ({ ok: false as const, error }))]),
  )
  const rows: Row[] = []
  for (const host of hosts) {
    const pending = answers.get(host.address)
    if (!pending) continue
    const answer = await pending
    rows.push(answer.ok ? rowOf(host, answer.data) : failedRow(host, fail(`intelligence ${host.address}`, answer.error)))
  }

  if (work.errors.length > 0 || rows.some((r) => r.errors.length > 0)) ctx.lowerTtl(DEGRADED_TTL_S)
  return { domain, dependencies: rows, lookups: work.lookups, findings: dependencyFindings(rows), errors: work.errors, skipped }
}
