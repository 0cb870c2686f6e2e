import pino from 'pino'
import { defineIsoNow } from '../../runtime/clock.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import type { RequestRecord } from '../../runtime/define-plugin.ts'
import { createBatchedWriter } from './batched-writer.ts'
import { createMetrics } from './metrics.ts'

// Operations: one JSON access-log line per request (request id, endpoint, tier,
// status, duration) and Prometheus metrics at /metrics.
//
// The access line is written straight to the logger's destination, in pino's own
// line format: pino's info() with a field object costs ~6 µs per request
// (measured), a template string ~0.5 µs. Only the upstream name and reason can
// hold arbitrary text, so only they go through JSON.stringify.

function accessLine(r: RequestRecord, isoNow: () => string): string {
  let line = `{"level":30,"time":"${isoNow()}","service":"infralens","log":"access","request_id":"${r.requestId}","endpoint":${r.endpoint === null ? 'null' : `"${r.endpoint}"`},"method":"${r.method}","status":${r.status},"duration_ms":${Math.round(r.durationMs * 100) / 100},"cache":${r.cache === null ? 'null' : `"${r.cache}"`},"tier":${r.tier === null ? 'null' : `"${r.tier}"`}`
  if (r.error) {
    line += `,"error":{"code":"${r.error.code}"`
    if (r.error.upstream !== undefined) line += `,"upstream":${JSON.stringify(r.error.upstream)}`
    if (r.error.reason !== undefined) line += `,"reason":${JSON.stringify(r.error.reason)}`
    line += '}'
  }
  return `${line},"msg":"request"}\n`
}

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
    api.rawRoute('/metrics', async () => ({ contentType: metrics.contentType, body: await metrics.render() }))
  },
})
