import type { z } from 'zod'
import { formatCidr } from '../../runtime/ip/format.ts'
import type { Cidr } from '../../runtime/ip/ip-types.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import { messagesOf } from './messages.ts'
import { contains, sameBlock } from './ripestat/clean.ts'
import { readPrefixOverview } from './ripestat/data-calls.ts'
import type { RipestatClient } from './ripestat/ripestat-client.ts'
import type { OriginValidation, Route, Vrp } from './rpki/vrp-index.ts'
import { parseRoute } from './rpki/vrp-index.ts'
import type { LoadedVrps, VrpStore } from './rpki/vrp-store.ts'
import type { OriginValidationData, RpkiData } from '../../registry/network/schemas/routing-data.ts'
import { vrpSetInfo } from './vrp-set-info.ts'

export function mustCidr(text: string): Cidr {
  const parsed = parseCidr(text)
  // The descriptor's CidrParam ran this parser already: a failure here is a bug.
  if (!parsed.ok) throw new Error(`validated prefix failed to parse again: ${parsed.error.reason}`)
  return parsed.value
}

function describe(v: OriginValidation, prefix: string, asn: number): string {
  const len = prefix.slice(prefix.indexOf('/') + 1)
  if (v.state === 'not-found') return `No VRP covers ${prefix}: RPKI says nothing about who may originate it.`
  if (v.state === 'valid') {
    const m = v.matched[0]!
    return `AS${asn} may originate ${prefix}: VRP ${m.prefix} AS${m.asn} maxLength ${m.max_length} matches.`
  }
  if (v.reason === 'length') {
    const widest = Math.max(...v.unmatched_length.map((x) => x.max_length))
    return `AS${asn} holds a VRP covering ${prefix}, but only up to /${widest}; /${len} is longer than its maxLength.`
  }
  const others = [...new Set(v.unmatched_as.map((x) => `AS${x.asn}`))]
  return `No VRP covering ${prefix} names AS${asn}; the covering VRPs name ${others.join(', ')}${others.includes('AS0') ? ' (AS0: the holder says it must not be routed)' : ''}.`
}

/** One origin's RFC 6811 verdict, as the API reports it; `covering` is the route's covering VRPs, found once per answer. */
export function originVerdict(set: LoadedVrps, route: Route, covering: readonly Vrp[], prefix: string, asn: number, source: 'query' | 'bgp'): z.input<typeof OriginValidationData> {
  const v = set.index.explainRoute(route, asn, covering)
  return { asn, state: v.state, reason: v.reason, description: describe(v, prefix, asn), source, matched: v.matched, unmatched_as: v.unmatched_as, unmatched_length: v.unmatched_length }
}

export interface RpkiDeps {
  ripestat: RipestatClient
  vrps: VrpStore
}

/**
 * /api/rpki: the prefix's covering VRPs and the verdict for one origin (?asn=) or
 * for every origin RIPEstat sees announcing exactly this prefix.
 */
export async function rpkiAnswer(deps: RpkiDeps, prefixText: string, asn: number | undefined, signal: AbortSignal): Promise<z.input<typeof RpkiData>> {
  const cidr = mustCidr(prefixText)
  const prefix = formatCidr(cidr)
  const set = deps.vrps.require()
  let bgp: z.input<typeof RpkiData>['bgp'] = null
  let origins: Array<{ asn: number; source: 'query' | 'bgp' }>
  if (asn !== undefined) {
    origins = [{ asn, source: 'query' }]
  } else {
    const answer = await deps.ripestat.call('prefix-overview', prefix, { signal })
    const overview = readPrefixOverview(answer.data)
    const exact = overview.resource !== null && sameBlock(overview.resource.cidr, cidr) && overview.announced
    const covering = !exact && overview.announced && overview.resource !== null && contains(overview.resource.cidr, cidr) ? overview.resource.prefix : null
    const seen = exact ? overview.asns.map((a) => a.asn) : []
    origins = seen.map((a) => ({ asn: a, source: 'bgp' as const }))
    bgp = { announced: exact, origins: seen, covering_route: covering, messages: messagesOf([{ answer, dropped: overview.dropped }]) }
  }
  // The prefix is read into numbers once; the covering VRPs are found once for every origin.
  const route = parseRoute(prefix)
  if (route === null) throw new Error(`${prefix} is not a prefix the validator reads`)
  const covering = set.index.coveringRoute(route)
  return {
    prefix,
    version: cidr.version,
    origins: origins.map((o) => originVerdict(set, route, covering, prefix, o.asn, o.source)),
    covering_vrps: covering,
    bgp,
    vrp_set: vrpSetInfo(deps.vrps, set),
  }
}
