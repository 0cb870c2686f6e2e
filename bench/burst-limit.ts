import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { Agent, request as httpRequest } from 'node:http'
import { Redis } from 'ioredis'
import { HERMETIC_ENV } from '../test/support/hermetic-env.ts'
import { startTestRedis } from '../test/support/redis-server.ts'
import type { TestRedis } from '../test/support/redis-server.ts'
import { startService } from './load-server.ts'

// npx tsx bench/burst-limit.ts [--workers 2] [--bursts 5] [--requests 1000] [--limit 60] [--store memory,redis] [--busy 0,2]
//
// Issue 21's exactness goal on the real `npm start` entry (runtime/main.ts, a cluster
// when --workers > 1): bursts of --requests concurrent GET /api/uuid (every request on
// its own connection, all written at once) against a limit of --limit per minute,
// counting how many were let through. Each burst comes from its own loopback address
// (127.0.0.11, .12, ...), so it starts a fresh window of its own; the first burst is
// the first traffic the service answers after it reports ready. With --busy N, N
// processes spinning on the CPU run through the bursts (the event loops lag behind
// them, as on the busy box where Redis-backed limits once let 168-332 of 1,000 through).
// With Redis (a private redis-server per run) the counters Redis holds are summed
// after each burst: they must say exactly as many as were admitted.

const args = new Map<string, string>()
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1]!)
const workers = Number(args.get('workers') ?? 2)
const bursts = Number(args.get('bursts') ?? 5)
const requests = Number(args.get('requests') ?? 1000)
const limit = Number(args.get('limit') ?? 60)
const stores = (args.get('store') ?? 'memory,redis').split(',')
const busyLevels = (args.get('busy') ?? '0,2').split(',').map(Number)

/** Every request on its own connection from `localAddress`, all written before any answer is read. */
async function burst(url: string, localAddress: string): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: false, maxSockets: requests, localAddress })
  try {
    const statuses = await Promise.all(
      Array.from(
        { length: requests },
        () =>
          new Promise<number>((resolve) => {
            const req = httpRequest(`${url}/api/uuid`, { agent }, (res) => {
              res.resume()
              res.on('end', () => resolve(res.statusCode ?? 0))
            })
            req.on('error', () => resolve(0))
            req.end()
          }),
      ),
    )
    const counts = new Map<number, number>()
    for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1)
    return counts
  } finally {
    agent.destroy()
  }
}

function spin(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }))
}

interface Row {
  store: string
  busy: number
  admitted: number[]
  refused: number[]
  other: number[]
  counted: number[] | undefined
}

const rows: Row[] = []
let redis: TestRedis | undefined
try {
  for (const store of stores) {
    if (store === 'redis') redis ??= await startTestRedis()
    for (const busy of busyLevels) {
      const prefix = `burst${randomUUID().slice(0, 8)}:`
      const env: Record<string, string> = {
        ...HERMETIC_ENV,
        LOG_LEVEL: 'warn',
        INFRALENS_WORKERS: String(workers),
        INFRALENS_RATE_LIMITS: `anonymous=${limit}`,
        ...(store === 'redis' ? { REDIS_URL: redis!.url, INFRALENS_REDIS_PREFIX: prefix } : {}),
      }
      const hogs = spin(busy)
      const service = await startService(env, Array.from({ length: workers }, (_, i) => i % 2).join(','))
      const admin = store === 'redis' ? new Redis(redis!.url, { maxRetriesPerRequest: 1 }) : undefined
      const row: Row = { store, busy, admitted: [], refused: [], other: [], counted: admin ? [] : undefined }
      try {
        for (let b = 0; b < bursts; b++) {
          const counts = await burst(service.url, `127.0.0.${11 + b}`)
          row.admitted.push(counts.get(200) ?? 0)
          row.refused.push(counts.get(429) ?? 0)
          row.other.push(requests - (counts.get(200) ?? 0) - (counts.get(429) ?? 0))
          if (admin) {
            const keys = await admin.keys(`${prefix}rl:*`)
            const values = keys.length ? await admin.mget(...keys) : []
            // Cumulative over the bursts so far; this burst's share is the difference.
            const total = values.reduce((n, v) => n + Number(v ?? 0), 0)
            row.counted!.push(total - row.counted!.reduce((n, v) => n + v, 0))
          }
          console.error(`${store}, ${busy} busy: burst ${b + 1}: ${row.admitted.at(-1)} admitted, ${row.refused.at(-1)} refused${admin ? `, Redis counted ${row.counted!.at(-1)}` : ''}`)
        }
      } finally {
        admin?.disconnect()
        await service.stop()
        for (const h of hogs) h.kill('SIGKILL')
      }
      rows.push(row)
    }
  }
} finally {
  await redis?.stop()
}
console.log(JSON.stringify({ node: process.version, workers, requests, limit, bursts, rows }, null, 2))
const exact = rows.every((r) => r.admitted.every((a) => a === limit) && r.other.every((o) => o === 0) && (r.counted ?? r.admitted).every((c) => c === limit))
if (!exact) {
  console.error(`not exact: some burst let through other than ${limit}`)
  process.exitCode = 1
}
