import type { DnsClient, DnsQueryType } from '../../runtime/net/dns/dns-client.ts'
import { dnsUpstreamError } from '../../runtime/net/dns-host-lookup.ts'
import type { UpstreamReason } from '../../runtime/errors.ts'
import { UpstreamError } from '../../runtime/errors.ts'
import { recordValue } from './present-record.ts'
import { isResolverRefusal } from './resolver-refusal.ts'

export interface PropagationResolver {
  name: string
  address: string
  client: DnsClient
}

interface ResolverResult {
  resolver: string
  address: string
  rcode: string | null
  answers: string[]
  ttl: number | null
  authenticated: boolean | null
  latency_ms: number | null
  error: string | null
}

type Outcome = { result: ResolverResult; failure: UpstreamReason | null }

const round1 = (ms: number) => Math.round(ms * 10) / 10

async function askOne(r: PropagationResolver, domain: string, type: string, signal: AbortSignal): Promise<Outcome> {
  const started = performance.now()
  const base = { resolver: r.name, address: r.address }
  try {
    // AD so that validating resolvers report their verdict (RFC 6840 §5.7); not DO,
    // which would add RRSIGs to every answer for nothing compared here.
    const answer = await r.client.query(domain, type as DnsQueryType, { signal, authenticData: true })
    const latency_ms = round1(answer.latencyMs)
    if (isResolverRefusal(answer.rcode)) {
      const error = `${r.name} answered ${answer.rcode}: it declines to resolve for this service`
      return { result: { ...base, rcode: answer.rcode, answers: [], ttl: null, authenticated: null, latency_ms, error }, failure: 'refused' }
    }
    const records = answer.answers.filter((rec) => rec.type === type)
    return {
      result: {
        ...base,
        rcode: answer.rcode,
        answers: [...new Set(records.map(recordValue))].sort(),
        ttl: records.length ? Math.min(...records.map((rec) => rec.ttl)) : null,
        authenticated: answer.flags.ad,
        latency_ms,
        error: null,
      },
      failure: null,
    }
  } catch (error) {
    const upstream = dnsUpstreamError(error, domain)
    return {
      result: { ...base, rcode: null, answers: [], ttl: null, authenticated: null, latency_ms: round1(performance.now() - started), error: (error as Error).message },
      failure: upstream.details.reason as UpstreamReason,
    }
  }
}

/** The reason shared by the most failures; on a tie, the one of the first resolver in configured order. */
function commonReason(failures: readonly UpstreamReason[]): UpstreamReason {
  const counts = new Map<UpstreamReason, number>()
  for (const f of failures) counts.set(f, (counts.get(f) ?? 0) + 1)
  let best = failures[0]!
  for (const [reason, count] of counts) if (count > counts.get(best)!) best = reason
  return best
}

/**
 * Every resolver asked at once; the wall time is the slowest answer (or the
 * timeout for a dead one). Answers are compared on their values, not TTLs, which
 * differ by cache age. A resolver that times out or refuses us is reported in its
 * row; only when none of them answers is it a 502, with the reason they failed for.
 */
export async function checkPropagation(resolvers: readonly PropagationResolver[], domain: string, type: string, signal: AbortSignal) {
  const outcomes = await Promise.all(resolvers.map((r) => askOne(r, domain, type, signal)))
  const results = outcomes.map((o) => o.result)
  const answered = outcomes.filter((o) => o.failure === null).map((o) => o.result)
  if (answered.length === 0) {
    const failures = outcomes.map((o) => o.failure!)
    throw new UpstreamError('dns', commonReason(failures), `None of the ${resolvers.length} propagation resolvers answered for ${domain} ${type}.`, {
      name: domain,
      errors: outcomes.map((o) => ({ resolver: o.result.resolver, reason: o.failure, rcode: o.result.rcode, error: o.result.error })),
    })
  }
  const groups = new Map<string, { rcode: string; answers: string[]; resolvers: string[]; count: number }>()
  for (const r of answered) {
    const key = `${r.rcode}\u0000${r.answers.join('\u0000')}`
    const group = groups.get(key) ?? { rcode: r.rcode!, answers: r.answers, resolvers: [], count: 0 }
    group.resolvers.push(r.resolver)
    group.count++
    groups.set(key, group)
  }
  return {
    domain,
    type,
    consistent: groups.size === 1,
    resolvers_total: resolvers.length,
    resolvers_answered: answered.length,
    results,
    groups: [...groups.values()].sort((a, b) => b.count - a.count),
  }
}
