import type { z } from 'zod'
import { asnRegistration, specialAsn } from '../rdap/surface.ts'
import type { RdapClient } from '../rdap/surface.ts'
import { messagesOf, partError } from './messages.ts'
import type { Dropped } from './ripestat/clean.ts'
import { readAnnouncedPrefixes, readAsOverview, readAsnNeighbours } from './ripestat/data-calls.ts'
import type { DataCall, RipestatAnswer, RipestatClient } from './ripestat/ripestat-client.ts'
import type { AsnData, AsnRoutingData } from '../../registry/network/schemas/routing-data.ts'

type Routing = z.input<typeof AsnRoutingData>

/**
 * /api/asn: the registration (RDAP, plugins/rdap: required — a 404 or 502 there
 * is the answer) beside the routing view from RIPEstat: name as routed,
 * announced prefix counts per family, neighbour counts. The three RIPEstat calls
 * run with the RDAP query; each that fails leaves its field null and an entry in
 * `errors`, and the answer is then kept only briefly (`degraded`).
 */
export async function asnAnswer(
  rdap: RdapClient,
  ripestat: RipestatClient,
  asn: number,
  signal: AbortSignal,
  degraded: () => void,
): Promise<z.input<typeof AsnData>> {
  // Special-purpose ASNs are a 404 from the registration half; do not ask RIPEstat about them.
  if (specialAsn(asn) !== null) return { ...(await asnRegistration(rdap, asn, signal)), routing: emptyRouting(), errors: [] }

  // If the registration fails, the routing calls still in flight are abandoned.
  const own = new AbortController()
  const both = AbortSignal.any([signal, own.signal])
  const settle = (call: DataCall) =>
    ripestat.call(call, `AS${asn}`, { signal: both }).then(
      (answer) => ({ ok: true as const, answer }),
      (error: unknown) => ({ ok: false as const, error }),
    )
  const calls = Promise.all([settle('as-overview'), settle('announced-prefixes'), settle('asn-neighbours')])
  let registration
  try {
    registration = await asnRegistration(rdap, asn, signal)
  } catch (error) {
    own.abort(error)
    throw error
  }
  const [overview, prefixes, neighbours] = await calls

  const routing = emptyRouting()
  const errors: z.input<typeof AsnData>['errors'] = []
  const used: Array<{ answer: RipestatAnswer; dropped?: Dropped }> = []
  if (overview.ok) {
    const o = readAsOverview(overview.answer.data)
    routing.holder = o.holder
    routing.announced = o.announced
    used.push({ answer: overview.answer })
  } else errors.push(partError('routing.holder', overview.error))
  if (prefixes.ok) {
    const p = readAnnouncedPrefixes(prefixes.answer.data)
    const ipv4 = p.prefixes.filter((x) => x.cidr.version === 4).length
    routing.prefixes = { ipv4, ipv6: p.prefixes.length - ipv4, total: p.prefixes.length, window: { start: p.queryStart, end: p.queryEnd } }
    used.push({ answer: prefixes.answer, dropped: p.dropped })
  } else errors.push(partError('routing.prefixes', prefixes.error))
  if (neighbours.ok) {
    const n = readAsnNeighbours(neighbours.answer.data)
    const count = (type: string) => n.neighbours.filter((x) => x.type === type).length
    routing.neighbours = { upstream: count('upstream'), downstream: count('downstream'), unknown: count('unknown'), unique: new Set(n.neighbours.map((x) => x.asn)).size }
    used.push({ answer: neighbours.answer, dropped: n.dropped })
  } else errors.push(partError('routing.neighbours', neighbours.error))
  routing.messages = messagesOf(used)
  if (errors.length > 0) degraded()
  return { ...registration, routing, errors }
}

function emptyRouting(): Routing {
  return { holder: null, announced: null, prefixes: null, neighbours: null, messages: [] }
}
