import { Bench } from 'tinybench'
import { parseControls } from '../runtime/controls.ts'
import { successEnvelope } from '../runtime/envelope.ts'
import type { FormatContext } from '../runtime/define-format.ts'
import { compileListPaths, shape } from '../runtime/shape.ts'
import { csvFormat } from '../plugins/format/csv-format.ts'
import { jsonFormat } from '../plugins/format/json-format.ts'
import { xmlFormat } from '../plugins/format/xml-format.ts'
import { yamlFormat } from '../plugins/format/yaml-format.ts'

// npx tsx bench/formats.bench.ts [--smoke]
// Envelope, shaping and every format on two payloads: the /api/uuid answer (the
// common tiny case) and a 200-record DNS-like list (a typical list endpoint).

const small = { uuid: crypto.randomUUID(), version: 4 }
const records = Array.from({ length: 200 }, (_, i) => ({
  name: `host${i}.example.com`,
  type: i % 3 ? 'A' : 'AAAA',
  ttl: 300 + (i % 17),
  data: { address: `192.0.2.${i % 256}` },
  tags: ['a', 'b'],
}))
const list = { rcode: 'NOERROR', records }
const meta = { cache: 'miss' as const, category: 'dns', endpoint: 'dns.a', tier: 'anonymous' }
const formats = new Set(['json', 'yaml', 'xml', 'csv'])
const shaping = parseControls(new URLSearchParams('fields=records.name,records.ttl&sort=ttl&order=desc&limit=50&offset=10'), formats, new Set())
const lists = compileListPaths(['records'])
const ctx = (): FormatContext => ({ pretty: false, endpoint: undefined, headers: {} })
const envSmall = successEnvelope(small, meta, '/api/uuid', '01JD0000000000000000000000', new Date().toISOString())
const envList = successEnvelope(list, meta, '/api/dns/a/example.com', '01JD0000000000000000000000', new Date().toISOString())

const smoke = process.argv.includes('--smoke')
const bench = new Bench({ time: smoke ? 50 : 500, warmup: true })
bench
  .add('envelope + json (uuid)', () => {
    jsonFormat.success(successEnvelope(small, meta, '/api/uuid', '01JD0000000000000000000000', '2026-01-01T00:00:00.000Z'), ctx())
  })
  .add('parse controls (5 controls)', () => {
    parseControls(new URLSearchParams('fields=records.name,records.ttl&sort=ttl&order=desc&limit=50&offset=10'), formats, new Set())
  })
  .add('shape 200 records (fields+sort+limit)', () => {
    shape(list, lists, shaping)
  })
  .add('json 200 records', () => void jsonFormat.success(envList, ctx()))
  .add('yaml 200 records', () => void yamlFormat.success(envList, ctx()))
  .add('xml 200 records', () => void xmlFormat.success(envList, ctx()))
  .add('csv 200 records (rows)', () => void csvFormat.success(envList, { ...ctx(), endpoint: { csvRows: 'records' } as never }))
  .add('yaml (uuid)', () => void yamlFormat.success(envSmall, ctx()))
  .add('xml (uuid)', () => void xmlFormat.success(envSmall, ctx()))
  .add('csv (uuid)', () => void csvFormat.success(envSmall, ctx()))

await bench.run()
const rows = bench.tasks.map((t) => {
  const r = t.result
  if (r.state !== 'completed') return { task: t.name, state: r.state }
  return {
    task: t.name,
    'ops/s': Math.round(r.throughput.mean),
    'mean µs': Number((r.latency.mean * 1000).toFixed(2)),
    'p99 µs': Number(((r.latency.p99 ?? 0) * 1000).toFixed(2)),
  }
})
console.table(rows)
