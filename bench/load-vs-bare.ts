import { startDnsServer } from '../test/support/dns-server.ts'
import type { Generator } from './load-server.ts'
import { PINNED, load, median, startServer } from './load-server.ts'

// npx tsx bench/load-vs-bare.ts [--path /api/uuid] [--goal 0.8] [--rounds 3] [--duration 5] [--connections 50]
//   [--floor true [--burn N]] [--generator autocannon|wrk] [--unfrozen true]
// One endpoint through the full pipeline vs a bare h3 handler returning a body of
// the same size, alternating rounds in one run; each server in its own process.
// DNS paths get a loopback DNS server (127.0.0.2) with a long-TTL zone, and the
// answer is warmed into the cache first: the run measures cache hits.
// --floor true adds a third contender: the contract's own minimum for /api/uuid or
// a DNS cache hit, written by hand in plain h3 handlers (servers/floor-server.ts), to
// show how much of the gap to bare is the contract itself (headers, ids, log line)
// and how much is the pipeline. --burn N (with --floor true) adds the floor again,
// spinning N µs of CPU per request: what N µs of handler time costs in req/s.

const args = new Map<string, string>()
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1]!)
const rounds = Number(args.get('rounds') ?? 3)
const durationSeconds = Number(args.get('duration') ?? 5)
const connections = Number(args.get('connections') ?? 50)
const path = args.get('path') ?? '/api/uuid'
const goal = Number(args.get('goal') ?? 0.8)
// info: the access log is written (to /dev/null) as `npm start` would write it to stdout
const logLevel = args.get('log-level') ?? 'info'
// autocannon (the generator) by default; wrk (apt-get install wrk) costs
// the shared cores far less per request.
const generator = (args.get('generator') ?? 'autocannon') as Generator
if (generator !== 'autocannon' && generator !== 'wrk') throw new Error(`--generator: autocannon or wrk, not ${generator}`)

const ZONE = `
$ORIGIN infralens.test.
$TTL 86400
@    IN SOA ns1 hostmaster ( 1 3600 900 604800 3600 )
@    IN NS  ns1
ns1  IN A   192.0.2.53
@    IN A   192.0.2.10
@    IN A   192.0.2.11
www  IN CNAME @
`
const dns = path.startsWith('/api/dns/') || path.startsWith('/api/reverse-dns/') ? await startDnsServer({ host: '127.0.0.2', zones: [ZONE] }) : undefined
const pipeline = await startServer('pipeline-server.ts', { LOG_LEVEL: logLevel, ...(dns ? { INFRALENS_DNS_RESOLVERS: `${dns.host}:${dns.port}`, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true' } : {}) })
const sample = await fetch(`${pipeline.url}${path}`)
if (sample.status !== 200) throw new Error(`${path}: ${sample.status} ${await sample.text()}`)
const sampleText = await sample.text()
const bytes = sampleText.length
const bare = await startServer('bare-server.ts', { BODY_BYTES: String(bytes) })
const check = await (await fetch(`${bare.url}${path}`)).text()
// The floor answers a DNS cache hit with the pipeline's own data, so both bodies match.
const floorEnv = { LOG_LEVEL: logLevel, FLOOR_DNS_DATA: JSON.stringify((JSON.parse(sampleText) as { data: unknown }).data) }
const floor = args.get('floor') === 'true' ? await startServer('floor-server.ts', floorEnv) : undefined
const burnUs = Number(args.get('burn') ?? 0)
const burnt = floor && burnUs > 0 ? await startServer('floor-server.ts', { ...floorEnv, BURN_US: String(burnUs) }) : undefined
// --unfrozen true: the pipeline again without runtime/harden.ts's frozen prototypes, to see what freezing costs.
const unfrozen = args.get('unfrozen') === 'true' ? await startServer('pipeline-server.ts', { LOG_LEVEL: logLevel, UNFROZEN: '1', ...(dns ? { INFRALENS_DNS_RESOLVERS: `${dns.host}:${dns.port}`, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true' } : {}) }) : undefined
const floorCheck = floor ? await (await fetch(`${floor.url}${path}`)).text() : undefined
const contenders = [['pipeline', pipeline], ['bare', bare], ...(floor ? [['floor', floor] as const] : []), ...(burnt ? [['floor_burn', burnt] as const] : []), ...(unfrozen ? [['pipeline_unfrozen', unfrozen] as const] : [])] as const

const results: Record<string, number[]> = { pipeline: [], bare: [], floor: [], floor_burn: [], pipeline_unfrozen: [] }
try {
  // Warm both (JIT) before measuring.
  for (const [, server] of contenders) await load(`${server.url}${path}`, { connections, durationSeconds: 2, generator })
  for (let r = 0; r < rounds; r++) {
    for (const [name, server] of contenders) {
      const res = await load(`${server.url}${path}`, { connections, durationSeconds, generator })
      if (res.non2xx || res.errors) throw new Error(`${name}: ${res.non2xx} non-2xx, ${res.errors} errors`)
      results[name]!.push(res.requestsPerSecond)
      console.error(`round ${r + 1} ${name}: ${Math.round(res.requestsPerSecond)} req/s (p50 ${res.latencyP50} ms, p99 ${res.latencyP99} ms)`)
    }
  }
} finally {
  await pipeline.stop()
  await bare.stop()
  await floor?.stop()
  await burnt?.stop()
  await unfrozen?.stop()
  await dns?.close()
}
const p = median(results.pipeline!)
const b = median(results.bare!)
const f = floor ? median(results.floor!) : undefined
const fb = burnt ? median(results.floor_burn!) : undefined
const pu = unfrozen ? median(results.pipeline_unfrozen!) : undefined
console.log(
  JSON.stringify(
    {
      path,
      generator,
      log_level: logLevel,
      dns_queries_during_run: dns ? dns.log.length : undefined,
      body_bytes: { pipeline: bytes, bare: check.length, ...(floorCheck === undefined ? {} : { floor: floorCheck.length }) },
      connections,
      duration_seconds: durationSeconds,
      rounds,
      pinned: PINNED,
      pipeline_rps: Math.round(p),
      bare_rps: Math.round(b),
      ratio: Number((p / b).toFixed(3)),
      ...(f === undefined ? {} : { floor_rps: Math.round(f), floor_ratio: Number((f / b).toFixed(3)) }),
      // Per-request time from req/s (one server core): how much N µs of CPU added.
      ...(f === undefined || fb === undefined
        ? {}
        : { burn_us: burnUs, floor_burn_rps: Math.round(fb), burn_cost_us: Number((1e6 / fb - 1e6 / f).toFixed(2)) }),
      // Frozen prototypes (runtime/harden.ts) against the same pipeline without them.
      ...(pu === undefined ? {} : { pipeline_unfrozen_rps: Math.round(pu), frozen_over_unfrozen: Number((p / pu).toFixed(3)) }),
      goal,
    },
    null,
    2,
  ),
)
