import type { WebScheme, WebTarget } from '../../registry/web/schemas/web-target.ts'

// A web target (registry/web/schemas/web-target.ts) written back out: in a URL,
// and in answers.

/** "host" or "[v6]", as it goes into a URL's authority. */
export function urlHost(hostname: string): string {
  return hostname.includes(':') ? `[${hostname}]` : hostname
}

/** The URL for a target under a scheme; the scheme's default port is left out. */
export function targetUrl(target: WebTarget, scheme: WebScheme, path = target.path): string {
  const port = target.port === null || target.port === (scheme === 'https' ? 443 : 80) ? '' : `:${target.port}`
  return `${scheme}://${urlHost(target.hostname)}${port}${path}`
}

/** "example.com", "example.com:8443" or "[2001:db8::1]:8080": how a target is shown back. */
export function targetLabel(target: WebTarget): string {
  return target.port === null ? urlHost(target.hostname) : `${urlHost(target.hostname)}:${target.port}`
}
