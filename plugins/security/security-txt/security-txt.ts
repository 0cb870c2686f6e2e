import type { z } from 'zod'
import type { WebCallOptions } from '../../web/surface.ts'
import { bodyText, headerValue, openSite, sortFindings } from '../../web/surface.ts'
import type { WebClient } from '../../web/surface.ts'
import type { WebFinding } from '../../../registry/web/schemas/web-findings.ts'
import { parseSecurityTxt } from './security-txt-parse.ts'
import type { SecurityTxtData } from '../../../registry/security/schemas/security-txt-data.ts'
import { validateSecurityTxt } from './security-txt-validate.ts'

// /api/security/security-txt: RFC 9116 §3 — https://<domain>/.well-known/security.txt,
// then the legacy /security.txt. Only https (the RFC forbids plain http);
// redirects followed (each hop vetted) and a move to another host noted. A 200
// that is an HTML page (a "soft 404") or has no fields is not a security.txt.

export type SecurityTxt = z.infer<typeof SecurityTxtData>

const READ_LIMIT = 64 * 1024
const LOCATIONS = [
  ['well_known', '/.well-known/security.txt'],
  ['legacy', '/security.txt'],
] as const

type Attempt = SecurityTxt['attempts'][number]

export async function securityTxt(client: WebClient, domain: string, o: WebCallOptions & { now: number; port?: number | null }): Promise<SecurityTxt> {
  const now = o.now
  const target = { scheme: 'https' as const, hostname: domain, port: o.port ?? null, path: '/' }
  const attempts: Attempt[] = []
  const budgetMs = Math.floor((o.budgetMs ?? 15_000) / LOCATIONS.length)
  for (const [location, path] of LOCATIONS) {
    // The first request failing (no https at all) is the answer: a 502 (or 400/404).
    const chain = await openSite(client, target, 'secure-first', {
      ...(o.signal ? { signal: o.signal } : {}),
      budgetMs,
      path,
      maxBytes: READ_LIMIT,
      maxHops: 5,
      headers: { accept: 'text/plain,*/*;q=0.5', 'accept-encoding': 'identity' },
    })
    const res = chain.final!
    const attempt: Attempt = { url: chain.hops[0]!.url, final_url: res.url, status: res.status, outcome: '' }
    attempts.push(attempt)
    if (chain.stop !== 'final') {
      attempt.outcome = chain.stop
      continue
    }
    if (res.status < 200 || res.status > 299) {
      attempt.outcome = res.status >= 400 && res.status < 500 ? 'not_found' : 'http_error'
      continue
    }
    const { text, truncated } = bodyText(res, READ_LIMIT)
    const parsed = parseSecurityTxt(text)
    if (/^\s*</.test(text) || parsed.fields.length === 0) {
      attempt.outcome = 'not_text'
      continue
    }
    attempt.outcome = 'found'
    const { fields, findings } = validateSecurityTxt(parsed, [attempt.url, res.url], now)
    const extra: WebFinding[] = []
    const contentType = headerValue(res.headers, 'content-type')
    const mediaType = contentType?.split(';')[0]!.trim().toLowerCase() ?? null
    if (mediaType !== 'text/plain') {
      extra.push({ code: 'security_txt.content_type', severity: 'medium', message: `Served as ${contentType ?? 'no Content-Type'}; RFC 9116 requires text/plain; charset=utf-8.`, fix: 'Serve it as text/plain; charset=utf-8.' })
    } else if (!/charset\s*=\s*"?utf-8"?/i.test(contentType!)) {
      extra.push({ code: 'security_txt.charset', severity: 'low', message: `Served as ${contentType} without charset=utf-8.`, fix: 'Serve it as text/plain; charset=utf-8.' })
    }
    if (location === 'legacy') {
      extra.push({ code: 'security_txt.legacy_location', severity: 'low', message: 'Found only at /security.txt; RFC 9116 places it at /.well-known/security.txt.', fix: 'Serve it at /.well-known/security.txt (the old path may redirect there).' })
    }
    if (new URL(res.url).hostname !== domain) {
      extra.push({ code: 'security_txt.other_host', severity: 'info', message: `The request was redirected to another host (${new URL(res.url).host}); RFC 9116 asks researchers to treat that with care.`, fix: null })
    }
    if (truncated) extra.push({ code: 'security_txt.too_large', severity: 'low', message: `Longer than ${READ_LIMIT / 1024} KiB; only the start was read.`, fix: 'Keep security.txt short.' })
    const all = sortFindings([...findings, ...extra])
    return {
      domain,
      found: true,
      url: res.url,
      location,
      status: res.status,
      content_type: contentType,
      valid: !all.some((f) => f.severity === 'critical' || f.severity === 'high' || f.severity === 'medium'),
      signed: parsed.signed,
      signature_verified: null,
      ...fields,
      fields: parsed.fields.map(({ name, value, line }) => ({ name, value, line })),
      findings: all,
      attempts,
    }
  }
  return {
    domain,
    found: false,
    url: null,
    location: null,
    status: attempts[0]?.status ?? null,
    content_type: null,
    valid: false,
    signed: false,
    signature_verified: null,
    contact: [],
    expires: null,
    expires_in_days: null,
    expired: null,
    encryption: [],
    acknowledgments: [],
    canonical: [],
    policy: [],
    hiring: [],
    preferred_languages: [],
    csaf: [],
    unknown_fields: [],
    fields: [],
    findings: [
      {
        code: 'security_txt.missing',
        severity: 'low',
        message: `No security.txt at ${attempts[0]?.url ?? `https://${domain}/.well-known/security.txt`} (or /security.txt): researchers have no published way to report a vulnerability.`,
        fix: 'Publish /.well-known/security.txt with Contact and Expires (RFC 9116).',
      },
    ],
    attempts,
  }
}
