import type { Cidr } from '../../../runtime/ip/ip-types.ts'
import type { RawObject } from '../../../runtime/raw-json.ts'
import { bool, int, obj, objects, str, strings } from '../../../runtime/raw-json.ts'
import type { CleanPrefix } from './clean.ts'
import { Dropped, cleanAsn, cleanPrefix, compareCidr, contains, sameBlock } from './clean.ts'

// The `data` member of each RIPEstat call we use, read defensively into plain
// shapes (https://stat.ripe.net/docs/data-api). Members may be missing, null or
// of the wrong type; prefixes and ASNs that do not parse, or that contradict
// the question (a "more specific" outside the queried block), are dropped and
// counted in `dropped`.

export interface Holder {
  asn: number
  holder: string | null
}

export interface PrefixOverview {
  /** The block RIPEstat answered for: the queried prefix, or the first-level less specific it aligned to. */
  resource: CleanPrefix | null
  announced: boolean
  /** RIPEstat's flag that it aligned the answer to a less specific. */
  isLessSpecific: boolean
  asns: Holder[]
  block: { resource: string | null; description: string | null; name: string | null } | null
  queryTime: string | null
  dropped: Dropped
}

export function readPrefixOverview(d: RawObject): PrefixOverview {
  const dropped = new Dropped()
  const resource = cleanPrefix(d.resource)
  if (d.resource !== undefined && d.resource !== null && !resource) dropped.add('unparseable resource')
  const asns: Holder[] = []
  for (const a of objects(d.asns)) {
    const asn = cleanAsn(a.asn)
    if (asn === null) dropped.add('bad ASNs')
    else if (!asns.some((x) => x.asn === asn)) asns.push({ asn, holder: str(a.holder) })
  }
  const block = obj(d.block)
  return {
    resource,
    announced: bool(d.announced) ?? asns.length > 0,
    isLessSpecific: bool(d.is_less_specific) ?? false,
    asns,
    block: block ? { resource: str(block.resource), description: str(block.desc), name: str(block.name) } : null,
    queryTime: str(d.query_time),
    dropped,
  }
}

export interface PrefixOrigin {
  prefix: string
  origin: number | null
}

export interface SeenRoute {
  prefix: string
  origin: number | null
  time: string | null
}

export interface Visibility {
  seeing: number
  total: number
}

export interface RoutingStatus {
  firstSeen: SeenRoute | null
  lastSeen: SeenRoute | null
  visibility: { v4: Visibility | null; v6: Visibility | null }
  /** Prefix queries: the origins seen, with the IRR sources holding a route object for them. */
  origins: Array<{ asn: number; routeObjects: string[] }>
  lessSpecifics: PrefixOrigin[]
  moreSpecifics: PrefixOrigin[]
  /** ASN queries: what the AS announces. */
  announcedSpace: { v4Prefixes: number | null; v4Addresses: number | null; v6Prefixes: number | null; v6Slash48s: number | null } | null
  observedNeighbours: number | null
  queryTime: string | null
  dropped: Dropped
}

function seen(value: unknown, dropped: Dropped): SeenRoute | null {
  const o = obj(value)
  if (!o || Object.keys(o).length === 0) return null
  const p = cleanPrefix(o.prefix)
  if (!p) {
    if (o.prefix !== undefined) dropped.add('bad first/last seen prefixes')
    return null
  }
  return { prefix: p.prefix, origin: cleanAsn(o.origin), time: str(o.time) }
}

function visibility(value: unknown): Visibility | null {
  const o = obj(value)
  if (!o) return null
  const seeing = int(o.ris_peers_seeing)
  const total = int(o.total_ris_peers)
  return seeing === null || total === null ? null : { seeing, total }
}

/**
 * `query`: the prefix asked about, to check the specifics against; omit for
 * ASN queries.
 */
export function readRoutingStatus(d: RawObject, query?: Cidr): RoutingStatus {
  const dropped = new Dropped()
  const specifics = (value: unknown, kind: 'less' | 'more'): PrefixOrigin[] => {
    const out: Array<PrefixOrigin & { cidr: Cidr }> = []
    for (const s of objects(value)) {
      const p = cleanPrefix(s.prefix)
      if (!p) {
        dropped.add('unparseable prefixes')
        continue
      }
      // A less specific must contain the query and a more specific lie inside it.
      if (query && (sameBlock(p.cidr, query) || !(kind === 'less' ? contains(p.cidr, query) : contains(query, p.cidr)))) {
        dropped.add(`${kind} specifics that are not ${kind} specific`)
        continue
      }
      const origin = cleanAsn(s.origin)
      if (!out.some((x) => x.prefix === p.prefix && x.origin === origin)) out.push({ prefix: p.prefix, origin, cidr: p.cidr })
    }
    return out.sort((a, b) => compareCidr(a.cidr, b.cidr) || (a.origin ?? -1) - (b.origin ?? -1)).map(({ prefix, origin }) => ({ prefix, origin }))
  }
  const origins: RoutingStatus['origins'] = []
  for (const o of objects(d.origins)) {
    const asn = cleanAsn(o.origin)
    if (asn === null) dropped.add('bad ASNs')
    else if (!origins.some((x) => x.asn === asn)) origins.push({ asn, routeObjects: strings(o.route_objects) })
  }
  const vis = obj(d.visibility)
  const space = obj(d.announced_space)
  const v4 = obj(space?.v4)
  const v6 = obj(space?.v6)
  return {
    firstSeen: seen(d.first_seen, dropped),
    lastSeen: seen(d.last_seen, dropped),
    visibility: { v4: visibility(vis?.v4), v6: visibility(vis?.v6) },
    origins,
    lessSpecifics: specifics(d.less_specifics, 'less'),
    moreSpecifics: specifics(d.more_specifics, 'more'),
    announcedSpace: space ? { v4Prefixes: int(v4?.prefixes), v4Addresses: int(v4?.ips), v6Prefixes: int(v6?.prefixes), v6Slash48s: int(v6?.['48s']) } : null,
    observedNeighbours: int(d.observed_neighbours),
    queryTime: str(d.query_time),
    dropped,
  }
}

export interface AnnouncedPrefix {
  prefix: string
  cidr: Cidr
  timelines: Array<{ start: string | null; end: string | null }>
}

export interface AnnouncedPrefixes {
  prefixes: AnnouncedPrefix[]
  queryStart: string | null
  queryEnd: string | null
  dropped: Dropped
}

export function readAnnouncedPrefixes(d: RawObject): AnnouncedPrefixes {
  const dropped = new Dropped()
  const byPrefix = new Map<string, AnnouncedPrefix>()
  for (const p of objects(d.prefixes)) {
    const clean = cleanPrefix(p.prefix)
    if (!clean) {
      dropped.add('unparseable prefixes')
      continue
    }
    const timelines = objects(p.timelines).map((t) => ({ start: str(t.starttime), end: str(t.endtime) }))
    const known = byPrefix.get(clean.prefix)
    // "10.1.2.3/8" and "10.0.0.0/8" are one block once masked: merge their timelines.
    if (known) known.timelines.push(...timelines)
    else byPrefix.set(clean.prefix, { prefix: clean.prefix, cidr: clean.cidr, timelines })
  }
  return {
    prefixes: [...byPrefix.values()].sort((a, b) => compareCidr(a.cidr, b.cidr)),
    queryStart: str(d.query_starttime),
    queryEnd: str(d.query_endtime),
    dropped,
  }
}

export type NeighbourType = 'upstream' | 'downstream' | 'unknown'

export interface Neighbour {
  asn: number
  type: NeighbourType
  power: number | null
  v4Peers: number | null
  v6Peers: number | null
}

export interface AsnNeighbours {
  neighbours: Neighbour[]
  counts: { upstream: number | null; downstream: number | null; unknown: number | null; unique: number | null }
  queryStart: string | null
  queryEnd: string | null
  dropped: Dropped
}

// RIPEstat's sides of the AS path: "left" neighbours are seen closer to the
// collectors (upstreams), "right" ones further away (downstreams); "uncertain"
// are both or neither.
const SIDES: Record<string, NeighbourType> = { left: 'upstream', right: 'downstream', uncertain: 'unknown' }

export function readAsnNeighbours(d: RawObject): AsnNeighbours {
  const dropped = new Dropped()
  const neighbours: Neighbour[] = []
  for (const n of objects(d.neighbours)) {
    const asn = cleanAsn(n.asn)
    const type = SIDES[str(n.type) ?? '']
    if (asn === null || type === undefined) {
      dropped.add('neighbours without a valid ASN or side')
      continue
    }
    if (neighbours.some((x) => x.asn === asn && x.type === type)) continue
    neighbours.push({ asn, type, power: int(n.power), v4Peers: int(n.v4_peers), v6Peers: int(n.v6_peers) })
  }
  neighbours.sort((a, b) => (b.power ?? -1) - (a.power ?? -1) || a.asn - b.asn)
  const c = obj(d.neighbour_counts)
  return {
    neighbours,
    counts: { upstream: int(c?.left), downstream: int(c?.right), unknown: int(c?.uncertain), unique: int(c?.unique) },
    queryStart: str(d.query_starttime),
    queryEnd: str(d.query_endtime),
    dropped,
  }
}

export interface AsOverview {
  holder: string | null
  announced: boolean | null
  block: { resource: string | null; description: string | null; name: string | null } | null
}

export function readAsOverview(d: RawObject): AsOverview {
  const block = obj(d.block)
  return {
    holder: str(d.holder),
    announced: bool(d.announced),
    block: block ? { resource: str(block.resource), description: str(block.desc), name: str(block.name) } : null,
  }
}

export interface NetworkInfo {
  /** The most specific announced prefix covering the address, if it does cover it. */
  prefix: CleanPrefix | null
  asns: number[]
  dropped: Dropped
}

/** `address`: the queried IP as a /32 or /128 block, to check the prefix covers it. */
export function readNetworkInfo(d: RawObject, address: Cidr): NetworkInfo {
  const dropped = new Dropped()
  let prefix = cleanPrefix(d.prefix)
  if (d.prefix !== undefined && d.prefix !== null && d.prefix !== '' && !prefix) dropped.add('unparseable prefixes')
  if (prefix && !contains(prefix.cidr, address)) {
    dropped.add('prefixes not covering the address')
    prefix = null
  }
  const asns: number[] = []
  for (const a of Array.isArray(d.asns) ? (d.asns as unknown[]) : []) {
    const asn = cleanAsn(a)
    if (asn === null) dropped.add('bad ASNs')
    else if (!asns.includes(asn)) asns.push(asn)
  }
  return { prefix, asns: prefix ? asns : [], dropped }
}
