import { z } from 'zod'
import { normalizeDomain } from '../../../runtime/params/domain.ts'
import { formatIp } from '../../../runtime/ip/format.ts'
import { parseIp } from '../../../runtime/ip/parse.ts'

// A TLS target as people write it: "example.com", "example.com:8443",
// "https://example.com/path", "192.0.2.1:443", "[2001:db8::1]:443", "2001:db8::1".
// A bare IPv6 address cannot carry a port (its colons are ambiguous): brackets
// are needed for that, as in URLs.

export interface TlsTarget {
  /** Lowercase punycode name, or the canonical text of an IP address (no brackets). */
  host: string
  port: number
  kind: 'name' | 'ipv4' | 'ipv6'
  /** "name:port", "192.0.2.1:443", "[2001:db8::1]:443": the target as answers show it. */
  label: string
  /** The port was written out (host:port); otherwise it is the scheme's or 443, and STARTTLS picks its protocol's. */
  port_given?: boolean
}

export type TargetCheck = { ok: true; target: TlsTarget } | { ok: false; reason: string }

const DEFAULT_PORTS: Record<string, number> = { 'https:': 443, 'wss:': 443, 'ldaps:': 636, 'imaps:': 993, 'pop3s:': 995, 'smtps:': 465, 'ftps:': 990 }

function portOf(text: string, input: string): number | string {
  if (!/^\d{1,5}$/.test(text)) return `"${input}" has an invalid port "${text}"; use host:port with a port from 1 to 65535`
  const port = Number(text)
  return port >= 1 && port <= 65_535 ? port : `"${input}" has port ${port}; ports run from 1 to 65535`
}

export function parseTlsTarget(input: string): TargetCheck {
  let text = input.trim()
  if (text === '') return { ok: false, reason: 'is empty; give a host name like example.com, optionally with :port' }
  let port = 443
  let given = false
  const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(text)
  if (scheme) {
    port = DEFAULT_PORTS[scheme[1]!.toLowerCase()] ?? 443
    text = text.slice(scheme[0].length)
  }
  text = text.replace(/[/?#].*$/s, '').replace(/^[^@]*@/, '')

  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(text)
  if (bracketed) {
    const ip = parseIp(`[${bracketed[1]}]`)
    if (!ip.ok || ip.value.version !== 6) return { ok: false, reason: `"${input}": only IPv6 addresses go in brackets, and "${bracketed[1]}" is not one` }
    if (bracketed[2] !== undefined) {
      const p = portOf(bracketed[2], input)
      if (typeof p === 'string') return { ok: false, reason: p }
      port = p
      given = true
    }
    const host = formatIp(ip.value)
    return { ok: true, target: { host, port, kind: 'ipv6', label: `[${host}]:${port}`, port_given: given } }
  }
  // Two or more colons without brackets: an IPv6 address, never address:port.
  if ((text.match(/:/g) ?? []).length >= 2) {
    const ip = parseIp(text)
    if (!ip.ok) return { ok: false, reason: `"${input}" is not a valid IPv6 address (${ip.error.reason}); write [address]:port to give a port` }
    const host = formatIp(ip.value)
    return { ok: true, target: { host, port, kind: 'ipv6', label: `[${host}]:${port}`, port_given: false } }
  }
  const colon = text.lastIndexOf(':')
  if (colon >= 0) {
    const p = portOf(text.slice(colon + 1), input)
    if (typeof p === 'string') return { ok: false, reason: p }
    port = p
    given = true
    text = text.slice(0, colon)
  }
  if (/^[\d.]+$/.test(text)) {
    const ip = parseIp(text)
    if (!ip.ok) return { ok: false, reason: `"${input}": ${ip.error.reason}` }
    const host = formatIp(ip.value)
    return { ok: true, target: { host, port, kind: 'ipv4', label: `${host}:${port}`, port_given: given } }
  }
  const name = normalizeDomain(text)
  if (!name.ok) return { ok: false, reason: name.reason }
  return { ok: true, target: { host: name.name, port, kind: 'name', label: `${name.name}:${port}`, port_given: given } }
}

/** The `host` parameter of the TLS endpoints. */
export const TlsHostParam = z
  .string()
  .transform((value, ctx): TlsTarget => {
    const result = parseTlsTarget(value)
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.reason })
      return z.NEVER
    }
    return result.target
  })
  .meta({
    description: 'Host name or IP address, optionally with a port (default 443): example.com, example.com:8443, 192.0.2.1:443, [2001:db8::1]:443',
    example: 'example.com',
  })
