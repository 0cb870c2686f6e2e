import type { z } from 'zod'
import type { ResolverContext } from '../../../runtime/define-plugin.ts'
import { isApiError } from '../../../runtime/errors.ts'
import intelligence from '../../../registry/network/intelligence.ts'
import whoisIp from '../../../registry/network/whois-ip.ts'
import blocklist from '../../../registry/security/blocklist.ts'
import type { BlocklistSummary } from '../../../registry/email/schemas/networks-data.ts'
import type { PartErrorData } from '../../../registry/network/schemas/routing-data.ts'

// What the other endpoints know about one address, asked through ctx.invoke
// (their caches): the RDAP holder (/api/whois/ip), the covering route and its
// RPKI state (/api/network/intelligence), the DNSBLs (/api/security/blocklist).
// Each that fails is an error of its own; a 404 from RDAP (no registry holds the
// address) is no holder, not a failure.

export type PartError = z.input<typeof PartErrorData>
type RpkiState = 'valid' | 'invalid' | 'not-found'

export interface AddressFacts {
  holder: string | null
  allocation: string | null
  bogon: boolean | null
  route: string | null
  origins: number[]
  rpki: RpkiState | null
  blocklist: z.input<typeof BlocklistSummary>
  errors: PartError[]
}

export function partError(part: string, error: unknown, ctx: ResolverContext): PartError {
  if (isApiError(error)) {
    const d = error.details as { upstream?: unknown; reason?: unknown }
    return { part, code: error.code, message: error.message, upstream: typeof d.upstream === 'string' ? d.upstream : null, reason: typeof d.reason === 'string' ? d.reason : null }
  }
  if (ctx.signal.aborted) return { part, code: 'client_closed_request', message: 'The request ended before this part was done.', upstream: null, reason: null }
  ctx.log.error({ err: error, part }, 'email networks: a part failed unexpectedly')
  return { part, code: 'internal_error', message: 'This part failed unexpectedly; the error was logged with the request id.', upstream: null, reason: null }
}

/** invalid when any origin is, valid when every origin is, else not-found (as /api/domain/dependencies). */
function routeState(origins: ReadonlyArray<{ state: RpkiState }>): RpkiState | null {
  if (origins.length === 0) return null
  if (origins.some((o) => o.state === 'invalid')) return 'invalid'
  return origins.every((o) => o.state === 'valid') ? 'valid' : 'not-found'
}

const settle = <T>(p: Promise<T>) => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }))

export async function addressFacts(ctx: ResolverContext, address: string, options: { registration: boolean; sampled: boolean; timeoutMs: () => number }): Promise<AddressFacts> {
  const [reg, intel, bl] = await Promise.all([
    options.registration ? settle(ctx.invoke(whoisIp, { ip: address }, { timeoutMs: options.timeoutMs() })) : Promise.resolve(null),
    settle(ctx.invoke(intelligence, { ip: address }, { timeoutMs: options.timeoutMs() })),
    settle(ctx.invoke(blocklist, { ip: address }, { timeoutMs: options.timeoutMs() })),
  ])
  const facts: AddressFacts = { holder: null, allocation: null, bogon: null, route: null, origins: [], rpki: null, blocklist: null, errors: [] }
  if (reg?.ok) {
    facts.holder = reg.value.data.organization?.name ?? reg.value.data.name
    facts.allocation = reg.value.data.cidrs.join(', ') || null
  } else if (reg && !(isApiError(reg.error) && reg.error.code === 'not_found')) facts.errors.push(partError('registration', reg.error, ctx))
  if (intel.ok) {
    const d = intel.value.data
    facts.bogon = d.bogon.bogon
    facts.route = d.bgp?.prefix ?? null
    facts.origins = d.bgp?.origins ?? []
    facts.rpki = d.rpki ? routeState(d.rpki.origins) : null
    // Its own failed parts that these columns show (not PTR: the MX table takes that from /api/email/mx).
    facts.errors.push(...d.errors.filter((e) => e.part === 'bgp' || e.part === 'rpki'))
  } else facts.errors.push(partError('intelligence', intel.error, ctx))
  if (bl.ok) {
    const d = bl.value.data
    const answered = d.lists.filter((l) => l.status === 'listed' || l.status === 'not_listed')
    facts.blocklist = { address, sampled: options.sampled, listed: answered.length > 0 ? d.listed : null, lists: d.lists.filter((l) => l.status === 'listed').map((l) => l.name), errors: d.error_count }
  } else facts.errors.push(partError('blocklist', bl.error, ctx))
  return facts
}
