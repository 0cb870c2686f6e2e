import type { z } from 'zod'
import { bodyText } from '../body-text.ts'
import type { WebCallOptions } from '../web-call.ts'
import { openSite, toTarget } from '../web-call.ts'
import type { WebClient } from '../web-client.ts'
import type { WebTarget } from '../../../registry/web/schemas/web-target.ts'
import { targetLabel } from '../target-url.ts'
import { headerValue } from '../web-response.ts'
import type { RobotsData } from '../../../registry/web/schemas/robots-data.ts'
import { parseRobots } from './robots-parse.ts'

// /api/web/robots: /robots.txt of the target's origin (any path given is
// ignored), fetched as RFC 9309 §2.3 says a crawler does: redirects followed up
// to five, 4xx = no restrictions, 5xx = assume everything is disallowed, and at
// most 500 KiB parsed.

export type Robots = z.infer<typeof RobotsData>

const PARSE_LIMIT = 500 * 1024

export async function robotsTxt(client: WebClient, host: string | WebTarget, o: WebCallOptions = {}): Promise<Robots> {
  const target = toTarget(host)
  // Six requests: the first and five redirects (§2.3.1.2).
  const chain = await openSite(client, target, 'secure-first', { ...o, path: '/robots.txt', maxBytes: PARSE_LIMIT + 1, maxHops: 6, headers: { accept: 'text/plain,*/*;q=0.5', 'accept-encoding': 'identity' } })
  const res = chain.final!
  const lastOk = chain.hops.findLastIndex((h) => h.status !== null)
  const base = {
    host: targetLabel(target),
    url: chain.hops[0]!.url,
    final_url: res.url,
    fallback: chain.fallback,
    status: res.status as number | null,
    content_type: headerValue(res.headers, 'content-type'),
    redirects: chain.hops.filter((_, i) => i !== lastOk),
    stopped: chain.stop,
  }
  const empty = { size_bytes: 0, truncated: false, line_count: 0, groups: [], sitemaps: [], other_records: [], all_disallowed: false }
  if (chain.stop === 'loop' || chain.stop === 'too_many_redirects' || chain.stop === 'invalid_location') {
    return {
      ...base,
      ...empty,
      availability: 'unavailable',
      access: 'allow_all',
      access_reason: `The redirects did not end (${chain.stop}); RFC 9309 lets crawlers treat robots.txt as unavailable`,
      problems: [{ line: null, severity: 'error', message: chain.stop_message ?? chain.stop }],
    }
  }
  if (chain.stop === 'blocked' || chain.stop === 'error') {
    return {
      ...base,
      ...empty,
      availability: 'unreachable',
      access: 'disallow_all',
      access_reason: 'A redirect could not be followed; crawlers must assume everything is disallowed',
      problems: [{ line: null, severity: 'error', message: chain.stop_message ?? chain.stop }],
    }
  }
  if (res.status >= 500) {
    return { ...base, ...empty, availability: 'unreachable', access: 'disallow_all', access_reason: `HTTP ${res.status}: crawlers must assume everything is disallowed`, problems: [] }
  }
  if (res.status < 200 || res.status >= 300) {
    return { ...base, ...empty, availability: 'unavailable', access: 'allow_all', access_reason: `HTTP ${res.status}: no robots.txt, so crawlers may fetch everything`, problems: [] }
  }
  const { text, truncated } = bodyText(res, PARSE_LIMIT)
  const parsed = parseRobots(text)
  const problems = [...parsed.problems]
  const type = base.content_type?.split(';')[0]!.trim().toLowerCase() ?? null
  if (/^\s*</.test(text) || type === 'text/html') problems.unshift({ line: null, severity: 'error', message: 'The response looks like an HTML page, not robots.txt (a "soft 404"?)' })
  else if (type !== null && type !== 'text/plain') problems.unshift({ line: null, severity: 'warning', message: `Content-Type is ${type}; robots.txt should be text/plain` })
  if (truncated) problems.push({ line: null, severity: 'warning', message: 'Longer than 500 KiB: crawlers may ignore everything after that' })
  const star = parsed.groups.filter((g) => g.user_agents.includes('*'))
  const rules = star.flatMap((g) => g.rules)
  return {
    ...base,
    size_bytes: res.body.length,
    truncated,
    line_count: parsed.line_count,
    availability: 'found',
    access: 'rules',
    access_reason: `${parsed.groups.length} groups with ${parsed.groups.reduce((n, g) => n + g.rules.length, 0)} rules`,
    groups: parsed.groups,
    sitemaps: parsed.sitemaps,
    other_records: parsed.other_records,
    problems,
    all_disallowed: rules.some((r) => r.type === 'disallow' && r.path === '/') && !rules.some((r) => r.type === 'allow' && r.path !== ''),
  }
}
