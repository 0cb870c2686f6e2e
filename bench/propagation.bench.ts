import { startDnsServer } from '../test/support/dns-server.ts'
import type { TestDnsServer } from '../test/support/dns-server.ts'
import { createApp } from '../runtime/app.ts'
import { HERMETIC_ENV } from '../test/support/hermetic-env.ts'
import { createDnsClient } from '../runtime/net/dns/dns-client.ts'

// npx tsx bench/propagation.bench.ts [--rounds 20]
// /api/dns/propagation answers when its slowest resolver does: resolvers are asked
// in parallel. Five loopback resolvers answer after 5, 10, 20, 40 and 80 ms; the
// endpoint's wall time is compared with the slowest one (goal <= 1.05x). Then one
// resolver is black-holed: the answer must come at the DNS timeout, not later.

const at = process.argv.indexOf('--rounds')
const rounds = at > 0 ? Number(process.argv[at + 1]) : 20
const ZONE = `
$ORIGIN infralens.test.
$TTL 300
@   IN SOA ns1 hostmaster ( 1 3600 900 604800 120 )
@   IN NS  ns1
ns1 IN A   192.0.2.53
@   IN A   192.0.2.10
`
const delays = [5, 10, 20, 40, 80]
const servers: TestDnsServer[] = []
for (const [i, ms] of delays.entries()) {
  const s = await startDnsServer({ host: `127.0.0.${10 + i}`, zones: [ZONE] })
  s.setFault({ kind: 'delay', ms } as never)
  servers.push(s)
}
const timeoutMs = 400
const { app, close } = await createApp({
  env: {
    ...HERMETIC_ENV,
    LOG_LEVEL: 'warn',
    INFRALENS_RATE_LIMITS: 'anonymous=1000000',
    INFRALENS_CACHE_MAX_ENTRIES: '0',
    INFRALENS_DNS_RESOLVERS: `${servers[0]!.host}:${servers[0]!.port}`,
    INFRALENS_PROPAGATION_RESOLVERS: servers.map((s, i) => `r${i}=${s.host}:${s.port}`).join(','),
    INFRALENS_DNS_TIMEOUT_MS: String(timeoutMs),
    INFRALENS_ALLOW_PRIVATE_TARGETS: 'true',
  },
})

async function timeOnce(): Promise<number> {
  const started = performance.now()
  const res = await app.request('/api/dns/propagation/infralens.test')
  const body = (await res.json()) as { data: { resolvers_answered: number } }
  if (res.status !== 200) throw new Error(JSON.stringify(body))
  return performance.now() - started
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!

// The slowest resolver as a client sees it (its delay plus timer slack), asked
// directly in the same run.
const direct = createDnsClient({ servers: [{ host: servers.at(-1)!.host, port: servers.at(-1)!.port }], timeoutMs: 1000, retries: 0 })
async function directOnce(): Promise<number> {
  const started = performance.now()
  await direct.query('infralens.test', 'A')
  return performance.now() - started
}

await timeOnce()
await directOnce()
const healthy: number[] = []
const slowestDirect: number[] = []
for (let i = 0; i < rounds; i++) {
  healthy.push(await timeOnce())
  slowestDirect.push(await directOnce())
}
servers[2]!.setFault({ kind: 'drop' })
const holed: number[] = []
for (let i = 0; i < Math.max(5, rounds / 4); i++) holed.push(await timeOnce())
await close()
await Promise.all(servers.map((s) => s.close()))

const slowest = median(slowestDirect)
console.log(
  JSON.stringify(
    {
      resolvers: delays.map((d, i) => ({ name: `r${i}`, delay_ms: d })),
      rounds,
      healthy_median_ms: Number(median(healthy).toFixed(1)),
      slowest_resolver_direct_median_ms: Number(slowest.toFixed(1)),
      ratio_to_slowest: Number((median(healthy) / slowest).toFixed(3)),
      goal_ratio: 1.05,
      black_holed_median_ms: Number(median(holed).toFixed(1)),
      dns_timeout_ms: timeoutMs,
      black_holed_ratio_to_timeout: Number((median(holed) / timeoutMs).toFixed(3)),
    },
    null,
    2,
  ),
)
