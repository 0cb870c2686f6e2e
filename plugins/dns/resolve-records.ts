import type { DnsClient, DnsQueryType } from '../../runtime/net/dns/dns-client.ts'
import type { DnsAnswer, DnsRecord } from '../../runtime/net/dns/dns-records.ts'
import { dnsUpstreamError } from '../../runtime/net/dns-host-lookup.ts'
import { UpstreamError } from '../../runtime/errors.ts'
import type { PresentedRecord } from './present-record.ts'
import { presentRecord } from './present-record.ts'
import { isResolverRefusal } from './resolver-refusal.ts'

export type AnswerStatus = 'answer' | 'nodata' | 'nxdomain' | 'servfail' | 'error'

export interface RecordsAnswer {
  domain: string
  type: string
  rcode: string
  status: AnswerStatus
  records: PresentedRecord[]
  chain: PresentedRecord[]
  canonical_name: string
  authenticated: boolean
  ttl: number | null
  resolver: { name: string; address: string; port: number; transport: 'udp' | 'tcp' }
  latency_ms: number
  /** The raw records of the asked type, for callers that go on (forward confirmation). */
  raw: DnsRecord[]
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** Walks CNAME/DNAME records from the asked name to the canonical one, in order. */
function followChain(domain: string, answers: readonly DnsRecord[]): { chain: DnsRecord[]; canonical: string } {
  const chain: DnsRecord[] = []
  let current = domain
  for (let hops = 0; hops < 16; hops++) {
    const alias = answers.find((r) => r.type === 'CNAME' && sameName(r.name, current) && !chain.includes(r))
    if (!alias) break
    chain.push(alias)
    current = (alias.data as { target: string }).target
  }
  const dnames = answers.filter((r) => r.type === 'DNAME')
  return { chain: [...dnames, ...chain], canonical: current }
}

function statusOf(answer: DnsAnswer, count: number): AnswerStatus {
  if (answer.rcode === 'NXDOMAIN') return 'nxdomain'
  if (answer.rcode === 'SERVFAIL') return 'servfail'
  if (answer.rcode !== 'NOERROR') return 'error'
  return count > 0 ? 'answer' : 'nodata'
}

/** RFC 2308: a negative answer lives min(SOA TTL, SOA minimum). */
function negativeTtl(answer: DnsAnswer): number | null {
  const soa = answer.authorities.find((r) => r.type === 'SOA')
  if (!soa) return null
  return Math.min(soa.ttl, (soa.data as { minimum: number }).minimum)
}

/**
 * The client hands a REFUSED (NOTIMP, FORMERR) reply back as an answer, without
 * asking the next resolver: a resolver that will not serve one name (an ACL, a rate
 * limit, a forwarder for some zones only) then failed every request touching that
 * name while the others would have answered. The other configured resolvers are
 * asked in turn, once each; only when every one refuses is it the upstream failing.
 */
async function askOthers(dns: DnsClient, first: DnsAnswer, domain: string, type: string, signal: AbortSignal): Promise<{ answer: DnsAnswer; refusals: DnsAnswer[] }> {
  const refusals = [first]
  for (const server of dns.servers) {
    if (server.host === first.server.host && server.port === first.server.port) continue
    let answer: DnsAnswer
    try {
      answer = await dns.query(domain, type as DnsQueryType, { signal, authenticData: true, server: { host: server.host, port: server.port, name: server.name } })
    } catch (error) {
      if (signal.aborted) throw dnsUpstreamError(error, domain)
      continue
    }
    if (!isResolverRefusal(answer.rcode)) return { answer, refusals }
    refusals.push(answer)
  }
  return { answer: first, refusals }
}

export async function resolveRecords(dns: DnsClient, domain: string, type: string, signal: AbortSignal): Promise<RecordsAnswer> {
  let answer: DnsAnswer
  try {
    // AD in the query, or a validating resolver never reports `authenticated` (RFC 6840 §5.7).
    answer = await dns.query(domain, type as DnsQueryType, { signal, authenticData: true })
  } catch (error) {
    throw dnsUpstreamError(error, domain)
  }
  if (isResolverRefusal(answer.rcode)) {
    const tried = await askOthers(dns, answer, domain, type, signal)
    answer = tried.answer
    if (isResolverRefusal(answer.rcode)) {
      // No resolver would answer: that is the service's upstream failing, not a fact about the domain.
      const message =
        tried.refusals.length > 1
          ? `Every resolver refused ${domain} ${type}: ${tried.refusals.map((r) => `${r.server.name} answered ${r.rcode}`).join(', ')}.`
          : `The resolver ${answer.server.name} answered ${answer.rcode} for ${domain} ${type}.`
      throw new UpstreamError('dns', 'refused', message, {
        name: domain,
        server: answer.server.name,
        rcode: answer.rcode,
      })
    }
  }
  const { chain, canonical } = type === 'CNAME' ? { chain: [], canonical: domain } : followChain(domain, answer.answers)
  const raw = answer.answers.filter((r) => r.type === type)
  const status = statusOf(answer, raw.length)
  const ttls = [...raw, ...chain].map((r) => r.ttl)
  const ttl = ttls.length > 0 ? Math.min(...ttls) : status === 'nxdomain' || status === 'nodata' ? negativeTtl(answer) : null
  return {
    domain,
    type,
    rcode: answer.rcode,
    status,
    records: raw.map(presentRecord),
    chain: chain.map(presentRecord),
    canonical_name: canonical,
    authenticated: answer.flags.ad,
    ttl,
    resolver: { name: answer.server.name, address: answer.server.host, port: answer.server.port, transport: answer.transport },
    latency_ms: Math.round(answer.latencyMs * 10) / 10,
    raw,
  }
}

/** The cache TTL for an answer: its own TTL, a short one for SERVFAIL (RFC 2308 §7.1 allows up to 5 min). */
export function cacheTtlOf(answer: Pick<RecordsAnswer, 'ttl' | 'status'>): number {
  if (answer.status === 'servfail' || answer.status === 'error') return 30
  return answer.ttl ?? 60
}
