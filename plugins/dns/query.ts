import type { z } from 'zod'
import dnssecEndpoint from '../../registry/dns/dnssec.ts'
import type { DnsQueryData } from '../../registry/dns/schemas/dns-data.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DecodedType } from '../../runtime/net/dns/dns-decoded-types.ts'
import { cacheTtlOf, resolveRecords } from './resolve-records.ts'

// /api/dns/query: any decoded type. The records come from the resolver as for the
// per-type endpoints; with dnssec=true the verdict comes from /api/dns/dnssec for the
// same name and type, asked through ctx.invoke (the dnssec plugin depends on this
// one, so this one reaches it only that way) and sharing its cache entries.

type QueryData = z.input<typeof DnsQueryData>

export async function queryRecords(dns: DnsClient, domain: string, type: DecodedType, dnssec: boolean, ctx: ResolverContext): Promise<QueryData> {
  // Both questions at once: the validation asks its own (DO+CD) questions anyway.
  const validation = dnssec ? ctx.invoke(dnssecEndpoint, { domain, type }) : null
  validation?.catch(() => {})
  const { raw: _raw, ...answer } = await resolveRecords(dns, domain, type, ctx.signal)
  ctx.lowerTtl(cacheTtlOf(answer))
  if (!validation) return { ...answer, dnssec: null }
  const verdict = await validation
  // The invoked answer was cached for its own freshness (30 s when bogus or indeterminate).
  ctx.lowerTtl(verdict.ttl)
  const v = verdict.data
  return {
    ...answer,
    dnssec: {
      status: v.status,
      reason: v.reason,
      message: v.message,
      insecure_at: v.insecure_at,
      bogus_at: v.bogus_at,
      url: `/api/dns/dnssec/${domain}?type=${type}`,
    },
  }
}
