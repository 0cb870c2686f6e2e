import type { z } from 'zod'
import { messagesOf } from './messages.ts'
import type { AnnouncedPrefix, Neighbour, NeighbourType } from './ripestat/data-calls.ts'
import { readAnnouncedPrefixes, readAsnNeighbours } from './ripestat/data-calls.ts'
import type { RipestatClient } from './ripestat/ripestat-client.ts'
import type { BgpAsnData, NeighbourData } from '../../registry/network/schemas/routing-data.ts'

type NeighbourOut = z.input<typeof NeighbourData>

function side(neighbours: readonly Neighbour[], type: NeighbourType): NeighbourOut[] {
  return neighbours.filter((n) => n.type === type).map((n) => ({ asn: n.asn, power: n.power, v4_peers: n.v4Peers, v6_peers: n.v6Peers }))
}

function span(p: AnnouncedPrefix): { first_seen: string | null; last_seen: string | null } {
  const starts = p.timelines.map((t) => t.start).filter((s): s is string => s !== null).sort()
  const ends = p.timelines.map((t) => t.end).filter((s): s is string => s !== null).sort()
  return { first_seen: starts[0] ?? null, last_seen: ends[ends.length - 1] ?? null }
}

/**
 * /api/bgp/asn: the AS's neighbours by side with their power (asn-neighbours),
 * and the prefixes it announced in RIPEstat's window (announced-prefixes), a list
 * the descriptor pages (sort=prefix, limit, offset).
 */
export async function bgpAsn(ripestat: RipestatClient, asn: number, signal: AbortSignal): Promise<z.input<typeof BgpAsnData>> {
  const resource = `AS${asn}`
  const [prefixesAnswer, neighboursAnswer] = await Promise.all([
    ripestat.call('announced-prefixes', resource, { signal }),
    ripestat.call('asn-neighbours', resource, { signal }),
  ])
  const announced = readAnnouncedPrefixes(prefixesAnswer.data)
  const nb = readAsnNeighbours(neighboursAnswer.data)
  const upstream = side(nb.neighbours, 'upstream')
  const downstream = side(nb.neighbours, 'downstream')
  const unknown = side(nb.neighbours, 'unknown')
  const ipv4 = announced.prefixes.filter((p) => p.cidr.version === 4).length
  return {
    asn,
    neighbours: {
      // Counted from the list we pass on (after checking it), not RIPEstat's own tally.
      counts: {
        upstream: upstream.length,
        downstream: downstream.length,
        unknown: unknown.length,
        unique: new Set(nb.neighbours.map((n) => n.asn)).size,
      },
      upstream,
      downstream,
      unknown,
    },
    prefix_counts: { ipv4, ipv6: announced.prefixes.length - ipv4, total: announced.prefixes.length },
    prefixes: announced.prefixes.map((p) => ({ prefix: p.prefix, version: p.cidr.version, ...span(p) })),
    window: { start: announced.queryStart, end: announced.queryEnd },
    messages: messagesOf([
      { answer: prefixesAnswer, dropped: announced.dropped },
      { answer: neighboursAnswer, dropped: nb.dropped },
    ]),
  }
}
