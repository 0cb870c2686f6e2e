import { z } from 'zod'
import { normalizeDomain } from '../../../runtime/params/domain.ts'
import { formatIp } from '../../../runtime/ip/format.ts'
import { parseIp } from '../../../runtime/ip/parse.ts'

// What a caller may name as a web target: "example.com", "example.com:8443",
// "[2001:db8::1]:8080", or a URL ("http://example.com/path"). A URL's scheme is
// kept (it decides http or https); a bare host gets none, and each endpoint
// decides what to try (plugins/web/web-start.ts). The host is checked like every other
// input: a domain name by syntax, an IP as a strict dotted quad or IPv6 — never a
// numeric form the WHATWG URL parser would quietly turn into another address
// ("2130706433" is 127.0.0.1 to a browser).

export type WebScheme = 'http' | 'https'

export interface WebTarget {
  /** http or https when the caller gave a URL; null for a bare host. */
  scheme: WebScheme | null
  /** ASCII host name or IP literal (IPv6 without brackets). */
  hostname: string
  /** The port the caller named; null for the scheme's default. */
  port: number | null
  /** Path and query, always starting with "/". */
  path: string
}

export type TargetCheck = { ok: true; target: WebTarget } | { ok: false; reason: string }

// One slash is accepted too: some clients and proxies collapse "//" in a path.
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\/?/i

function checkHost(raw: string): { ok: true; host: string } | { ok: false; reason: string } {
  const bracketed = /^\[(.*)\]$/.exec(raw)
  if (bracketed) {
    const ip = parseIp(bracketed[1]!, { zone: 'reject' })
    if (!ip.ok || ip.value.version !== 6) return { ok: false, reason: `"${raw}" is not an IPv6 address` }
    return { ok: true, host: formatIp(ip.value) }
  }
  if (/^[\d.]+$/.test(raw)) {
    const ip = parseIp(raw)
    if (!ip.ok) return { ok: false, reason: ip.error.reason }
    return { ok: true, host: formatIp(ip.value) }
  }
  const name = normalizeDomain(raw)
  if (!name.ok) return { ok: false, reason: name.reason }
  // The URL parser reads some names as IPv4 numbers (0x7f.1, 017700000001): refuse them.
  let parsed: string
  try {
    parsed = new URL(`http://${name.name}/`).hostname
  } catch {
    return { ok: false, reason: `"${raw}" is not a valid host name` }
  }
  if (parsed !== name.name) return { ok: false, reason: `"${raw}" reads as the numeric address ${parsed}; write IPv4 addresses as a dotted quad` }
  return { ok: true, host: name.name }
}

export function parseWebTarget(input: string): TargetCheck {
  let text = input.trim()
  if (text === '') return { ok: false, reason: 'is empty; give a host name like example.com, host:port, or a URL' }
  if (/[\s\u0000-\u001f]/.test(text)) return { ok: false, reason: 'contains whitespace or control characters' }
  let scheme: WebScheme | null = null
  const s = SCHEME.exec(text)
  if (s) {
    const name = s[1]!.toLowerCase()
    if (name !== 'http' && name !== 'https') return { ok: false, reason: `the scheme "${name}:" is not supported; use http:// or https://` }
    scheme = name
    text = text.slice(s[0].length)
  }
  const split = /^([^/?#]*)(.*)$/s.exec(text)!
  const authority = split[1]!
  let rest = split[2]!
  if (authority.includes('@')) return { ok: false, reason: 'credentials in the URL (user@host) are not sent; remove them' }
  const hostPort = /^(\[[^\]]*\]|[^:]*)(?::(\d{0,5}))?$/.exec(authority)
  if (!hostPort) return { ok: false, reason: `"${authority}" is not host or host:port` }
  let port: number | null = null
  if (hostPort[2] !== undefined && hostPort[2] !== '') {
    port = Number(hostPort[2])
    if (port < 1 || port > 65_535) return { ok: false, reason: `port ${hostPort[2]} is out of range (1-65535)` }
  }
  const host = checkHost(hostPort[1]!)
  if (!host.ok) return host
  rest = rest.replace(/#.*$/s, '')
  let path = rest === '' ? '/' : rest.startsWith('?') ? `/${rest}` : rest
  try {
    // Normalizes dot segments and percent-encodes what must be, as a browser would.
    const u = new URL(path, 'http://h')
    path = u.pathname + u.search
  } catch {
    return { ok: false, reason: `the path "${rest}" is not valid` }
  }
  return { ok: true, target: { scheme, hostname: host.host, port, path } }
}

export const WebTargetParam = z
  .string()
  .transform((value, ctx) => {
    const result = parseWebTarget(value)
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.reason })
      return z.NEVER
    }
    return result.target
  })
  .meta({
    description:
      'Host name, host:port, IP address or http(s) URL. A URL\'s scheme decides http or https; a bare host is tried over https first, then http (see the endpoint description).',
    example: 'example.com',
  })
