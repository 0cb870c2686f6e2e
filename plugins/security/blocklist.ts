import { getDomain } from 'tldts'
import { UpstreamError } from '../../runtime/errors.ts'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { reversePointer } from '../../runtime/ip/reverse-pointer.ts'
import type { ListResult } from './dnsbl-query.ts'
import { queryList, unsupportedRow } from './dnsbl-query.ts'
import { profileOf } from './dnsbl-lists.ts'

// /api/security/blocklist and /api/security/domain-blocklist: every configured
// zone asked at once. An IP is asked as its reversed octets (IPv6: nibbles,
// RFC 5782 §2.4) under each zone, a domain as itself — and, for a subdomain, as
// its registrable domain too, which is what URI lists mostly carry. A list
// that fails is reported in its row; when every list fails the answer is a 502.

export interface BlocklistSummary {
  listed: boolean
  listed_count: number
  clean_count: number
  error_count: number
  lists: ListResult[]
  /** The shortest TTL of the answers (the cache lifetime); null when nothing answered. */
  ttl: number | null
}

function summarize(rows: ListResult[], what: string): BlocklistSummary {
  const asked = rows.filter((r) => r.status !== 'unsupported')
  const errors = asked.filter((r) => r.status === 'error')
  if (asked.length > 0 && errors.length === asked.length) {
    throw new UpstreamError('dnsbl', 'unavailable', `Every blocklist query for ${what} failed; first: ${errors[0]!.zone}: ${errors[0]!.error}`, {
      lists: errors.map((r) => ({ zone: r.zone, error: r.error })),
    })
  }
  const ttls = rows.map((r) => r.ttl).filter((t): t is number => t !== null)
  return {
    listed: rows.some((r) => r.status === 'listed'),
    listed_count: rows.filter((r) => r.status === 'listed').length,
    clean_count: rows.filter((r) => r.status === 'not_listed').length,
    error_count: errors.length,
    lists: rows,
    ttl: ttls.length ? Math.min(...ttls) : null,
  }
}

/** 192.0.2.1 -> 1.2.0.192; 2001:db8::1 -> 1.0.0.0…8.b.d.0.1.0.0.2 */
export function reversedLabel(ip: string): string {
  const parsed = parseIp(ip)
  if (!parsed.ok) throw new TypeError(`not an IP address: ${ip}`)
  return reversePointer(parsed.value).replace(/\.(in-addr|ip6)\.arpa$/, '')
}

export async function checkIpBlocklists(dns: DnsClient, ip: string, zones: readonly string[], signal?: AbortSignal): Promise<BlocklistSummary & { ip: string; version: 4 | 6; reversed: string }> {
  const version = ip.includes(':') ? 6 : 4
  const label = reversedLabel(ip)
  const rows = await Promise.all(
    zones.map((zone) =>
      version === 6 && !profileOf(zone).ipv6 ? Promise.resolve(unsupportedRow(zone, label, ip, 'This list carries IPv4 addresses only')) : queryList(dns, zone, label, ip, signal),
    ),
  )
  return { ip, version, reversed: label, ...summarize(rows, ip) }
}

export async function checkDomainBlocklists(
  dns: DnsClient,
  domain: string,
  zones: readonly string[],
  signal?: AbortSignal,
): Promise<BlocklistSummary & { domain: string; registrable_domain: string | null; names_checked: string[] }> {
  const registrable = getDomain(domain, { allowPrivateDomains: false })
  const names = registrable && registrable !== domain ? [domain, registrable] : [domain]
  const rows = await Promise.all(zones.flatMap((zone) => names.map((name) => queryList(dns, zone, name, name, signal))))
  return { domain, registrable_domain: registrable, names_checked: names, ...summarize(rows, domain) }
}
