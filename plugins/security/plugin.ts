import { definePlugin } from '../../runtime/define-plugin.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import blocklist from '../../registry/security/blocklist.ts'
import domainBlocklist from '../../registry/security/domain-blocklist.ts'
import securityTxtEndpoint from '../../registry/security/security-txt.ts'
import { budgetFor } from '../web/surface.ts'
import type { WebClient } from '../web/surface.ts'
import { checkDomainBlocklists, checkIpBlocklists } from './blocklist.ts'
import { securityTxt } from './security-txt/security-txt.ts'

// Resolvers of /api/security/*: DNS blocklists through the service's resolver,
// security.txt through the web plugin's client (the "web" upstream).

function webOf(ctx: ResolverContext): WebClient {
  const web = ctx.upstreams.web
  // The descriptor declares upstreams: ['web'], so start-up fails without it.
  if (!web) throw new Error('the web upstream is not registered')
  return web
}

export default definePlugin({
  name: 'security',
  // security.txt is fetched as the web plugin fetches sites (plugins/web/surface.ts).
  dependencies: ['web'],
  setup(api) {
    const dns = api.dns
    const budgetMs = budgetFor(api.config.requestTimeoutMs)

    api.resolve(blocklist, async ({ ip }, ctx) => {
      const { ttl, ...answer } = await checkIpBlocklists(dns, ip, api.config.dnsblZones, ctx.signal)
      ctx.lowerTtl(answer.error_count > 0 ? 60 : (ttl ?? 60))
      return answer
    })
    api.resolve(domainBlocklist, async ({ domain }, ctx) => {
      const { ttl, ...answer } = await checkDomainBlocklists(dns, domain, api.config.domainBlocklistZones, ctx.signal)
      ctx.lowerTtl(answer.error_count > 0 ? 60 : (ttl ?? 60))
      return answer
    })
    api.resolve(securityTxtEndpoint, ({ domain }, ctx) => securityTxt(webOf(ctx), domain.domain, { signal: ctx.signal, budgetMs, port: domain.port, now: ctx.clock.now() }))
  },
})
