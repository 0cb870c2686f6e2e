import type { WebScheme, WebTarget } from '../../registry/web/schemas/web-target.ts'
import { targetUrl } from './target-url.ts'

// Which URL(s) a target is first requested at. A URL's scheme is obeyed. A bare
// host is asked the way the check means it:
// - 'secure-first' (headers, security headers, robots): https, and http only when
//   https cannot be reached at all (refused, reset, TLS failure, timeout) — what a
//   site serves to a browser that knows it has https. Port 80 means http only and
//   port 443 https only.
// - 'as-typed' (redirects): http, as a browser does when a name is typed without
//   a scheme, so the chain shows whether the site upgrades to https (port 443:
//   https; another port: as secure-first).

export type StartMode = 'secure-first' | 'as-typed'

export function startUrls(target: WebTarget, mode: StartMode, path = target.path): string[] {
  const at = (scheme: WebScheme) => targetUrl(target, scheme, path)
  if (target.scheme) return [at(target.scheme)]
  if (target.port === 80) return [at('http')]
  if (target.port === 443) return [at('https')]
  // A bare name on another port says nothing about the scheme: https, then http.
  return mode === 'as-typed' && target.port === null ? [at('http')] : [at('https'), at('http')]
}
