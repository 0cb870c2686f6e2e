import { definePlugin } from '../../runtime/define-plugin.ts'
import type { WhoisClient } from './whois-client.ts'
import { createWhoisClient } from './whois-client.ts'

// Port-43 WHOIS, for the TLDs whose registry has no RDAP service in the IANA
// bootstrap (.de, .es, .io, .jp, ... as of the bundled snapshot). The client
// reaches resolvers as the `whois` upstream; /api/domain/* (plugins/domain)
// chooses between it and RDAP.

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    whois: WhoisClient
  }
}

/** Each exchange (IANA, registry, registrar) gets a third of the request deadline, at most 10 s, as RDAP's do. */
export function whoisTimeoutMs(requestTimeoutMs: number): number {
  return Math.max(200, Math.min(10_000, Math.floor(requestTimeoutMs / 3)))
}

export default definePlugin({
  name: 'whois',
  setup(api) {
    api.upstream(
      'whois',
      createWhoisClient({
        network: api.network,
        iana: api.config.whoisIana,
        timeoutMs: whoisTimeoutMs(api.config.requestTimeoutMs),
        now: () => api.clock.now(),
      }),
    )
  },
})
