import { Bench } from 'tinybench'
import { createDnsClient } from '../runtime/net/dns/dns-client.ts'
import { createFetcher } from '../plugins/dnssec/dnssec-fetcher.ts'
import { forgetNsec3Hashes } from '../plugins/dnssec/nsec3.ts'
import { presentValidation } from '../plugins/dnssec/present.ts'
import { forgetImportedKeys } from '../plugins/dnssec/public-key.ts'
import { loadTrustAnchors } from '../plugins/dnssec/trust-anchors.ts'
import { createValidator } from '../plugins/dnssec/validator.ts'
import { ROOT_ANCHOR_DS, startSignedTree } from '../test/support/dnssec-fixtures.ts'

// npx tsx bench/dnssec.bench.ts [--smoke]
// DNSSEC validations per second against the signed test tree on a loopback DNS
// server (test/support/dnssec-fixtures.ts), validator + presentation (the endpoint's
// work without HTTP):
// - cached chain: every answer already in the validator's cache and every signature
//   already checked (the same decoded answers), so what is left is the chain logic,
//   the validity windows and building the API data;
// - cold 3-level chain: before each validation the answer cache, the imported public
//   keys and the NSEC3 hash memo are emptied, so root, TLD and zone are fetched again
//   (DS and DNSKEY per level, the answer), every key imported and every signature
//   verified again. The signature and DS-digest memos are keyed on record objects, and
//   every answer is decoded anew, so they start empty too. Only the trust anchors
//   (parsed once at start-up, as in the service) and V8's compiled code stay warm.
// Rate = runs / summed run time (1000 / mean latency). tinybench's throughput.mean is
// the mean of per-run rates, which long-tailed latencies inflate.

const smoke = process.argv.includes('--smoke')
const tree = await startSignedTree()
const dns = createDnsClient({ servers: [{ host: tree.server.host, port: tree.server.port }], timeoutMs: 1000 })
const anchors = loadTrustAnchors(ROOT_ANCHOR_DS)
const warmFetcher = createFetcher(dns)
const warm = createValidator({ fetcher: warmFetcher, anchors, now: () => Date.now() })
const coldFetcher = createFetcher(dns)
const cold = createValidator({ fetcher: coldFetcher, anchors, now: () => Date.now() })

async function once(validator: typeof warm, name: string): Promise<void> {
  const result = await validator.validate(name)
  if (result.outcome.status !== 'secure') throw new Error(`${name}: ${JSON.stringify(result.outcome)}`)
  presentValidation(result, name)
}

function forgetEverything(): void {
  coldFetcher.clear()
  forgetImportedKeys()
  forgetNsec3Hashes()
}

const names = ['www.ecdsap256.test', 'www.rsasha256.test', 'www.ed448.test', 'does-not-exist.nsec3.test']
for (const name of names) await once(warm, name)

// Questions one cold validation asks.
const queries: Record<string, number> = {}
for (const name of names) {
  forgetEverything()
  const before = tree.server.log.length
  await once(cold, name)
  queries[name] = tree.server.log.length - before
}

const bench = new Bench({ time: smoke ? 100 : 3000, warmup: true })
for (const name of names) bench.add(`cached chain: ${name}`, () => once(warm, name))
for (const name of names) {
  bench.add(`cold 3-level chain: ${name}`, async () => {
    forgetEverything()
    await once(cold, name)
  })
}
await bench.run()
await tree.close()

console.table(
  bench.tasks.map((t) => {
    const r = t.result
    if (r.state !== 'completed') return { task: t.name, state: r.state }
    const name = t.name.split(': ')[1] as string
    return {
      task: t.name,
      'validations/s': Math.round(1000 / r.period),
      runs: r.latency.samplesCount,
      'mean ms': Number(r.latency.mean.toFixed(3)),
      'p99 ms': Number((r.latency.p99 ?? 0).toFixed(3)),
      queries: t.name.startsWith('cold') ? queries[name] : 0,
    }
  }),
)
