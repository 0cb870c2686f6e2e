import type { DnsClient, DnsQueryType } from '../../runtime/net/dns/dns-client.ts'
import { UpstreamError } from '../../runtime/errors.ts'
import { recordValue } from './present-record.ts'

export interface PropagationResolver {
  name: string
  address: string
  client: DnsClient
}

/**
 * Every resolver asked at once; the wall time is the slowest answer (or the
 * timeout for a dead one). Answers are compared on their values, not TTLs, which
 * differ by cache age.
 */
export async function checkPropagation(resolvers: readonly PropagationResolver[], domain: string, type: string, signal: AbortSignal) {
  const results = await Promise.all(
    resolvers.map(async (r) => {
      const started = performance.now()
      try {
        const answer = await r.client.query(domain, type as DnsQueryType, { signal })
        const records = answer.answers.filter((rec) => rec.type === type)
        return {
          resolver: r.name,
          address: r.address,
          rcode: answer.rcode,
          answers: [...new Set(records.map(recordValue))].sort(),
          ttl: records.length ? Math.min(...records.map((rec) => rec.ttl)) : null,
          authenticated: answer.flags.ad,
          latency_ms: Math.round(answer.latencyMs * 10) / 10,
          error: null,
        }
      } catch (error) {
        return {
          resolver: r.name,
          address: r.address,
          rcode: null,
          answers: [],
          ttl: null,
          authenticated: null,
          latency_ms: Math.round((performance.now() - started) * 10) / 10,
          error: (error as Error).message,
        }
      }
    }),
  )
  const answered = results.filter((r) => r.error === null)
  if (answered.length === 0) {
    throw new UpstreamError('dns', 'timeout', `None of the ${resolvers.length} propagation resolvers answered for ${domain} ${type}.`, {
      name: domain,
      errors: results.map((r) => ({ resolver: r.resolver, error: r.error })),
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
