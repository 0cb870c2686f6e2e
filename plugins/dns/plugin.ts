import { definePlugin } from '../../runtime/define-plugin.ts'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { createDnsClient } from '../../runtime/net/dns/dns-client.ts'
import a from '../../registry/dns/a.ts'
import aaaa from '../../registry/dns/aaaa.ts'
import cname from '../../registry/dns/cname.ts'
import lookup from '../../registry/dns/lookup.ts'
import mx from '../../registry/dns/mx.ts'
import ns from '../../registry/dns/ns.ts'
import propagation from '../../registry/dns/propagation.ts'
import txt from '../../registry/dns/txt.ts'
import reverse from '../../registry/network/reverse-dns.ts'
import { lookupAll } from './lookup.ts'
import { checkPropagation } from './propagation.ts'
import { cacheTtlOf, resolveRecords } from './resolve-records.ts'
import { reverseDns } from './reverse-dns.ts'

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    dns: DnsClient
  }
}

export default definePlugin({
  name: 'dns',
  setup(api) {
    api.upstream('dns', api.dns)
    const dns = api.dns

    for (const endpoint of [a, aaaa, mx, txt, ns, cname]) {
      const type = endpoint.dnsType
      // Start-up fails on a record descriptor that does not say which type it asks for.
      if (type === undefined) throw new Error(`${endpoint.name}: a DNS record endpoint needs \`dnsType\` in its descriptor`)
      api.resolve(endpoint, async ({ domain }, ctx) => {
        const { raw: _raw, ...answer } = await resolveRecords(dns, domain, type, ctx.signal)
        ctx.lowerTtl(cacheTtlOf(answer))
        return answer
      })
    }

    api.resolve(lookup, ({ domain }, ctx) => lookupAll(dns, domain, ctx.signal, (s) => ctx.lowerTtl(s)))

    // One client per propagation resolver, no retries: a dead resolver costs one
    // timeout, and the answer says which resolver it was. Their sockets are plain ones,
    // not the guarded network's: the addresses are operator configuration
    // (INFRALENS_PROPAGATION_RESOLVERS, IP literals only), never client input, so there
    // is no target to vet; no DNS query of this service goes to a server a client names.
    const resolvers = api.config.propagationResolvers.map((r) => ({
      name: r.name ?? r.host,
      address: r.host,
      client: createDnsClient({ servers: [r], timeoutMs: api.config.dnsTimeoutMs, retries: 0 }),
    }))
    api.resolve(propagation, ({ domain, type }, ctx) => checkPropagation(resolvers, domain, type, ctx.signal))

    api.resolve(reverse, async ({ ip }, ctx) => {
      const { ttl, ...answer } = await reverseDns(dns, ip, ctx.signal)
      ctx.lowerTtl(ttl ?? 60)
      return answer
    })
  },
})
