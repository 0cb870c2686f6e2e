import { loadCountryDatabase } from '../plugins/network/asn-db/country-database.ts'
import { loadAsnDatabase } from '../plugins/network/asn-db/load-asn-database.ts'
import { packagedIpDataFiles } from '../plugins/network/ip-data-files.ts'
import { formatIpv4Number, formatIpv6 } from '../runtime/ip/format.ts'
import { scanIpv4 } from '../runtime/ip/parse-ipv4.ts'
import { parseIp } from '../runtime/ip/parse.ts'
import { random } from './random-prefixes.ts'

// node --expose-gc --import tsx bench/asn-lookup.bench.ts [--rounds 5] [--n 1000000]
//
// IP -> ASN + AS name with the range-table engine (plugins/network/asn-db) against
// maxmind's Reader in the same process. The ASN data is CSV only (there is no ASN
// mmdb in the @ip-location-db package family installed here), so the Reader runs
// on the *country* mmdb of the same family: the same tree walk an ASN mmdb would
// need, with a smaller record. Also: load time and memory of both.

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const ROUNDS = arg('rounds', 5)
const N = arg('n', 1_000_000)

const gc = (globalThis as { gc?: () => void }).gc
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10
/** After a full GC; external buffers (the CSV files just read) are freed a turn later. */
async function memory() {
  gc?.()
  await new Promise((resolve) => setTimeout(resolve, 50))
  gc?.()
  const m = process.memoryUsage()
  return { rss: m.rss, heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers, external: m.external }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

const files = packagedIpDataFiles()
const before = await memory()
const t0 = performance.now()
const cpu0 = process.cpuUsage()
const db = await loadAsnDatabase({ ipv4: files.asnIpv4, ipv6: files.asnIpv6 })
const asnLoadMs = performance.now() - t0
// CPU time as well as wall time: on a shared box the wall time includes waiting for a core.
const asnLoadCpu = process.cpuUsage(cpu0)
// Peak while loading: the two CSVs (32 MB) are in memory until parsed.
const peakRssAfterAsn = process.resourceUsage().maxRSS * 1024
const afterAsn = await memory()
const t1 = performance.now()
const country = await loadCountryDatabase(files.countryMmdb)
const countryLoadMs = performance.now() - t1
const afterCountry = await memory()

// Two IPv4 workloads: uniform over the 32-bit space (a third of it has no route,
// so many lookups miss), and addresses inside the data's ranges (every lookup hits).
const next = random(20261123)
const uniform = new Uint32Array(N)
for (let i = 0; i < N; i++) uniform[i] = next()
const inside = new Uint32Array(N)
for (let i = 0; i < N; i++) {
  const [start, end] = db.ipv4Range(next() % db.ipv4.count)
  const span = end - start + 1
  inside[i] = start + (next() % span)
}
const uniformText = Array.from(uniform, formatIpv4Number)
const insideText = Array.from(inside, formatIpv4Number)
const v6Values: bigint[] = []
for (let i = 0; i < N / 10; i++) {
  const row = next() % db.ipv6.count
  const s = db.ipv6.starts
  v6Values.push((BigInt(s[row * 4] as number) << 96n) | (BigInt(s[row * 4 + 1] as number) << 64n) | BigInt(next()))
}
const v6Text = v6Values.map((v) => formatIpv6(v))

let sink = 0
type Task = { name: string; count: number; run: () => void }
const tasks: Task[] = [
  {
    name: 'asn-db: uint32 -> ASN + name (uniform IPv4)',
    count: N,
    run() {
      for (let i = 0; i < N; i++) {
        const row = db.findIpv4(uniform[i] as number)
        if (row >= 0) sink += db.ipv4Asn(row) + db.ipv4Name(row).length
      }
    },
  },
  {
    name: 'asn-db: uint32 -> ASN + name (IPv4 inside ranges)',
    count: N,
    run() {
      for (let i = 0; i < N; i++) {
        const row = db.findIpv4(inside[i] as number)
        if (row >= 0) sink += db.ipv4Asn(row) + db.ipv4Name(row).length
      }
    },
  },
  {
    name: 'asn-db: text -> ASN + name (IPv4 inside ranges, scanIpv4 included)',
    count: N,
    run() {
      for (let i = 0; i < N; i++) {
        const text = insideText[i] as string
        const row = db.findIpv4(scanIpv4(text, 0, text.length))
        if (row >= 0) sink += db.ipv4Asn(row) + db.ipv4Name(row).length
      }
    },
  },
  {
    name: 'maxmind Reader.get: text -> country (IPv4 uniform)',
    count: N,
    run() {
      for (let i = 0; i < N; i++) sink += country.lookup(uniformText[i] as string)?.length ?? 0
    },
  },
  {
    name: 'maxmind Reader.get: text -> country (IPv4 inside ranges)',
    count: N,
    run() {
      for (let i = 0; i < N; i++) sink += country.lookup(insideText[i] as string)?.length ?? 0
    },
  },
  {
    name: 'asn-db: lookup(IpAddress) IPv4, API answer object with range text',
    count: N / 10,
    run() {
      for (let i = 0; i < N / 10; i++) sink += db.lookup({ version: 4, value: BigInt(inside[i] as number) })?.asn ?? 0
    },
  },
  {
    name: 'asn-db: lookup(IpAddress) IPv6, API answer object with range text',
    count: N / 10,
    run() {
      for (let i = 0; i < N / 10; i++) sink += db.lookup({ version: 6, value: v6Values[i] as bigint })?.asn ?? 0
    },
  },
  {
    name: 'asn-db: text -> ASN + name (IPv6, parseIp included)',
    count: N / 10,
    run() {
      for (let i = 0; i < N / 10; i++) {
        const parsed = parseIp(v6Text[i] as string)
        if (parsed.ok) {
          const row = db.findIpv6(parsed.value.value)
          if (row >= 0) sink += (db.ipv6.asns[row] as number) + db.names.get(db.ipv6.orgIds[row] as number).length
        }
      }
    },
  },
  {
    name: 'maxmind Reader.get: text -> country (IPv6)',
    count: N / 10,
    run() {
      for (let i = 0; i < N / 10; i++) sink += country.lookup(v6Text[i] as string)?.length ?? 0
    },
  },
]

const results: Array<{ task: string; lookups_per_s_median: number; lookups_per_s_min: number; lookups_per_s_max: number }> = []
for (const task of tasks) {
  task.run() // warm-up round (JIT, decoded names)
  const rates: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    const s = performance.now()
    task.run()
    rates.push(task.count / ((performance.now() - s) / 1000))
  }
  results.push({
    task: task.name,
    lookups_per_s_median: Math.round(median(rates)),
    lookups_per_s_min: Math.round(Math.min(...rates)),
    lookups_per_s_max: Math.round(Math.max(...rates)),
  })
}

const report = {
  node: process.version,
  load_average: (await import('node:os')).loadavg().map((x) => Math.round(x * 100) / 100),
  rounds: ROUNDS,
  n: N,
  gc_exposed: gc !== undefined,
  asn_data: {
    ...db.stats,
    load_ms: Math.round(asnLoadMs),
    load_cpu_ms: Math.round((asnLoadCpu.user + asnLoadCpu.system) / 1000),
    // The engine's tables exactly: typed arrays and the stored names.
    tables_mb: mb(
      [db.ipv4.rows, db.ipv4.bucket, db.ipv6.starts, db.ipv6.ends, db.ipv6.asns, db.ipv6.orgIds].reduce(
        (sum, a) => sum + a.byteLength,
        0,
      ) + db.names.byteLength,
    ),
  },
  country_mmdb: { load_ms: Math.round(countryLoadMs), built: country.builtAt.toISOString() },
  memory_mb: {
    before: { rss: mb(before.rss), heap: mb(before.heapUsed), array_buffers: mb(before.arrayBuffers) },
    after_asn: { rss: mb(afterAsn.rss), heap: mb(afterAsn.heapUsed), array_buffers: mb(afterAsn.arrayBuffers) },
    after_country: { rss: mb(afterCountry.rss), heap: mb(afterCountry.heapUsed), array_buffers: mb(afterCountry.arrayBuffers) },
    peak_rss_during_asn_load: mb(peakRssAfterAsn),
    asn_retained: mb(afterAsn.heapUsed - before.heapUsed + afterAsn.arrayBuffers - before.arrayBuffers),
    country_retained: mb(afterCountry.heapUsed - afterAsn.heapUsed + afterCountry.arrayBuffers - afterAsn.arrayBuffers),
  },
  results,
  // Issue 3 asks >= 1M IP -> ASN lookups/s, for IPv4 (the bulk of lookups); 3M is this
  // engine's own bar for the bare IPv4 lookup with the name. IPv6 rates are reported, not judged.
  goal: { ipv4_lookups_per_s_issue: 1_000_000, ipv4_lookups_with_name_per_s: 3_000_000 },
  sink: sink > 0,
}
console.log(JSON.stringify(report, null, 2))
