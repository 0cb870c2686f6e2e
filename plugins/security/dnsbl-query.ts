import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DnsAnswer } from '../../runtime/net/dns/dns-records.ts'
import { decodeAnswer, profileOf } from './dnsbl-lists.ts'

// One blocklist lookup: A for <query>.<zone> (NXDOMAIN = not listed), then, when
// listed, TXT for the list's reason. A list that fails (timeout, SERVFAIL,
// REFUSED, or an answer saying the list refuses us) is an error in its own row;
// it never counts as listed or as clean.

export type ListStatus = 'listed' | 'not_listed' | 'error' | 'unsupported'

export interface ListResult {
  zone: string
  name: string
  /** The name asked (the reversed IP or the domain, under the zone). */
  query: string
  queried: string
  status: ListStatus
  return_codes: string[]
  meanings: Array<{ code: string; meaning: string }>
  txt: string[]
  error: string | null
  latency_ms: number | null
  /** Seconds the answer may be cached (its TTL, or the negative TTL); null on error. */
  ttl: number | null
}

function negativeTtl(answer: DnsAnswer): number | null {
  const soa = answer.authorities.find((r) => r.type === 'SOA')
  return soa ? Math.min(soa.ttl, (soa.data as { minimum: number }).minimum) : null
}

export async function queryList(dns: DnsClient, zone: string, label: string, queried: string, signal?: AbortSignal): Promise<ListResult> {
  const query = `${label}.${zone}`
  const base = { zone, name: profileOf(zone).name, query, queried }
  const row = (r: Partial<ListResult> & Pick<ListResult, 'status'>): ListResult => ({
    ...base,
    return_codes: [],
    meanings: [],
    txt: [],
    error: null,
    latency_ms: null,
    ttl: null,
    ...r,
  })
  let answer: DnsAnswer
  try {
    answer = await dns.query(query, 'A', signal ? { signal } : {})
  } catch (error) {
    return row({ status: 'error', error: `DNS query failed: ${(error as Error).message}` })
  }
  const latency = Math.round(answer.latencyMs * 10) / 10
  if (answer.rcode === 'NXDOMAIN') return row({ status: 'not_listed', latency_ms: latency, ttl: negativeTtl(answer) })
  if (answer.rcode !== 'NOERROR') return row({ status: 'error', latency_ms: latency, error: `The resolver answered ${answer.rcode}` })
  const codes = [...new Set(answer.answers.filter((r) => r.type === 'A').map((r) => (r.data as { address: string }).address))].sort()
  if (codes.length === 0) return row({ status: 'not_listed', latency_ms: latency, ttl: negativeTtl(answer) })
  const decoded = codes.map((code) => ({ code, ...decodeAnswer(zone, code) }))
  const ttl = Math.min(...answer.answers.filter((r) => r.type === 'A').map((r) => r.ttl))
  const problem = decoded.find((d) => d.kind !== 'listed')
  if (problem) {
    return row({ status: 'error', return_codes: codes, meanings: decoded.map(({ code, meaning }) => ({ code, meaning })), latency_ms: latency, error: problem.meaning })
  }
  let txt: string[] = []
  try {
    const t = await dns.query(query, 'TXT', signal ? { signal } : {})
    txt = t.answers.filter((r) => r.type === 'TXT').map((r) => (r.data as { text: string }).text)
  } catch {
    // The reason text is a courtesy; the A answer already says it is listed.
  }
  return row({ status: 'listed', return_codes: codes, meanings: decoded.map(({ code, meaning }) => ({ code, meaning })), txt, latency_ms: latency, ttl })
}

/** A row for a list that does not carry this kind of entry (IPv6 on an IPv4-only list). */
export function unsupportedRow(zone: string, label: string, queried: string, why: string): ListResult {
  return {
    zone,
    name: profileOf(zone).name,
    query: `${label}.${zone}`,
    queried,
    status: 'unsupported',
    return_codes: [],
    meanings: [],
    txt: [],
    error: why,
    latency_ms: null,
    ttl: null,
  }
}
