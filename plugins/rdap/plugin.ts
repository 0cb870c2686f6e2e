import { definePlugin } from '../../runtime/define-plugin.ts'
import whoisIp from '../../registry/network/whois-ip.ts'
import { createBootstrapStore } from './bootstrap-store.ts'
import { ipRegistration } from './ip-registration.ts'
import type { RdapClient } from './rdap-client.ts'
import { createRdapClient } from './rdap-client.ts'

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    rdap: RdapClient
  }
}

/**
 * Each RDAP exchange gets a third of the request deadline (at most 10 s): a
 * bootstrap fetch, the registry and a registrar query then fit in one request, and
 * a slow registry is reported as a 502 naming it rather than a bare 504.
 */
export function rdapTimeoutMs(requestTimeoutMs: number): number {
  return Math.max(200, Math.min(10_000, Math.floor(requestTimeoutMs / 3)))
}

export default definePlugin({
  name: 'rdap',
  setup(api) {
    const timeoutMs = rdapTimeoutMs(api.config.requestTimeoutMs)
    const bootstrap = createBootstrapStore({
      network: api.network,
      baseUrl: api.config.rdapBootstrapUrl,
      timeoutMs,
      log: api.log,
      now: () => api.clock.now(),
    })
    const rdap = createRdapClient({ network: api.network, bootstrap, timeoutMs })
    api.upstream('rdap', rdap)

    api.resolve(whoisIp, ({ ip }, ctx) => ipRegistration(rdap, ip, ctx.signal))
    // /api/asn is resolved by plugins/routing, which puts asnRegistration's answer beside RIPEstat's.
  },
})
