import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { RecordsAnswer } from './resolve-records.ts'
import { cacheTtlOf, resolveRecords } from './resolve-records.ts'

export const LOOKUP_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'SOA', 'CAA'] as const

/** Every common type at once; a type whose query fails is reported, not fatal — unless all fail. */
export async function lookupAll(dns: DnsClient, domain: string, signal: AbortSignal, lowerTtl: (s: number) => void) {
  const settled = await Promise.allSettled(LOOKUP_TYPES.map((type) => resolveRecords(dns, domain, type, signal)))
  const answered = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  if (answered.length === 0) throw (settled[0] as PromiseRejectedResult).reason
  const types: Record<string, { rcode: string | null; status: RecordsAnswer['status']; count: number; latency_ms: number | null; error?: string }> = {}
  settled.forEach((s, i) => {
    const type = LOOKUP_TYPES[i]!
    if (s.status === 'fulfilled') {
      types[type] = { rcode: s.value.rcode, status: s.value.status, count: s.value.records.length, latency_ms: s.value.latency_ms }
      lowerTtl(cacheTtlOf(s.value))
    } else {
      types[type] = { rcode: null, status: 'error', count: 0, latency_ms: null, error: (s.reason as Error).message }
      lowerTtl(30)
    }
  })
  const first = answered.find((a) => a.type === 'A') ?? answered[0]!
  return {
    domain,
    exists: !answered.some((a) => a.status === 'nxdomain'),
    rcode: first.rcode,
    authenticated: answered.every((a) => a.authenticated),
    canonical_name: first.canonical_name,
    records: answered.flatMap((a) => a.records),
    types,
    resolver: first.resolver,
  }
}
