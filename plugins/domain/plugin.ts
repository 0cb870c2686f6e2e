import { definePlugin } from '../../runtime/define-plugin.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import age from '../../registry/domain/age.ts'
import intelligence from '../../registry/domain/intelligence.ts'
import nameservers from '../../registry/domain/nameservers.ts'
import registrar from '../../registry/domain/registrar.ts'
import whois from '../../registry/domain/whois.ts'
import type { RdapClient } from '../rdap/surface.ts'
import { domainAge, domainNameservers, domainRegistrar, domainWhois } from './domain-answers.ts'
import { domainIntelligence } from './intelligence.ts'

// Resolvers of /api/domain/*. The RDAP client comes from the rdap plugin (as an
// upstream), DNS from the service's resolver.

function rdapOf(ctx: ResolverContext): RdapClient {
  const rdap = ctx.upstreams.rdap
  // The descriptors declare upstreams: ['rdap'], so start-up fails without it.
  if (!rdap) throw new Error('the rdap upstream is not registered')
  return rdap
}

export default definePlugin({
  name: 'domain',
  // The registration comes from the rdap plugin's client (the `rdap` upstream); the
  // DNS signals are resolved as the dns plugin resolves records (their surfaces).
  dependencies: ['rdap', 'dns'],
  setup(api) {
    const dns = api.dns
    // Ages, days to expiry and the findings derived from them count from the service's clock.
    api.resolve(whois, ({ domain }, ctx) => domainWhois(rdapOf(ctx), domain, ctx.signal))
    api.resolve(registrar, ({ domain }, ctx) => domainRegistrar(rdapOf(ctx), domain, ctx.signal))
    api.resolve(age, ({ domain }, ctx) => domainAge(rdapOf(ctx), domain, ctx.clock.now(), ctx.signal))
    api.resolve(nameservers, ({ domain }, ctx) => domainNameservers(rdapOf(ctx), dns, domain, ctx.signal, (s) => ctx.lowerTtl(s)))
    api.resolve(intelligence, ({ domain }, ctx) => domainIntelligence(rdapOf(ctx), dns, domain, ctx.clock.now(), ctx.signal, (s) => ctx.lowerTtl(s)))
  },
})
