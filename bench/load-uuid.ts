import { PINNED, load, median, startServer } from './load-server.ts'

// npx tsx bench/load-uuid.ts [--rounds 3] [--duration 5] [--connections 50]
// /api/uuid through the full pipeline vs a bare h3 handler with a body of the same
// size, alternating rounds in one run. Each server runs in its own process.

const args = new Map<string, string>()
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1]!)
const rounds = Number(args.get('rounds') ?? 3)
const durationSeconds = Number(args.get('duration') ?? 5)
const connections = Number(args.get('connections') ?? 50)

const pipeline = await startServer('pipeline-server.ts')
const sample = await fetch(`${pipeline.url}/api/uuid`)
const bytes = (await sample.text()).length
const bare = await startServer('bare-server.ts', { BODY_BYTES: String(bytes) })
const check = await (await fetch(`${bare.url}/api/uuid`)).text()

const results = { pipeline: [] as number[], bare: [] as number[] }
try {
  // Warm both (JIT) before measuring.
  await load(`${pipeline.url}/api/uuid`, { connections, durationSeconds: 2 })
  await load(`${bare.url}/api/uuid`, { connections, durationSeconds: 2 })
  for (let r = 0; r < rounds; r++) {
    for (const [name, server] of [['pipeline', pipeline], ['bare', bare]] as const) {
      const res = await load(`${server.url}/api/uuid`, { connections, durationSeconds })
      if (res.non2xx || res.errors) throw new Error(`${name}: ${res.non2xx} non-2xx, ${res.errors} errors`)
      results[name].push(res.requestsPerSecond)
      console.error(`round ${r + 1} ${name}: ${Math.round(res.requestsPerSecond)} req/s (p50 ${res.latencyP50} ms, p99 ${res.latencyP99} ms)`)
    }
  }
} finally {
  await pipeline.stop()
  await bare.stop()
}
const p = median(results.pipeline)
const b = median(results.bare)
console.log(
  JSON.stringify(
    {
      body_bytes: { pipeline: bytes, bare: check.length },
      connections,
      duration_seconds: durationSeconds,
      rounds,
      pinned: PINNED,
      pipeline_rps: Math.round(p),
      bare_rps: Math.round(b),
      ratio: Number((p / b).toFixed(3)),
      goal: 0.8,
    },
    null,
    2,
  ),
)
