import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'
import { startDnsServer } from '../test/support/dns-server.ts'
import { SERVICE_ZONE } from '../test/support/loopback-dns.ts'
import { startServer } from './load-server.ts'

// npx tsx bench/soak.ts [--seconds 60]
// 1. capacity: a short full-speed run over a mix of endpoints;
// 2. soak: the same mix at 80 % of that rate for --seconds, sampling the server's
//    RSS every second: growth, p99, errors.
// SIGTERM under load is bench/sigterm.ts: it needs the real server (runtime/main.ts
// and its shutdown handler), which the bench pipeline server is not.

const at = process.argv.indexOf('--seconds')
const seconds = at > 0 ? Number(process.argv[at + 1]) : 60
const dns = await startDnsServer({ host: '127.0.0.2', zones: [SERVICE_ZONE.replace('$TTL 300', '$TTL 86400')] })
const env = { INFRALENS_DNS_RESOLVERS: `${dns.host}:${dns.port}`, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'info' }
const paths = ['/api/uuid', '/api/dns/a/infralens.test', '/api/dns/mx/infralens.test', '/api/hash/sha256?input=soak', '/api/ulid/bulk?count=20&format=csv', '/api/dns/lookup/infralens.test?format=yaml', '/api/nope']

const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

const server = await startServer('pipeline-server.ts', env)
const pid = server.child.pid!
const requests = paths.map((path) => ({ method: 'GET' as const, path }))
for (const path of paths) await fetch(server.url + path) // warm the cache
const capacity = await new Promise<autocannon.Result>((resolve) => autocannon({ url: server.url, connections: 50, duration: 5, requests }, (_e, r) => resolve(r)))
const rate = Math.round(capacity.requests.average * 0.8)

const samples: number[] = [rss(pid)]
const sampler = setInterval(() => samples.push(rss(pid)), 1000)
const soak = await new Promise<autocannon.Result>((resolve) => autocannon({ url: server.url, connections: 50, duration: seconds, overallRate: rate, requests }, (_e, r) => resolve(r)))
clearInterval(sampler)
samples.push(rss(pid))

await server.stop()
await dns.close()

const firstMinuteRss = samples.slice(0, Math.min(samples.length, 5))
console.log(
  JSON.stringify(
    {
      mix: paths,
      capacity_rps: Math.round(capacity.requests.average),
      soak: {
        seconds,
        target_rps: rate,
        achieved_rps: Math.round(soak.requests.average),
        requests: soak.requests.total,
        p50_ms: soak.latency.p50,
        p99_ms: soak.latency.p99,
        errors: soak.errors,
        timeouts: soak.timeouts,
        non_2xx: soak.non2xx, // /api/nope is in the mix: 1 in 7 is a 404 by design
        rss_mb_start: Number(samples[0]!.toFixed(1)),
        rss_mb_after_warmup: Number(Math.max(...firstMinuteRss).toFixed(1)),
        rss_mb_end: Number(samples.at(-1)!.toFixed(1)),
        rss_mb_max: Number(Math.max(...samples).toFixed(1)),
      },
    },
    null,
    2,
  ),
)
