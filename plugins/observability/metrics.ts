import { AggregatorRegistry, Registry, collectDefaultMetrics } from 'prom-client'
import type { Gathered, ServiceStatus } from '../../runtime/cluster/worker-link.ts'
import type { RequestRecord } from '../../runtime/define-plugin.ts'

// Prometheus metrics of one app instance. Process metrics come from prom-client;
// the per-request counters and the latency histogram are kept here in plain arrays
// and handed to prom-client only when scraped, as the JSON its registries produce:
// prom-client hashes the label object on every observe (~2.8 µs per request with a
// histogram, measured), this is a Map lookup and a bucket scan (~0.3 µs). The same
// JSON from every worker of a cluster is summed by prom-client's
// AggregatorRegistry (renderCluster).

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

interface Histogram {
  counts: Float64Array
  sum: number
  count: number
}

/** One metric family as prom-client's registries give it (getMetricsAsJSON), the form AggregatorRegistry sums. */
export interface MetricFamily {
  name: string
  help: string
  type: 'counter' | 'gauge' | 'histogram'
  aggregator: 'sum' | 'max'
  values: Array<{ value: number; labels: Record<string, string | number>; metricName?: string }>
}

export interface Metrics {
  record(record: RequestRecord): void
  /** This process's metrics in the text exposition format. */
  render(): Promise<string>
  /** The same as prom-client JSON, for a cluster's aggregation. */
  json(): Promise<object[]>
  contentType: string
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
  const countsOf = (endpoint: string): EndpointCounts => {
    let counts = endpoints.get(endpoint)
    if (counts === undefined) {
      counts = { statuses: new Map(), duration: { counts: new Float64Array(BUCKETS.length), sum: 0, count: 0 }, cache: { hit: 0, miss: 0 } }
      endpoints.set(endpoint, counts)
    }
    return counts
  }

  const counter = (name: string, help: string, values: MetricFamily['values']): MetricFamily => ({ name, help, type: 'counter', aggregator: 'sum', values })
  const families = (): MetricFamily[] => {
    const requests: MetricFamily['values'] = []
    const duration: MetricFamily['values'] = []
    const cache: MetricFamily['values'] = []
    for (const [endpoint, counts] of endpoints) {
      for (const [status, n] of counts.statuses) requests.push({ value: n, labels: { endpoint, status } })
      const h = counts.duration
      let cumulative = 0
      BUCKETS.forEach((le, i) => {
        cumulative += h.counts[i]!
        duration.push({ value: cumulative, labels: { le, endpoint }, metricName: 'infralens_http_request_duration_seconds_bucket' })
      })
      duration.push({ value: h.count, labels: { le: '+Inf', endpoint }, metricName: 'infralens_http_request_duration_seconds_bucket' })
      duration.push({ value: h.sum, labels: { endpoint }, metricName: 'infralens_http_request_duration_seconds_sum' })
      duration.push({ value: h.count, labels: { endpoint }, metricName: 'infralens_http_request_duration_seconds_count' })
      for (const result of ['hit', 'miss'] as const) if (counts.cache[result] > 0) cache.push({ value: counts.cache[result], labels: { endpoint, result } })
    }
    const pairs = (entries: Map<string, number>, names: readonly [string, string]): MetricFamily['values'] =>
      [...entries].map(([key, value]) => {
        const [a, b] = key.split('\u0000')
        return { value, labels: { [names[0]]: a!, [names[1]]: b! } }
      })
    return [
      counter('infralens_http_requests_total', 'Requests by endpoint ("none" for unrouted paths) and status', requests),
      { name: 'infralens_http_request_duration_seconds', help: 'Time to build the response, by endpoint', type: 'histogram', aggregator: 'sum', values: duration },
      counter('infralens_cache_requests_total', 'Answers of cacheable endpoints by result (hit ratio = hit / (hit + miss))', cache),
      counter('infralens_upstream_errors_total', 'Upstream failures answered 502, by upstream and reason', pairs(upstreamErrors, ['upstream', 'reason'])),
      counter('infralens_rate_limited_total', 'Requests refused with 429, by tier', [...limited].map(([tier, value]) => ({ value, labels: { tier } }))),
    ]
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
      // prom-client renders ours too (one family at a time, labels escaped).
      return `${await registry.metrics()}\n${await AggregatorRegistry.aggregate([families()]).metrics()}`
    },
    async json() {
      return [...(await registry.getMetricsAsJSON()), ...families()]
    },
  }
}

/**
 * A cluster's metrics: every worker's, summed by prom-client's AggregatorRegistry
 * (counters and histograms add up; process gauges add up, event-loop lag is
 * averaged, as prom-client declares for each), and the cluster's own: workers
 * expected and answering, replaced after dying.
 */
export async function renderCluster(gathered: Gathered<object[]>, status: ServiceStatus): Promise<string> {
  const cluster: MetricFamily[] = [
    {
      name: 'infralens_cluster_workers',
      help: 'Worker processes: expected (INFRALENS_WORKERS), listening, and answering this scrape (their metrics are the sums here)',
      type: 'gauge',
      aggregator: 'max',
      values: [
        { value: gathered.expected, labels: { state: 'expected' } },
        { value: status.workers.listening, labels: { state: 'listening' } },
        { value: gathered.answers.length, labels: { state: 'answering' } },
      ],
    },
    { name: 'infralens_cluster_worker_restarts_total', help: 'Workers replaced after dying', type: 'counter', aggregator: 'max', values: [{ value: status.restarts, labels: {} }] },
  ]
  return AggregatorRegistry.aggregate([...gathered.answers.map((a) => a.value), cluster]).metrics()
}
