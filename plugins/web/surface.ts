// What the web plugin offers other plugins: the one file of plugins/web/ another
// plugin may import, and only when it names "web" in its `dependencies`
// (test/architecture/layers.test.ts). Re-exports, the sanctioned exception to
// "no barrels". The client itself reaches resolvers as the `web` upstream
// (ctx.upstreams.web); these are its type and the ways to use it.

export type { WebClient } from './web-client.ts'
/** Opening a site the way the web endpoints do (https first, redirects, the time budget). */
export type { WebCallOptions } from './web-call.ts'
export { budgetFor, openSite } from './web-call.ts'
export { bodyText } from './body-text.ts'
export { headerValue } from './web-response.ts'
/** Most severe first, as every web and security answer lists its findings. */
export { sortFindings } from './web-findings.ts'
