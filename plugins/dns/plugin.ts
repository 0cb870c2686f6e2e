import { definePlugin } from '../../runtime/define-plugin.ts'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { createDnsClient } from '../../runtime/net/dns/dns-client.ts'
import lookup from '../../registry/dns/lookup.ts'
import propagation from '../../registry/dns/propagation.ts'
import query from '../../registry/dns/query.ts'
import reverse from '../../registry/network/reverse-dns.ts'
import { lookupAll } from './lookup.ts'
import { checkPropagation } from './propagation.ts'
import { queryRecords } from './query.ts'
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

    // Every descriptor that names a record type is one of /api/dns/<type>: a new
    // type is a new descriptor file, nothing here. Each takes the name as `domain`
    // (its params schema may normalize it, e.g. PTR's IP address to a reverse name).
    for (const endpoint of api.endpoints()) {
      const type = endpoint.dnsType
      if (type === undefined) continue
      api.resolve(endpoint, async (input, ctx) => {
        const domain = (input as { domain?: unknown }).domain
        if (typeof domain !== 'string') throw new Error(`${endpoint.name}: a DNS record endpoint takes the name as \`domain\``)
        const { raw: _raw, ...answer } = await resolveRecords(dns, domain, type, ctx.signal)
        ctx.lowerTtl(cacheTtlOf(answer))
        return answer
      })
    }

    api.resolve(query, ({ domain, type, dnssec }, ctx) => queryRecords(dns, domain, type, dnssec, ctx))

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
