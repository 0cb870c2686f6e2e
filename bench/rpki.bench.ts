import { fork } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { formatIpv4Number, formatIpv6Groups } from '../runtime/ip/format.ts'
import { INVALID, scanPrefix } from '../plugins/routing/rpki/prefix-words.ts'
import { dropExpired } from '../plugins/routing/rpki/vrp-expiry.ts'
import type { Route } from '../plugins/routing/rpki/vrp-index.ts'
import { BAD_ROUTE, INVALID_AS, INVALID_LENGTH, NOT_FOUND, VALID, VrpIndex, parseRoute } from '../plugins/routing/rpki/vrp-index.ts'
import { parseVrpJson } from '../plugins/routing/rpki/vrp-json.ts'
import { random } from './random-prefixes.ts'

// npx tsx bench/rpki.bench.ts [--vrps 500000] [--routes 1000000] [--rounds 5] [--seed 20261123]
//
// RFC 6811 origin validation: plugins/routing/rpki (the VRP scanner + prefix tree)
// against the rpki-validator npm package (2.14.8, external connector, offline), on
// the same synthetic VRP set and the same routes, in one run. Each engine runs in
// its own child process (started here, one after the other) so load time and
// memory are measured without the other's data in the heap.
//
// The set imitates a real export: ~84% IPv4 (allocations /12-/22 with more
// specifics down to /24 under them, mostly by the same AS), ~16% IPv6 (/29-/32
// with /40-/48 under them), maxLength usually the prefix length, ~0.5% AS0 VRPs,
// ~2% exact duplicates (the same VRP under two trust anchors). Routes: half are
// sub-prefixes of VRPs (origin the VRP's AS 70% of the time, so valid, invalid-as
// and invalid-length all occur), half random /24s (mostly not-found); 15% IPv6.
// Expiry times are relative to the run (8 h to 7 days ahead, as a fresh
// rpki-client export has them), so the set never expires itself out of the bench.

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const gc = (globalThis as { gc?: () => void }).gc

async function settledMemory() {
  gc?.()
  await new Promise((resolve) => setTimeout(resolve, 50))
  gc?.()
  const m = process.memoryUsage()
  return { rss: m.rss, heap: m.heapUsed, arrayBuffers: m.arrayBuffers }
}

// ---------------------------------------------------------------- synthetic data

interface SyntheticVrp {
  asn: number
  prefix: string
  maxLength: number
  ta: string
}

const TAS = ['ripe', 'arin', 'apnic', 'lacnic', 'afrinic']

function v4Text(a: number, len: number): string {
  return `${formatIpv4Number(a)}/${len}`
}

function v6Text(w0: number, w1: number, len: number): string {
  const g = [w0 >>> 16, w0 & 0xffff, w1 >>> 16, w1 & 0xffff, 0, 0, 0, 0]
  return `${formatIpv6Groups(g)}/${len}`
}

const mask32 = (len: number) => (len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0)

export function syntheticVrps(count: number, seed: number): SyntheticVrp[] {
  const next = random(seed)
  const out: SyntheticVrp[] = []
  const asnOf = () => 1 + (next() % 400_000)
  const ta = () => TAS[next() % TAS.length] as string
  const v4Target = Math.round(count * 0.84)
  while (out.length < v4Target) {
    const len = 12 + (next() % 11) // 12..22
    let first = 1 + (next() % 222)
    if (first === 10 || first === 127) first++
    const a = ((first << 24) | (next() & 0xffffff)) & mask32(len)
    const asn = next() % 200 === 0 ? 0 : asnOf()
    out.push({ asn, prefix: v4Text(a >>> 0, len), maxLength: next() % 4 === 0 ? Math.min(24, len + (next() % 8)) : len, ta: ta() })
    const more = next() % 12
    for (let k = 0; k < more && out.length < v4Target; k++) {
      const sub = len + 1 + (next() % (24 - len))
      const b = ((a | (next() & ~mask32(len))) & mask32(sub)) >>> 0
      const own = next() % 10 < 7
      out.push({ asn: own ? asn || asnOf() : asnOf(), prefix: v4Text(b, sub), maxLength: next() % 5 === 0 ? 24 : sub, ta: ta() })
    }
  }
  while (out.length < count) {
    const len = 29 + (next() % 4) // 29..32
    const w0 = ((0x2001 + (next() % (0x2c0f - 0x2001))) * 65536 + (next() & 0xffff)) & mask32(len)
    const asn = next() % 200 === 0 ? 0 : asnOf()
    out.push({ asn, prefix: v6Text(w0 >>> 0, 0, len), maxLength: next() % 3 === 0 ? 48 : len, ta: ta() })
    const more = next() % 6
    for (let k = 0; k < more && out.length < count; k++) {
      const sub = 40 + (next() % 9) // 40..48
      const w1 = (next() & mask32(sub - 32)) >>> 0
      out.push({ asn: next() % 10 < 7 ? asn || asnOf() : asnOf(), prefix: v6Text(w0 >>> 0, w1, sub), maxLength: next() % 4 === 0 ? 48 : sub, ta: ta() })
    }
  }
  // Exact duplicates under another trust anchor.
  for (let i = 0; i < count * 0.02; i++) {
    const at = next() % out.length
    out[at] = { ...(out[(at + 1) % out.length] as SyntheticVrp), ta: ta() }
  }
  return out
}

/** rpki-client's JSON layout, one VRP per line, generated at `nowMs` with expiries 8 h to 7 days after it. */
export function rpkiClientJson(vrps: readonly SyntheticVrp[], nowMs = Date.now()): string {
  const now = Math.floor(nowMs / 1000)
  const lines = vrps.map((v, i) => `\t\t{ "asn": ${v.asn}, "prefix": "${v.prefix}", "maxLength": ${v.maxLength}, "ta": "${v.ta}", "expires": ${now + 8 * 3600 + (Math.imul(i, 2654435761) >>> 0) % (7 * 86400 - 8 * 3600)} }`)
  return `{\n\t"metadata": {\n\t\t"buildmachine": "bench",\n\t\t"buildtime": "${new Date(now * 1000).toISOString()}",\n\t\t"vrps": ${vrps.length}\n\t},\n\t"roas": [\n${lines.join(',\n')}\n\t]\n}\n`
}

export function syntheticRoutes(vrps: readonly SyntheticVrp[], count: number, seed: number): Array<[string, number]> {
  const next = random(seed)
  const words = new Uint32Array(4)
  const routes: Array<[string, number]> = []
  for (let i = 0; i < count; i++) {
    const six = next() % 100 < 15
    if (next() % 2 === 0) {
      // inside some VRP of the wanted family
      let v = vrps[next() % vrps.length] as SyntheticVrp
      for (let tries = 0; v.prefix.includes(':') !== six && tries < 50; tries++) v = vrps[next() % vrps.length] as SyntheticVrp
      const code = scanPrefix(v.prefix, words, 'reject')
      if (code === INVALID) throw new Error(`bad synthetic prefix ${v.prefix}`)
      const len = code & 255
      const origin = next() % 10 < 7 ? v.asn || 1 + (next() % 400_000) : 1 + (next() % 400_000)
      if (code >> 8 === 4) {
        const sub = Math.min(32, len + (next() % 5))
        routes.push([v4Text(((words[0] as number) | (next() & ~mask32(len) & mask32(sub))) >>> 0, sub), origin])
      } else {
        const sub = Math.min(64, len + (next() % 5))
        const w1 = sub <= 32 ? 0 : ((words[1] as number) | (next() & mask32(sub - 32))) >>> 0
        routes.push([v6Text(words[0] as number, w1, sub), origin])
      }
    } else if (!six) {
      routes.push([v4Text(((1 + (next() % 222)) << 24 | (next() & 0xffff00)) >>> 0, 24), 1 + (next() % 400_000)])
    } else {
      routes.push([v6Text(((0x2001 + (next() % 0xc00)) * 65536 + (next() & 0xffff)) >>> 0, next() & 0xffff0000, 48), 1 + (next() % 400_000)])
    }
  }
  return routes
}

// ---------------------------------------------------------------- the engines

type Outcome = 'valid' | 'invalid-as' | 'invalid-length' | 'not-found'

interface EngineReport {
  engine: string
  load: Record<string, number>
  memory_mb: Record<string, number>
  rates: Record<string, Rate>
  outcomes: Record<Outcome, number>
  /** Verdicts of the first routes, for the agreement check. */
  sample: Outcome[]
}

/** CPU time of this process in ms: on a shared box it moves far less with other load than wall time does. */
function cpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

interface Rate {
  per_s_median: number
  per_s_min: number
  per_s_max: number
  /** The same rounds timed by this process's CPU time. */
  per_cpu_s_median: number
  n: number
}

function summarize(n: number, wall: number[], cpu: number[]): Rate {
  const rates = wall.map((ms) => n / (ms / 1000))
  return {
    per_s_median: Math.round(median(rates)),
    per_s_min: Math.round(Math.min(...rates)),
    per_s_max: Math.round(Math.max(...rates)),
    per_cpu_s_median: Math.round(median(cpu.map((ms) => n / (ms / 1000)))),
    n,
  }
}

function measure(rounds: number, n: number, run: () => void): Rate {
  run() // warm-up (JIT)
  const wall: number[] = []
  const cpu: number[] = []
  for (let r = 0; r < rounds; r++) {
    const s = performance.now()
    const c = cpuMs()
    run()
    cpu.push(cpuMs() - c)
    wall.push(performance.now() - s)
  }
  return summarize(n, wall, cpu)
}

async function measureAsync(rounds: number, n: number, run: () => Promise<void>): Promise<Rate> {
  await run()
  const wall: number[] = []
  const cpu: number[] = []
  for (let r = 0; r < rounds; r++) {
    const s = performance.now()
    const c = cpuMs()
    await run()
    cpu.push(cpuMs() - c)
    wall.push(performance.now() - s)
  }
  return summarize(n, wall, cpu)
}

/** Indices of the routes in address order (IPv4 before IPv6, then by network, then length). */
function addressOrder(prefixes: readonly string[]): number[] {
  const words = new Uint32Array(4)
  const keys = prefixes.map((p, i) => {
    const code = scanPrefix(p, words, 'mask')
    const six = code >> 8 === 6
    return { i, six, w: Array.from(words.subarray(0, six ? 4 : 1)), len: code & 255 }
  })
  keys.sort((a, b) => {
    if (a.six !== b.six) return a.six ? 1 : -1
    for (let k = 0; k < a.w.length; k++) if (a.w[k] !== b.w[k]) return (a.w[k] as number) - (b.w[k] as number)
    return a.len - b.len
  })
  return keys.map((k) => k.i)
}

const OURS: Record<number, Outcome> = { [VALID]: 'valid', [INVALID_AS]: 'invalid-as', [INVALID_LENGTH]: 'invalid-length', [NOT_FOUND]: 'not-found' }

async function runOurs(dir: string, rounds: number, sampleSize: number): Promise<EngineReport> {
  const bytes = readFileSync(join(dir, 'vrps.json'))
  const before = await settledMemory()
  const c0 = cpuMs()
  const t0 = performance.now()
  const parsed = parseVrpJson(bytes)
  const t1 = performance.now()
  // As the store does: drop what has expired, then build.
  const live = dropExpired(parsed, Date.now())
  if (live.expired > 0) throw new Error(`${live.expired} synthetic VRPs have already expired`)
  const index = VrpIndex.build(live.parsed)
  const t2 = performance.now()
  const loadCpu = cpuMs() - c0
  const peak = process.resourceUsage().maxRSS * 1024
  const after = await settledMemory()
  // Two more loads: the first pays for JIT compilation of the scanner.
  const warm: number[] = []
  const warmCpu: number[] = []
  for (let i = 0; i < 2; i++) {
    const s = performance.now()
    const c = cpuMs()
    VrpIndex.build(dropExpired(parseVrpJson(bytes), Date.now()).parsed)
    warmCpu.push(cpuMs() - c)
    warm.push(performance.now() - s)
  }
  const routes = JSON.parse(readFileSync(join(dir, 'routes.json'), 'utf8')) as Array<[string, number]>

  const prefixes = routes.map((r) => r[0])
  const origins = Uint32Array.from(routes, (r) => r[1])
  const n = routes.length
  const outcomes: Record<Outcome, number> = { valid: 0, 'invalid-as': 0, 'invalid-length': 0, 'not-found': 0 }
  const sample: Outcome[] = []
  for (let i = 0; i < n; i++) {
    const s = index.validate(prefixes[i] as string, origins[i] as number)
    if (s === BAD_ROUTE) throw new Error(`route ${prefixes[i]} did not parse`)
    outcomes[OURS[s] as Outcome]++
    if (i < sampleSize) sample.push(OURS[s] as Outcome)
  }
  // Pre-parsed IPv4 routes: the numeric API (what a BGP feed consumer would call).
  const words = new Uint32Array(4)
  const v4net: number[] = []
  const v4len: number[] = []
  const v4origin: number[] = []
  for (let i = 0; i < n; i++) {
    const code = scanPrefix(prefixes[i] as string, words, 'mask')
    if (code >> 8 === 4) {
      v4net.push(words[0] as number)
      v4len.push(code & 255)
      v4origin.push(origins[i] as number)
    }
  }
  const byAddress = addressOrder(prefixes)
  const sortedPrefixes = byAddress.map((i) => prefixes[i] as string)
  const sortedOrigins = Uint32Array.from(byAddress, (i) => origins[i] as number)
  const nets = Uint32Array.from(v4net)
  const lens = Uint8Array.from(v4len)
  const v4o = Uint32Array.from(v4origin)
  let sink = 0
  const rates = {
    // The service's verdict path (/api/network/intelligence per origin): text scanned into scratch words, numeric verdict, no allocation.
    'validate(prefix text, origin), mixed 85% IPv4 / 15% IPv6': measure(rounds, n, () => {
      for (let i = 0; i < n; i++) sink += index.validate(prefixes[i] as string, origins[i] as number)
    }),
    'validate4(uint32, len, origin), IPv4 routes pre-parsed': measure(rounds, nets.length, () => {
      for (let i = 0; i < nets.length; i++) sink += index.validate4(nets[i] as number, lens[i] as number, v4o[i] as number)
    }),
    // A table dump arrives in address order: the same routes sorted, so neighbours share cache lines.
    'validate(prefix text, origin), the same routes in address order': measure(rounds, n, () => {
      for (let i = 0; i < n; i++) sink += index.validate(sortedPrefixes[i] as string, sortedOrigins[i] as number)
    }),
    // /api/rpki's explanation on top of the verdict: the covering VRPs as objects (prefix text, ASN, maxLength, TA), sorted per origin.
    '/api/rpki explanation: parseRoute + coveringRoute + explainRoute (VRP objects)': measure(rounds, Math.floor(n / 10), () => {
      for (let i = 0; i < n / 10; i++) {
        const route = parseRoute(prefixes[i] as string) as Route
        sink += index.explainRoute(route, origins[i] as number, index.coveringRoute(route)).matched.length
      }
    }),
  }
  if (sink < 0) console.error(sink)
  return {
    engine: 'infralens plugins/routing/rpki',
    load: {
      parse_ms: Math.round(t1 - t0),
      expiry_filter_and_build_ms: Math.round(t2 - t1),
      total_ms: Math.round(t2 - t0),
      total_cpu_ms: Math.round(loadCpu),
      total_warm_ms: Math.round(median(warm)),
      total_warm_cpu_ms: Math.round(median(warmCpu)),
      vrps_in: parsed.v4.n + parsed.v6.n,
      vrps_indexed: index.stats.vrps,
      duplicates: index.stats.duplicates,
      prefixes: index.stats.prefixes,
    },
    memory_mb: {
      rss_before: mb(before.rss),
      rss_after: mb(after.rss),
      rss_added: mb(after.rss - before.rss),
      peak_rss: mb(peak),
      retained_heap_plus_buffers: mb(after.heap - before.heap + after.arrayBuffers - before.arrayBuffers),
      export_bytes: mb(bytes.length),
    },
    rates,
    outcomes,
    sample,
  }
}

async function runTheirs(dir: string, rounds: number, sampleSize: number, count: number): Promise<EngineReport> {
  const require = createRequire(import.meta.url)
  const RpkiValidator = require('rpki-validator') as new (o: object) => {
    setVRPs(v: unknown[]): void
    preCache(): Promise<unknown>
    validate(prefix: string, origin: number, verbose?: boolean): Promise<boolean | null | { valid: boolean | null; reason: string | null }>
    validateFromCacheSync(prefix: string, origin: number, verbose?: boolean): boolean | null | { valid: boolean | null; reason: string | null }
    dispose?(): void
  }
  const text = readFileSync(join(dir, 'vrps.json'), 'utf8')
  const before = await settledMemory()
  const c0 = cpuMs()
  const t0 = performance.now()
  const doc = JSON.parse(text) as { roas: unknown[] }
  const t1 = performance.now()
  const rpki = new RpkiValidator({ connector: 'external', defaultRpkiApi: null })
  rpki.setVRPs(doc.roas)
  await rpki.preCache()
  const t2 = performance.now()
  const loadCpu = cpuMs() - c0
  const peak = process.resourceUsage().maxRSS * 1024
  const after = await settledMemory()
  const routes = (JSON.parse(readFileSync(join(dir, 'routes.json'), 'utf8')) as Array<[string, number]>).slice(0, count)

  const n = routes.length
  const outcomes: Record<Outcome, number> = { valid: 0, 'invalid-as': 0, 'invalid-length': 0, 'not-found': 0 }
  const sample: Outcome[] = []
  for (let i = 0; i < n; i++) {
    const [prefix, origin] = routes[i] as [string, number]
    const r = rpki.validateFromCacheSync(prefix, origin, true) as { valid: boolean | null; reason: string | null }
    const o: Outcome = r.valid === null ? 'not-found' : r.valid ? 'valid' : r.reason === 'Not valid prefix length' ? 'invalid-length' : 'invalid-as'
    outcomes[o]++
    if (i < sampleSize) sample.push(o)
  }
  let sink = 0
  const sorted = addressOrder(routes.map((r) => r[0])).map((i) => routes[i] as [string, number])
  const rates = {
    'validateFromCacheSync(prefix, origin)': measure(rounds, n, () => {
      for (let i = 0; i < n; i++) sink += rpki.validateFromCacheSync(routes[i]![0], routes[i]![1]) ? 1 : 0
    }),
    'validateFromCacheSync(prefix, origin), the same routes in address order': measure(rounds, n, () => {
      for (let i = 0; i < n; i++) sink += rpki.validateFromCacheSync(sorted[i]![0], sorted[i]![1]) ? 1 : 0
    }),
    // Its documented API: all validations started at once, timed until the last resolves.
    'validate(prefix, origin) (async, its documented API)': await measureAsync(Math.max(1, rounds - 2), n, async () => {
      sink += (await Promise.all(routes.map(([p, o]) => rpki.validate(p, o)))).length
    }),
  }
  if (sink < 0) console.error(sink)
  rpki.dispose?.()
  return {
    engine: 'rpki-validator 2.14.8 (external connector, longest-prefix-match 1.3.1)',
    load: { json_parse_ms: Math.round(t1 - t0), set_vrps_and_precache_ms: Math.round(t2 - t1), total_ms: Math.round(t2 - t0), total_cpu_ms: Math.round(loadCpu) },
    memory_mb: {
      rss_before: mb(before.rss),
      rss_after: mb(after.rss),
      rss_added: mb(after.rss - before.rss),
      peak_rss: mb(peak),
      retained_heap_plus_buffers: mb(after.heap - before.heap + after.arrayBuffers - before.arrayBuffers),
    },
    rates,
    outcomes,
    sample,
  }
}

// ---------------------------------------------------------------- main

const child = args.indexOf('--child')
if (child >= 0) {
  const dir = args[child + 2] as string
  const rounds = arg('rounds', 5)
  const sample = arg('sample', 200_000)
  const report = args[child + 1] === 'ours' ? await runOurs(dir, rounds, sample) : await runTheirs(dir, rounds, sample, arg('theirs-routes', 200_000))
  // exit only once the report is sent: send() is asynchronous
  process.send!(report, () => process.exit(0))
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main()
}

async function main(): Promise<void> {
  const VRPS = arg('vrps', 500_000)
  const ROUTES = arg('routes', 1_000_000)
  const ROUNDS = arg('rounds', 5)
  const SEED = arg('seed', 20261123)
  const THEIRS_ROUTES = Math.min(ROUTES, arg('theirs-routes', 200_000))

  const dir = mkdtempSync(join(tmpdir(), 'rpki-bench-'))
  try {
    const g0 = performance.now()
    const vrps = syntheticVrps(VRPS, SEED)
    writeFileSync(join(dir, 'vrps.json'), rpkiClientJson(vrps))
    writeFileSync(join(dir, 'routes.json'), JSON.stringify(syntheticRoutes(vrps, ROUTES, SEED + 1)))
    const generateMs = Math.round(performance.now() - g0)

    const runChild = (engine: 'ours' | 'theirs') =>
      new Promise<EngineReport>((resolve, reject) => {
        const p = fork(new URL(import.meta.url).pathname, ['--child', engine, dir, '--rounds', String(ROUNDS), '--sample', String(THEIRS_ROUTES), '--theirs-routes', String(THEIRS_ROUTES)], {
          execArgv: [...process.execArgv, '--expose-gc', '--max-old-space-size=4096'],
        })
        p.once('message', (m) => resolve(m as EngineReport))
        p.once('error', reject)
        p.once('exit', (code) => reject(new Error(`${engine} child exited with ${code} before reporting`)))
      })
    const ours = await runChild('ours')
    const theirs = await runChild('theirs')

    let agree = 0
    const disagreements: string[] = []
    const routes = JSON.parse(readFileSync(join(dir, 'routes.json'), 'utf8')) as Array<[string, number]>
    for (let i = 0; i < THEIRS_ROUTES; i++) {
      if (ours.sample[i] === theirs.sample[i]) agree++
      else if (disagreements.length < 5) disagreements.push(`${routes[i]![0]} AS${routes[i]![1]}: ours ${ours.sample[i]}, theirs ${theirs.sample[i]}`)
    }
    const oursRate = ours.rates['validate(prefix text, origin), mixed 85% IPv4 / 15% IPv6']!.per_s_median
    const theirsRate = theirs.rates['validateFromCacheSync(prefix, origin)']!.per_s_median
    const theirsAsync = theirs.rates['validate(prefix, origin) (async, its documented API)']!.per_s_median
    const oursCpuRate = ours.rates['validate(prefix text, origin), mixed 85% IPv4 / 15% IPv6']!.per_cpu_s_median
    const theirsCpuRate = theirs.rates['validateFromCacheSync(prefix, origin)']!.per_cpu_s_median
    const { sample: _a, ...oursOut } = ours
    const { sample: _b, ...theirsOut } = theirs
    console.log(
      JSON.stringify(
        {
          node: process.version,
          load_average: loadavg().map((x) => Math.round(x * 100) / 100),
          vrps: VRPS,
          routes: ROUTES,
          rounds: ROUNDS,
          seed: SEED,
          generate_ms: generateMs,
          ours: oursOut,
          theirs: theirsOut,
          agreement: { compared: THEIRS_ROUTES, agree, disagreements },
          ratio: {
            text_api_vs_their_sync: Math.round((oursRate / theirsRate) * 10) / 10,
            text_api_vs_their_async: Math.round((oursRate / theirsAsync) * 10) / 10,
            by_cpu_time_text_api_vs_their_sync: Math.round((oursCpuRate / theirsCpuRate) * 10) / 10,
          },
          goals: {
            validations_per_s: {
              goal: 2_000_000,
              service_path_met: oursRate >= 2_000_000,
              text_api_random_order: oursRate,
              numeric_api_random_order: ours.rates['validate4(uint32, len, origin), IPv4 routes pre-parsed']!.per_s_median,
              text_api_address_order: ours.rates['validate(prefix text, origin), the same routes in address order']!.per_s_median,
            },
            load_ms: { goal: 1000, met: ours.load.total_ms! < 1000 },
            vs_rpki_validator: { goal: 5, met: oursRate / theirsRate >= 5 },
          },
        },
        null,
        2,
      ),
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
