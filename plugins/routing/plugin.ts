import { definePlugin } from '../../runtime/define-plugin.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import asn from '../../registry/network/asn.ts'
import bgpAsnEndpoint from '../../registry/network/bgp-asn.ts'
import bgpPrefixEndpoint from '../../registry/network/bgp-prefix.ts'
import intelligenceEndpoint from '../../registry/network/intelligence.ts'
import ipBulkEndpoint from '../../registry/network/ip-bulk.ts'
import { streamed } from '../../runtime/streamed.ts'
import rpki from '../../registry/network/rpki.ts'
import routeOriginEndpoint from '../../registry/network/route-origin.ts'
import { asnAnswer } from './asn-answer.ts'
import { bgpAsn } from './bgp-asn.ts'
import { bgpPrefix } from './bgp-prefix.ts'
import { intelligence } from './intelligence.ts'
import { ipBulk, ipBulkCost } from './ip-bulk.ts'
import type { LocalIpData } from './local-ip-data.ts'
import { createLocalIpData } from './local-ip-data.ts'
import type { RipestatClient } from './ripestat/ripestat-client.ts'
import { createRipestatClient } from './ripestat/ripestat-client.ts'
import { rpkiAnswer } from './rpki-answer.ts'
import { routeOrigin } from './route-origin/route-origin.ts'
import { VrpStore } from './rpki/vrp-store.ts'
import { vrpSource } from './rpki/vrp-source.ts'

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    ripestat: RipestatClient
    rpki: VrpStore
  }
}

/**
 * A RIPEstat call gets at most 60% of the request deadline (15 s by default):
 * RIPEstat is slow for big ASNs, and a late answer should be a 502 naming it
 * rather than the gateway's bare 504.
 */
export function ripestatTimeoutMs(requestTimeoutMs: number): number {
  return Math.max(200, Math.min(15_000, Math.floor(requestTimeoutMs * 0.6)))
}

/** Each part of an intelligence answer gets a third of the deadline (at most 8 s). */
export function partTimeoutMs(requestTimeoutMs: number): number {
  return Math.max(200, Math.min(8_000, Math.floor(requestTimeoutMs / 3)))
}

/** Answers that lack a part (an upstream failed) are kept this long, not the descriptor's TTL. */
const DEGRADED_TTL_S = 60

export default definePlugin({
  name: 'routing',
  // The network plugin provides the offline ASN/country data (the `ipData` upstream),
  // the rdap plugin an ASN's registration, the dns plugin an address's PTR names
  // (their surfaces).
  dependencies: ['network', 'rdap', 'dns'],
  setup(api) {
    const ripestat = createRipestatClient({
      network: api.network,
      baseUrl: api.config.ripestatUrl,
      timeoutMs: ripestatTimeoutMs(api.config.requestTimeoutMs),
    })
    api.upstream('ripestat', ripestat)

    const vrps = new VrpStore({ source: vrpSource(api.config.vrpUrl, api.network, 120_000), log: api.log, now: () => api.clock.now() })
    api.upstream('rpki', vrps)
    api.readiness('rpki-vrps', () => vrps.readiness())
    api.onClose(() => vrps.close())
    vrps.start()

    // Upstreams are complete once every plugin is set up: take the shared IP data at the first request.
    let local: LocalIpData | null = null
    const localIpData = (ctx: ResolverContext): LocalIpData => {
      if (local) return local
      const ipData = ctx.upstreams.ipData
      if (!ipData) throw new Error('the network plugin (ipData upstream) is not installed')
      return (local = createLocalIpData(ipData))
    }

    api.resolve(asn, ({ asn: number }, ctx) => {
      const rdap = ctx.upstreams.rdap
      if (!rdap) throw new Error('the rdap plugin is not installed')
      return asnAnswer(rdap, ripestat, number, ctx.signal, () => ctx.lowerTtl(DEGRADED_TTL_S))
    })
    api.resolve(bgpPrefixEndpoint, ({ prefix }, ctx) => bgpPrefix(ripestat, prefix, ctx.signal))
    api.resolve(bgpAsnEndpoint, ({ asn: number }, ctx) => bgpAsn(ripestat, number, ctx.signal))
    api.resolve(rpki, ({ prefix, asn: origin }, ctx) => rpkiAnswer({ ripestat, vrps }, prefix, origin, ctx.signal))
    // Bulk IP facts need the network plugin's data and this plugin's VRP set: answered here.
    api.price(ipBulkEndpoint, ({ body }) => ipBulkCost(body.length))
    api.resolve(ipBulkEndpoint, ({ body }, ctx) => {
      const ipData = ctx.upstreams.ipData
      if (!ipData) throw new Error('the network plugin (ipData upstream) is not installed')
      return streamed((emit, signal) => ipBulk({ ipData, vrps }, body, emit, signal))
    })
    const partMs = partTimeoutMs(api.config.requestTimeoutMs)
    api.resolve(intelligenceEndpoint, ({ ip, origin_check: wanted }, ctx) => {
      // The origin check is /api/network/route-origin of the covering route, through its cache.
      const originCheck = wanted
        ? async (route: string) => {
            const d = (await ctx.invoke(routeOriginEndpoint, { prefix: route }, { timeoutMs: partMs })).data
            return { route: d.route, verdict: d.verdict, origins: d.origins.map((o) => ({ asn: o.asn, verdict: o.verdict })), findings: d.findings }
          }
        : null
      return intelligence({ ripestat, vrps, dns: api.dns, local: localIpData(ctx), partTimeoutMs: partMs, originCheck }, ip, ctx.signal, () => ctx.lowerTtl(DEGRADED_TTL_S))
    })
    // Its parts through ctx.invoke (bgp/prefix, whois/ip, rpki) and the rdap client (autnums), within 80% of the request deadline.
    api.resolve(routeOriginEndpoint, ({ prefix }, ctx) => {
      const rdap = ctx.upstreams.rdap
      if (!rdap) throw new Error('the rdap plugin is not installed')
      return routeOrigin(prefix, ctx, rdap, Math.floor(api.config.requestTimeoutMs * 0.8))
    })
  },
})
