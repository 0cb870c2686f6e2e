import type { z } from 'zod'
import type { ResolverContext } from '../../../runtime/define-plugin.ts'
import { isApiError } from '../../../runtime/errors.ts'
import { formatAddress } from '../../../runtime/ip/format.ts'
import bgpPrefix from '../../../registry/network/bgp-prefix.ts'
import rpki from '../../../registry/network/rpki.ts'
import whoisIp from '../../../registry/network/whois-ip.ts'
import type { RouteOriginData } from '../../../registry/network/schemas/route-origin-data.ts'
import type { RdapClient } from '../../rdap/surface.ts'
import { asnRegistration, specialAsn } from '../../rdap/surface.ts'
import { partError } from '../messages.ts'
import { mustCidr } from '../rpki-answer.ts'
import { sameHolder } from './holders.ts'
import type { Allocation, MoreSpecific, Row } from './verdicts.ts'
import { overallVerdict, routeOriginFindings, rowVerdict } from './verdicts.ts'

// /api/network/route-origin: who announces a prefix (/api/bgp/prefix) against who
// holds it (/api/whois/ip of its first address: holder, ARIN originAS list), who
// holds each origin AS (its RDAP autnum) and what the VRPs say (/api/rpki per
// origin). Every part is asked through ctx.invoke (sharing those endpoints'
// caches) except the autnum, read with the rdap plugin's client; each part that
// fails is an entry in `errors` and leaves its fields null.

type Data = z.input<typeof RouteOriginData>
type PartError = Data['errors'][number]

/** An answer missing a part is kept this long, not the descriptor's 10 minutes. */
const DEGRADED_TTL_S = 60

function settle<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  )
}

export async function routeOrigin(prefixText: string, ctx: ResolverContext, rdap: RdapClient, budgetMs: number): Promise<Data> {
  const cidr = mustCidr(prefixText)
  const prefix = `${formatAddress(cidr.version, cidr.network)}/${cidr.prefixLength}`
  const deadlineAt = performance.now() + budgetMs
  const left = () => Math.max(1, Math.round(deadlineAt - performance.now()))
  const errors: PartError[] = []
  const fail = (part: string, error: unknown): void => {
    // A part cut short because the request ended is no bug (nobody reads this answer).
    if (!isApiError(error) && ctx.signal.aborted) {
      errors.push({ part, code: 'client_closed_request', message: 'The request ended before this part was done.', upstream: null, reason: null })
      return
    }
    if (!isApiError(error)) ctx.log.error({ err: error, part }, 'route origin: a part failed unexpectedly')
    errors.push(partError(part, error))
  }

  const [bgpAnswer, whoisAnswer] = await Promise.all([
    settle(ctx.invoke(bgpPrefix, { prefix }, { timeoutMs: left() })),
    settle(ctx.invoke(whoisIp, { ip: formatAddress(cidr.version, cidr.network) }, { timeoutMs: left() })),
  ])

  let allocation: Allocation | null = null
  if (whoisAnswer.ok) {
    const w = whoisAnswer.value.data
    allocation = { registry: w.registry, handle: w.handle, name: w.name, cidrs: w.cidrs, holder: w.organization, origin_asns: w.origin_asns }
  } else if (!(isApiError(whoisAnswer.error) && whoisAnswer.error.code === 'not_found')) {
    // A 404 is the registry saying no object holds the address (special-purpose space): no allocation, not a failure.
    fail('registration', whoisAnswer.error)
  }

  let route: string | null = null
  let announced: boolean | null = null
  let origins: Array<{ asn: number; holder: string | null }> = []
  let moreRaw: Array<{ prefix: string; origin: number | null }> = []
  if (bgpAnswer.ok) {
    const b = bgpAnswer.value.data
    announced = b.announced
    route = b.announced ? b.prefix : (b.covering_route?.prefix ?? null)
    origins = b.announced ? b.origins.map((o) => ({ asn: o.asn, holder: o.holder })) : (b.covering_route?.origins ?? [])
    moreRaw = b.more_specifics
  } else {
    fail('bgp', bgpAnswer.error)
  }

  const rows: Row[] = await Promise.all(
    origins.map(async (o): Promise<Row> => {
      const [v, reg] = await Promise.all([
        settle(ctx.invoke(rpki, { prefix: route!, asn: String(o.asn) }, { timeoutMs: left() })),
        specialAsn(o.asn) !== null ? Promise.resolve(null) : settle(asnRegistration(rdap, o.asn, AbortSignal.any([ctx.signal, AbortSignal.timeout(left())]))),
      ])
      let state: Row['rpki'] = null
      let reason: Row['rpki_reason'] = null
      let vrps: string[] = []
      if (v.ok) {
        const verdict = v.value.data.origins[0]
        state = verdict?.state ?? null
        reason = verdict?.reason ?? null
        vrps = v.value.data.covering_vrps.map((x) => `${x.prefix} maxLength ${x.max_length} AS${x.asn}`)
      } else fail(`rpki AS${o.asn}`, v.error)
      let asHolder: Row['as_holder'] = null
      if (reg?.ok) asHolder = reg.value.organization ?? (reg.value.name ? { handle: null, name: reg.value.name } : null)
      // A 404 is the registry holding no such AS: no holder, not a failure.
      else if (reg && !(isApiError(reg.error) && reg.error.code === 'not_found')) fail(`as_holder AS${o.asn}`, reg.error)
      const row = {
        asn: o.asn,
        as_name: o.holder,
        as_holder: asHolder,
        same_holder: allocation ? sameHolder(asHolder, allocation.holder) : null,
        registered_origin: allocation && allocation.origin_asns.length > 0 ? allocation.origin_asns.includes(o.asn) : null,
        rpki: state,
        rpki_reason: reason,
        vrps,
      }
      return { ...row, verdict: rowVerdict(row) }
    }),
  )

  const known = new Set([...origins.map((o) => o.asn), ...(allocation?.origin_asns ?? [])])
  const more: MoreSpecific[] = moreRaw.map((m) => ({ prefix: m.prefix, origin: m.origin, known_origin: m.origin !== null && known.has(m.origin) }))

  if (errors.length > 0) ctx.lowerTtl(DEGRADED_TTL_S)
  return {
    prefix,
    route,
    announced,
    allocation,
    origins: rows,
    more_specifics: more,
    verdict: overallVerdict(route, announced, rows, more),
    findings: routeOriginFindings(prefix, route, announced, allocation, rows, more),
    errors,
  }
}
