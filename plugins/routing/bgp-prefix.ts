import type { z } from 'zod'
import { formatCidr } from '../../runtime/ip/format.ts'
import { messagesOf } from './messages.ts'
import { contains, sameBlock } from './ripestat/clean.ts'
import { readPrefixOverview, readRoutingStatus } from './ripestat/data-calls.ts'
import type { RipestatClient } from './ripestat/ripestat-client.ts'
import { mustCidr } from './rpki-answer.ts'
import type { BgpPrefixData } from '../../registry/network/schemas/routing-data.ts'

/**
 * /api/bgp/prefix: who originates the prefix (prefix-overview), and how it sits in
 * the table: less and more specifics, visibility, first and last seen
 * (routing-status). Both calls run at once; either failing is a 502.
 */
export async function bgpPrefix(ripestat: RipestatClient, prefixText: string, signal: AbortSignal): Promise<z.input<typeof BgpPrefixData>> {
  const cidr = mustCidr(prefixText)
  const prefix = formatCidr(cidr)
  const [overviewAnswer, statusAnswer] = await Promise.all([
    ripestat.call('prefix-overview', prefix, { signal }),
    ripestat.call('routing-status', prefix, { signal }),
  ])
  const overview = readPrefixOverview(overviewAnswer.data)
  const status = readRoutingStatus(statusAnswer.data, cidr)

  // RIPEstat answers a prefix nobody announces with the first-level less specific
  // that carries it; only an answer about this very block names its origins.
  const exact = overview.announced && overview.resource !== null && sameBlock(overview.resource.cidr, cidr)
  const covering = !exact && overview.announced && overview.resource !== null && contains(overview.resource.cidr, cidr) ? overview.resource : null
  const irr = new Map(status.origins.map((o) => [o.asn, o.routeObjects]))
  const origins = exact
    ? overview.asns.map((a) => ({ asn: a.asn, holder: a.holder, route_objects: irr.get(a.asn) ?? [] }))
    : []
  // routing-status may know an origin prefix-overview did not list (its own snapshot): keep it.
  if (exact) for (const o of status.origins) if (!origins.some((x) => x.asn === o.asn)) origins.push({ asn: o.asn, holder: null, route_objects: o.routeObjects })

  const family = cidr.version === 4 ? status.visibility.v4 : status.visibility.v6
  return {
    prefix,
    version: cidr.version,
    announced: exact,
    origins,
    multi_origin: origins.length > 1,
    covering_route: covering ? { prefix: covering.prefix, origins: overview.asns.map((a) => ({ asn: a.asn, holder: a.holder })) } : null,
    less_specifics: status.lessSpecifics,
    more_specifics: status.moreSpecifics,
    visibility: family
      ? { ris_peers_seeing: family.seeing, total_ris_peers: family.total, percent: family.total > 0 ? Math.round((family.seeing / family.total) * 1000) / 10 : 0 }
      : null,
    first_seen: status.firstSeen,
    last_seen: status.lastSeen,
    block: overview.block,
    data_time: status.queryTime ?? overview.queryTime,
    messages: messagesOf([
      { answer: overviewAnswer, dropped: overview.dropped },
      { answer: statusAnswer, dropped: status.dropped },
    ]),
  }
}
