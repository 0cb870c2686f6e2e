import type { z } from 'zod'
import type { DelegationDnssec } from '../../registry/domain/schemas/delegation-data.ts'
import whois from '../../registry/domain/whois.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DnskeyData, DsData } from '../../runtime/net/dns/dns-records.ts'
import { isApiError, UpstreamError } from '../../runtime/errors.ts'
import { resolveRecords } from '../dns/surface.ts'
import { dsMatchesKey, nameOf } from '../dnssec/surface.ts'

// The parent's DS RRset against the child's DNSKEY RRset (both through the
// resolver): each DS either names a key the zone publishes (key tag, algorithm and
// digest, RFC 4035 §5.2) or it is stale. With DS in DNS, the registry's view too:
// RDAP's secureDNS.dsData (RFC 9083 §5.3, through /api/domain/whois), compared
// record by record. Signatures are /api/dns/dnssec's business, not this check's.

export type DnssecView = z.input<typeof DelegationDnssec>

const key = (d: { key_tag: number | null; algorithm: number | null; digest_type: number | null; digest: string | null }) => `${d.key_tag} ${d.algorithm} ${d.digest_type} ${(d.digest ?? '').toLowerCase()}`

async function records<T>(dns: DnsClient, name: string, type: 'DS' | 'DNSKEY', signal: AbortSignal): Promise<{ data: T[]; error: string | null }> {
  try {
    const answer = await resolveRecords(dns, name, type, signal)
    return { data: answer.raw.filter((r) => r.type === type).map((r) => r.data as T), error: null }
  } catch (error) {
    if (!(error instanceof UpstreamError) || signal.aborted) throw error
    return { data: [], error: error.message }
  }
}

async function registryDs(ctx: ResolverContext, domain: string): Promise<DnssecView['rdap']> {
  try {
    const d = (await ctx.invoke(whois, { domain })).data
    if (d.source !== 'rdap') return { status: 'unavailable', delegation_signed: null, ds: [], error: `the registration came from ${d.source}, which has no secureDNS` }
    const ds = d.secure_dns.ds.map((r) => ({ ...r, digest: r.digest?.toLowerCase() ?? null }))
    return { status: 'ok', delegation_signed: d.secure_dns.delegation_signed, ds, error: null }
  } catch (error) {
    if (!isApiError(error) || ctx.signal.aborted) throw error
    return { status: 'unavailable', delegation_signed: null, ds: [], error: error.message }
  }
}

export async function dnssecView(ctx: ResolverContext, dns: DnsClient, domain: string): Promise<DnssecView> {
  const [ds, dnskey] = await Promise.all([records<DsData>(dns, domain, 'DS', ctx.signal), records<DnskeyData>(dns, domain, 'DNSKEY', ctx.signal)])
  const owner = nameOf(domain)
  const rows = ds.data.map((d) => ({ key_tag: d.keyTag, algorithm: d.algorithm, digest_type: d.digestType, digest: d.digest.toLowerCase(), matches_key: dnskey.error ? null : dnskey.data.some((k) => dsMatchesKey(owner, d, k)) }))
  // The registry is asked only about a delegation with DS: most zones are unsigned, and many TLDs have no RDAP.
  const rdap = rows.length > 0 ? await registryDs(ctx, domain) : null
  return { ds: rows, dnskey_tags: [...new Set(dnskey.data.map((k) => k.keyTag))].sort((a, b) => a - b), rdap, error: ds.error ?? dnskey.error }
}

/** DS in DNS and in the registry's RDAP, as sets of "tag alg type digest". */
export function dsSetsDiffer(view: DnssecView): { onlyDns: string[]; onlyRdap: string[] } | null {
  if (!view.rdap || view.rdap.status !== 'ok') return null
  // A registry that lists keys (keyData) and no DS cannot be compared DS by DS.
  if (view.rdap.ds.length === 0 && view.rdap.delegation_signed !== false) return null
  const dns = new Set(view.ds.map(key))
  const rdap = new Set(view.rdap.ds.map(key))
  const onlyDns = [...dns].filter((k) => !rdap.has(k))
  const onlyRdap = [...rdap].filter((k) => !dns.has(k))
  return onlyDns.length || onlyRdap.length ? { onlyDns, onlyRdap } : null
}
