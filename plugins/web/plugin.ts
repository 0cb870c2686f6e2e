import { readFileSync } from 'node:fs'
import { definePlugin } from '../../runtime/define-plugin.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import headers from '../../registry/web/headers.ts'
import redirects from '../../registry/web/redirects.ts'
import robots from '../../registry/web/robots.ts'
import securityHeadersEndpoint from '../../registry/web/security-headers.ts'
import { robotsTxt } from './robots/robots.ts'
import { securityHeaders } from './security-headers/security-headers.ts'
import { budgetFor } from './web-call.ts'
import type { WebClient } from './web-client.ts'
import { createWebClient } from './web-client.ts'
import { webHeaders } from './web-headers.ts'
import { redirectChain } from './web-redirects.ts'

declare module '../../runtime/define-plugin.ts' {
  interface UpstreamRegistry {
    web: WebClient
  }
}

// Resolvers of /api/web/*, and the "web" upstream (the client every web check
// uses) for other plugins: security.txt here, the report later.

export default definePlugin({
  name: 'web',
  setup(api) {
    const client = createWebClient(api.network, api.config.extraCaFile ? readFileSync(api.config.extraCaFile, 'utf8') : undefined)
    api.upstream('web', client)
    const budgetMs = budgetFor(api.config.requestTimeoutMs)
    const options = (ctx: ResolverContext) => ({ signal: ctx.signal, budgetMs })

    api.resolve(headers, ({ host }, ctx) => webHeaders(client, host, options(ctx)))
    api.resolve(securityHeadersEndpoint, ({ host }, ctx) => securityHeaders(client, host, options(ctx)))
    api.resolve(redirects, ({ host }, ctx) => redirectChain(client, host, options(ctx)))
    api.resolve(robots, ({ host }, ctx) => robotsTxt(client, host, options(ctx)))
  },
})
