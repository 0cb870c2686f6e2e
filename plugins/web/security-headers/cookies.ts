import type { WebFinding } from '../../../registry/web/schemas/web-findings.ts'
import type { Analysis, Check } from './check.ts'
import { parseParams } from './header-params.ts'

// Set-Cookie attributes (RFC 6265bis): Secure, HttpOnly, SameSite, and the
// __Secure-/__Host- prefixes' rules. Values are never echoed back. HttpOnly is
// only demanded of cookies that look like sessions (a CSRF token is read by
// scripts on purpose); browsers default a missing SameSite to Lax, so that is
// informational; SameSite=None without Secure is dropped by browsers. The
// cookie checks take at most 20 points together.

const COOKIE_CAP = -20
const SESSION_LIKE = /(^|[_.-])(sess|session|sessid|sid|auth|token|jwt|login|remember)([_.-]|$)|^(phpsessid|jsessionid|asp\.net_sessionid|connect\.sid|laravel_session)$/i

export interface CookieInfo {
  name: string
  secure: boolean
  http_only: boolean
  same_site: 'strict' | 'lax' | 'none' | 'invalid' | null
  domain: string | null
  path: string | null
  prefix: '__Secure-' | '__Host-' | null
  session_like: boolean
  issues: string[]
}

export function parseSetCookie(header: string): CookieInfo {
  const semi = header.indexOf(';')
  const pair = semi < 0 ? header : header.slice(0, semi)
  const eq = pair.indexOf('=')
  const name = (eq < 0 ? '' : pair.slice(0, eq)).trim()
  const attrs = parseParams(semi < 0 ? '' : header.slice(semi + 1))
  const attr = (n: string) => attrs.find((a) => a.name === n)
  const sameSiteRaw = attr('samesite')?.value?.toLowerCase()
  const sameSite = sameSiteRaw === undefined ? null : sameSiteRaw === 'strict' || sameSiteRaw === 'lax' || sameSiteRaw === 'none' ? sameSiteRaw : 'invalid'
  const prefix = name.startsWith('__Host-') ? '__Host-' : name.startsWith('__Secure-') ? '__Secure-' : null
  return {
    name,
    secure: attr('secure') !== undefined,
    http_only: attr('httponly') !== undefined,
    same_site: sameSite,
    domain: attr('domain')?.value ?? null,
    path: attr('path')?.value ?? null,
    prefix,
    session_like: SESSION_LIKE.test(name),
    issues: [],
  }
}

export function analyzeCookies(setCookies: readonly string[], https: boolean): Analysis<CookieInfo[]> {
  const cookies = setCookies.map(parseSetCookie)
  const penalties: Array<{ id: string; points: number; reason: string; finding: WebFinding }> = []
  const names = (list: CookieInfo[]) => list.map((c) => c.name || '(unnamed)').join(', ')
  for (const c of cookies) {
    if (https && !c.secure) c.issues.push('not Secure: also sent over plain http')
    if (!c.http_only && c.session_like) c.issues.push('not HttpOnly: readable by scripts (and by an XSS)')
    if (c.same_site === 'none' && !c.secure) c.issues.push('SameSite=None without Secure: browsers reject it')
    if (c.same_site === 'invalid') c.issues.push('SameSite has an unknown value (treated as Lax)')
    if (c.same_site === null) c.issues.push('no SameSite (browsers default to Lax)')
    if (c.prefix && !c.secure) c.issues.push(`${c.prefix} cookies must be Secure; browsers reject this one`)
    if (c.prefix === '__Host-' && (c.domain !== null || c.path !== '/')) c.issues.push('__Host- cookies need Path=/ and no Domain; browsers reject this one')
  }
  const insecure = https ? cookies.filter((c) => !c.secure) : []
  if (insecure.length) {
    penalties.push({
      id: 'cookies.secure',
      points: -10,
      reason: `Without Secure: ${names(insecure)}`,
      finding: { code: 'cookies.not_secure', severity: 'medium', message: `Cookies without Secure, sent over plain http too: ${names(insecure)}.`, fix: 'Set the Secure attribute on every cookie of an https site.' },
    })
  }
  const readable = cookies.filter((c) => c.session_like && !c.http_only)
  if (readable.length) {
    penalties.push({
      id: 'cookies.http_only',
      points: -10,
      reason: `Session-like cookies without HttpOnly: ${names(readable)}`,
      finding: { code: 'cookies.session_not_httponly', severity: 'medium', message: `Session-like cookies readable by scripts: ${names(readable)}.`, fix: 'Set HttpOnly on session and authentication cookies.' },
    })
  }
  const rejected = cookies.filter((c) => (c.same_site === 'none' && !c.secure) || (c.prefix && !c.secure) || (c.prefix === '__Host-' && (c.domain !== null || c.path !== '/')))
  if (rejected.length) {
    penalties.push({
      id: 'cookies.rejected',
      points: -5,
      reason: `Browsers reject: ${names(rejected)}`,
      finding: { code: 'cookies.rejected', severity: 'low', message: `Cookies browsers refuse to store (SameSite=None or a prefix without Secure, or a bad __Host- cookie): ${names(rejected)}.`, fix: 'Add Secure (and for __Host-: Path=/ without Domain).' },
    })
  }
  const checks: Check[] = []
  const findings: WebFinding[] = []
  if (cookies.length === 0) {
    checks.push({ id: 'cookies', header: 'set-cookie', result: 'info', points: 0, value: null, reason: 'No cookies set' })
  } else if (penalties.length === 0) {
    checks.push({ id: 'cookies', header: 'set-cookie', result: 'pass', points: 0, value: null, reason: `${cookies.length} cookies, all with the expected attributes` })
  }
  let left = COOKIE_CAP
  for (const p of penalties) {
    const points = Math.max(p.points, left)
    left -= points
    checks.push({ id: p.id, header: 'set-cookie', result: 'fail', points, value: null, reason: points !== p.points ? `${p.reason} (cookie total capped at ${COOKIE_CAP})` : p.reason })
    findings.push(p.finding)
  }
  const noSameSite = cookies.filter((c) => c.same_site === null)
  if (noSameSite.length) {
    findings.push({ code: 'cookies.no_samesite', severity: 'info', message: `Cookies without SameSite (browsers treat them as Lax): ${names(noSameSite)}.`, fix: 'Set SameSite=Lax or Strict explicitly.' })
  }
  return { checks, findings, detail: cookies }
}
