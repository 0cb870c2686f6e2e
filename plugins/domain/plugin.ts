import { definePlugin } from '../../runtime/define-plugin.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import age from '../../registry/domain/age.ts'
import dependencies from '../../registry/domain/dependencies.ts'
import intelligence from '../../registry/domain/intelligence.ts'
import issuance from '../../registry/domain/issuance.ts'
import nameservers from '../../registry/domain/nameservers.ts'
import registrar from '../../registry/domain/registrar.ts'
import whois from '../../registry/domain/whois.ts'
import { domainDependencies } from './dependencies/dependencies.ts'
import { domainAge, domainNameservers, domainRegistrar, domainWhois } from './domain-answers.ts'
import { domainIntelligence } from './intelligence.ts'
import { domainIssuance } from './issuance/issuance.ts'
import type { RegistrationClients } from './registration.ts'

// Resolvers of /api/domain/*. The RDAP and WHOIS clients come from the rdap and
// whois plugins (as upstreams), DNS from the service's resolver.

function clientsOf(ctx: ResolverContext): RegistrationClients {
  const { rdap, whois } = ctx.upstreams
  // The descriptors declare upstreams: ['rdap', 'whois'], so start-up fails without them.
  if (!rdap || !whois) throw new Error('the rdap and whois upstreams are not registered')
  return { rdap, whois }
}

export default definePlugin({
  name: 'domain',
  // The registration comes from the rdap plugin's client (the `rdap` upstream), or
  // the whois plugin's for TLDs without RDAP; the DNS signals are resolved as the
  // dns plugin resolves records (their surfaces).
  dependencies: ['rdap', 'dns', 'whois'],
  setup(api) {
    const dns = api.dns
    // Ages, days to expiry and the findings derived from them count from the service's clock.
    api.resolve(whois, ({ domain }, ctx) => domainWhois(clientsOf(ctx), domain, ctx.signal))
    api.resolve(registrar, ({ domain }, ctx) => domainRegistrar(clientsOf(ctx), domain, ctx.signal))
    api.resolve(age, ({ domain }, ctx) => domainAge(clientsOf(ctx), domain, ctx.clock.now(), ctx.signal))
    api.resolve(nameservers, ({ domain }, ctx) => domainNameservers(clientsOf(ctx), dns, domain, ctx.signal, (s) => ctx.lowerTtl(s)))
    api.resolve(intelligence, ({ domain }, ctx) => domainIntelligence(clientsOf(ctx), dns, domain, ctx.clock.now(), ctx.signal, (s) => ctx.lowerTtl(s)))
    // Its parts (DNS questions, /api/network/intelligence per address) through ctx.invoke, within 80% of the request deadline.
    api.resolve(dependencies, ({ domain }, ctx) => domainDependencies(domain, ctx, Math.floor(api.config.requestTimeoutMs * 0.8)))
    // CAA up the tree, CT and the served certificate, through ctx.invoke, within 80% of the request deadline.
    api.resolve(issuance, ({ domain, port }, ctx) => domainIssuance(domain, port, ctx, Math.floor(api.config.requestTimeoutMs * 0.8)))
  },
})
