import pino from 'pino'
import { defineIsoNow } from '../../runtime/clock.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { accessLine } from './access-line.ts'
import { createBatchedWriter } from './batched-writer.ts'
import { createMetrics, renderCluster } from './metrics.ts'

// Operations: one JSON access line per request (plugins/observability/access-line.ts:
// request id, endpoint, method, path, client, status, duration, cache, tier) and
// Prometheus metrics at /metrics: in a cluster, those of every worker summed
// (whichever worker the scrape reaches asks the others through the primary).

export default definePlugin({
  name: 'observability',
  setup(api) {
    const metrics = createMetrics()
    const isoNow = defineIsoNow(api.clock)
    const logRequests = api.log.isLevelEnabled('info')
    const stream = (api.log as unknown as Record<symbol, { write(line: string): unknown } | undefined>)[pino.symbols.streamSym]
    const writer = stream && logRequests ? createBatchedWriter(stream) : undefined
    api.onClose(() => writer?.flush())
    api.observe((r) => {
      metrics.record(r)
      writer?.write(accessLine(r, isoNow))
    })
    const cluster = api.cluster
    cluster?.answer('metrics', () => metrics.json())
    api.rawRoute('/metrics', async () => {
      if (!cluster) return { contentType: metrics.contentType, body: await metrics.render() }
      const [gathered, status] = await Promise.all([cluster.gather<object[]>('metrics'), cluster.status()])
      return { contentType: metrics.contentType, body: await renderCluster(gathered, status) }
    })
  },
})
