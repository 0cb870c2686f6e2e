import { Registry, collectDefaultMetrics } from 'prom-client'
import type { RequestRecord } from '../../runtime/define-plugin.ts'

// Prometheus metrics of one app instance. Process metrics come from prom-client;
// the per-request counters and the latency histogram are kept here in plain arrays
// and rendered in the text exposition format: prom-client hashes the label object
// on every observe (~2.8 µs per request with a histogram, measured), this is a Map
// lookup and a bucket scan (~0.3 µs).

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

interface Histogram {
  counts: Float64Array
  sum: number
  count: number
}

export interface Metrics {
  record(record: RequestRecord): void
  render(): Promise<string>
  contentType: string
}

const label = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

function counterLines(name: string, help: string, entries: Map<string, number>, labels: (key: string) => string): string {
  let out = `# HELP ${name} ${help}\n# TYPE ${name} counter\n`
  for (const [key, value] of entries) out += `${name}{${labels(key)}} ${value}\n`
  return out
}

/** Everything counted for one endpoint, found with one Map lookup per request. */
interface EndpointCounts {
  statuses: Map<number, number>
  duration: Histogram
  cache: { hit: number; miss: number }
}

export function createMetrics(): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'infralens_' })
  const endpoints = new Map<string, EndpointCounts>()
  const upstreamErrors = new Map<string, number>()
  const limited = new Map<string, number>()
  const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1)
  const split = (key: string) => key.split('\u0000').map(label)
  const countsOf = (endpoint: string): EndpointCounts => {
    let counts = endpoints.get(endpoint)
    if (counts === undefined) {
      counts = { statuses: new Map(), duration: { counts: new Float64Array(BUCKETS.length), sum: 0, count: 0 }, cache: { hit: 0, miss: 0 } }
      endpoints.set(endpoint, counts)
    }
    return counts
  }
  const entries = <T>(pick: (counts: EndpointCounts, endpoint: string) => Iterable<[string, T]>): Map<string, T> => {
    const out = new Map<string, T>()
    for (const [endpoint, counts] of endpoints) for (const [key, value] of pick(counts, endpoint)) out.set(key, value)
    return out
  }

  return {
    contentType: registry.contentType,
    record(r) {
      const endpoint = r.endpoint ?? 'none'
      const counts = countsOf(endpoint)
      bump(counts.statuses, r.status)
      const h = counts.duration
      const seconds = r.durationMs / 1000
      for (let i = 0; i < BUCKETS.length; i++) {
        if (seconds <= BUCKETS[i]!) {
          h.counts[i]!++
          break
        }
      }
      h.sum += seconds
      h.count++
      if (r.cache !== null && r.endpoint !== null) counts.cache[r.cache]++
      if (r.error?.code === 'upstream_error') bump(upstreamErrors, `${r.error.upstream ?? 'unknown'}\u0000${r.error.reason ?? 'unknown'}`)
      if (r.status === 429) bump(limited, r.tier ?? 'unknown')
    },
    async render() {
      let out = await registry.metrics()
      const requests = entries((counts, endpoint) => [...counts.statuses].map(([status, n]): [string, number] => [`${endpoint}\u0000${status}`, n]))
      const cache = entries((counts, endpoint) =>
        (['hit', 'miss'] as const).filter((result) => counts.cache[result] > 0).map((result): [string, number] => [`${endpoint}\u0000${result}`, counts.cache[result]]),
      )
      out += counterLines('infralens_http_requests_total', 'Requests by endpoint ("none" for unrouted paths) and status', requests, (k) => {
        const [e, s] = split(k)
        return `endpoint="${e}",status="${s}"`
      })
      out += '# HELP infralens_http_request_duration_seconds Time to build the response, by endpoint\n# TYPE infralens_http_request_duration_seconds histogram\n'
      for (const [endpoint, { duration: h }] of endpoints) {
        const e = label(endpoint)
        let cumulative = 0
        BUCKETS.forEach((le, i) => {
          cumulative += h.counts[i]!
          out += `infralens_http_request_duration_seconds_bucket{le="${le}",endpoint="${e}"} ${cumulative}\n`
        })
        out += `infralens_http_request_duration_seconds_bucket{le="+Inf",endpoint="${e}"} ${h.count}\n`
        out += `infralens_http_request_duration_seconds_sum{endpoint="${e}"} ${h.sum}\n`
        out += `infralens_http_request_duration_seconds_count{endpoint="${e}"} ${h.count}\n`
      }
      out += counterLines('infralens_cache_requests_total', 'Answers of cacheable endpoints by result (hit ratio = hit / (hit + miss))', cache, (k) => {
        const [e, r] = split(k)
        return `endpoint="${e}",result="${r}"`
      })
      out += counterLines('infralens_upstream_errors_total', 'Upstream failures answered 502, by upstream and reason', upstreamErrors, (k) => {
        const [u, r] = split(k)
        return `upstream="${u}",reason="${r}"`
      })
      out += counterLines('infralens_rate_limited_total', 'Requests refused with 429, by tier', limited, (k) => `tier="${label(k)}"`)
      return out
    },
  }
}
