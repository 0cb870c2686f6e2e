import { setMaxListeners } from 'node:events'
import { Bench } from 'tinybench'
import { createEmailDns } from '../plugins/email/email-dns.ts'
import { checkHost } from '../plugins/email/spf/spf-evaluate.ts'
import { inspectSpf } from '../plugins/email/spf/spf-inspect.ts'
import { createDnsClient } from '../runtime/net/dns/dns-client.ts'
import { startDnsServer } from '../test/support/dns-server.ts'

// npx tsx bench/spf.bench.ts [--time 1000] [--delay 2]
// SPF over a 4-level include tree (root -> 2 -> 4 -> 4 records: 10 includes, the
// RFC limit, 11 TXT records), against a loopback authoritative server over UDP.
// - cold: a fresh per-request DNS view, so every TXT record is a round trip;
// - cached: the same view again (every answer memoized): the evaluator's own cost.
// The client IP matches nothing, so check_host() walks the whole tree (worst case).
// With --delay N the server answers N ms late, to show that check_host() has to
// walk includes one after the other while the inspection tree fetches siblings at once.

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const time = arg('time', 1000)
const delay = arg('delay', 0)

const lines: string[] = ['$ORIGIN bench.test.', '$TTL 300', '@ IN SOA ns1 hostmaster ( 1 3600 900 604800 300 )', '@ IN NS ns1', 'ns1 IN A 127.0.0.53']
lines.push('@ IN TXT "v=spf1 ip4:192.0.2.0/28 include:l1-0.bench.test include:l1-1.bench.test -all"')
for (let a = 0; a < 2; a++) {
  lines.push(`l1-${a} IN TXT "v=spf1 ip4:198.51.${a}.0/24 include:l2-${a}-0.bench.test include:l2-${a}-1.bench.test ~all"`)
  for (let b = 0; b < 2; b++) {
    lines.push(`l2-${a}-${b} IN TXT "v=spf1 ip6:2001:db8:${a}${b}::/48 include:l3-${a}-${b}.bench.test ~all"`)
    lines.push(`l3-${a}-${b} IN TXT "v=spf1 ip4:203.0.113.${a * 16 + b * 4}/30 ip4:100.64.${a}.${b}/32 ~all"`)
  }
}
const server = await startDnsServer({ host: '127.0.0.20', zones: [`${lines.join('\n')}\n`] })
if (delay > 0) server.setFault({ kind: 'delay', ms: delay })
const client = createDnsClient({ servers: [{ host: server.host, port: server.port }], timeoutMs: 2000, retries: 0 })
const signal = new AbortController().signal
// One signal stands in for thousands of requests here; each request has its own in the service.
setMaxListeners(0, signal)
const now = Math.floor(Date.now() / 1000)
const request = { ip: '192.0.2.200', sender: 'bench@bench.test', helo: 'mail.bench.test', now }

// Sanity: the tree is what it claims to be.
const check = await checkHost(createEmailDns(client, signal), 'bench.test', request)
const tree = await inspectSpf(createEmailDns(client, signal), 'bench.test', { now })
if (check.result !== 'fail' || check.dns_lookups !== 10 || tree.tree.length !== 11 || tree.lookups.count !== 10) {
  throw new Error(`unexpected: ${check.result} ${check.dns_lookups} ${tree.tree.length} ${tree.lookups.count}`)
}

const warm = createEmailDns(client, signal)
await checkHost(warm, 'bench.test', request)
await inspectSpf(warm, 'bench.test', { now })

const bench = new Bench({ time, warmup: true })
bench
  .add('check_host, cold (11 TXT round trips)', async () => void (await checkHost(createEmailDns(client, signal), 'bench.test', request)))
  .add('check_host, cached', async () => void (await checkHost(warm, 'bench.test', request)))
  .add('inspect tree + lint, cold', async () => void (await inspectSpf(createEmailDns(client, signal), 'bench.test', { now })))
  .add('inspect tree + lint, cached', async () => void (await inspectSpf(warm, 'bench.test', { now })))
await bench.run()
await server.close()

console.log(`node ${process.version}, server delay ${delay} ms, ${time} ms per task; tree: ${tree.tree.length} records, ${tree.lookups.count} lookups`)
console.table(
  bench.tasks.map((t) => {
    const r = t.result
    if (r.state !== 'completed') return { task: t.name, state: r.state }
    return {
      task: t.name,
      'ops/s': Math.round(r.throughput.mean),
      'mean µs': Number((r.latency.mean * 1000).toFixed(1)),
      'p50 µs': Number(((r.latency.p50 ?? 0) * 1000).toFixed(1)),
      'p99 µs': Number(((r.latency.p99 ?? 0) * 1000).toFixed(1)),
      samples: r.latency.samplesCount,
    }
  }),
)
