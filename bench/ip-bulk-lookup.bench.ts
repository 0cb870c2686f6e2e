import { IpDataLoader } from '../plugins/network/ip-data.ts'
import { packagedIpDataFiles } from '../plugins/network/ip-data-files.ts'
import { defineBulkLookup } from '../plugins/network/bulk-lookup.ts'
import { SLICE, defineRouteJudge } from '../plugins/routing/ip-bulk.ts'
import { VrpIndex } from '../plugins/routing/rpki/vrp-index.ts'
import { parseVrpJson } from '../plugins/routing/rpki/vrp-json.ts'
import { JsonBytes } from '../runtime/json-bytes.ts'
import { bulkAddresses } from './bulk-addresses.ts'
import { rpkiClientJson, syntheticVrps } from './rpki.bench.ts'

// npx tsx bench/ip-bulk-lookup.bench.ts [--entries 100000] [--passes 15] [--vrps 500000]
//
// The part of POST /api/ip/bulk that is ours alone: the per-address lookups
// written as JSON bytes (plugins/network/bulk-lookup.ts), in this process, no
// HTTP, as the service does it (the batch: lookups in address order,
// bulk-batch.ts), and entry by entry in the list's order (as before the batch). The same address mix as bench/ip-bulk.bench.ts (90 % IPv4, 10 % IPv6, one
// bad line in 500) and the same synthetic VRP set; also IPv4 only, IPv6 only and
// without RPKI, to say where the time goes. CPU time per pass (process.cpuUsage:
// steadier than wall time on a shared box), median of --passes after 3 warm-ups.

const args = new Map<string, string>()
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '')
const num = (name: string, fallback: number) => Number(args.get(name) ?? fallback)

const log = { info() {}, error() {}, warn() {}, debug() {}, child() { return log } }
const data = await new IpDataLoader(packagedIpDataFiles(), log as never).get()
const lookup = defineBulkLookup(data)
const index = VrpIndex.build(parseVrpJson(Buffer.from(rpkiClientJson(syntheticVrps(num('vrps', 500_000), 20261123)))))
const judge = defineRouteJudge(index)

const entries = num('entries', 100_000)
const passes = num('passes', 15)
const mixed = bulkAddresses(entries, 20261126)
const only4 = mixed.filter((a) => !a.includes(':'))
const only6 = mixed.filter((a) => a.includes(':'))

function pass(list: readonly string[], withJudge: boolean, oneByOne = false): { cpuMs: number; bytes: number } {
  const out = new JsonBytes()
  const started = process.cpuUsage()
  out.byte(0x5b)
  if (oneByOne) {
    for (let i = 0; i < list.length; i++) {
      if (i > 0) out.byte(0x2c)
      lookup.write(list[i], withJudge ? judge : undefined, out)
    }
  } else for (const _ of lookup.batch(list, withJudge ? judge : undefined).steps(SLICE, out));
  out.byte(0x5d)
  const used = process.cpuUsage(started)
  return { cpuMs: (used.user + used.system) / 1000, bytes: out.finish().byteLength }
}

function measure(name: string, list: readonly string[], withJudge: boolean, oneByOne = false): Record<string, number | string> {
  for (let i = 0; i < 3; i++) pass(list, withJudge, oneByOne)
  const ms: number[] = []
  let bytes = 0
  for (let i = 0; i < passes; i++) {
    const r = pass(list, withJudge, oneByOne)
    ms.push(r.cpuMs)
    bytes = r.bytes
  }
  ms.sort((a, b) => a - b)
  const median = ms[Math.floor(ms.length / 2)]!
  return { case: name, addresses: list.length, median_cpu_ms: +median.toFixed(1), min_cpu_ms: +ms[0]!.toFixed(1), ns_per_address: Math.round((median * 1e6) / list.length), mb: +(bytes / 1e6).toFixed(1) }
}

const results = [
  measure('mixed (90 % IPv4), RPKI', mixed, true),
  measure('IPv4 only, RPKI', only4, true),
  measure('IPv4 only, no RPKI', only4, false),
  measure('IPv6 only, RPKI', only6, true),
  measure('mixed, RPKI, entry by entry in the list\'s order', mixed, true, true),
  measure('IPv4 only, RPKI, entry by entry in the list\'s order', only4, true, true),
]
console.table(results)
console.log(JSON.stringify({ node: process.version, vrps: index.stats.vrps, results }))
