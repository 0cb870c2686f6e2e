import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Bench } from 'tinybench'
import { summarize } from '../plugins/network/cidr/summarize.ts'
import { randomIpv6Prefixes, randomPrefixes } from './random-prefixes.ts'

// npx tsx bench/summarize.bench.ts [--rounds 5] [--seed 20261122] [--no-python]
//
// CIDR summarize on random IPv4 /16-/32 prefixes (fixed seed), against python3's
// ipaddress.collapse_addresses on the same 100k list, with the team's targets from
// ../shared/notes/performance.md: 100k in <= 0.03 of python's time, 1M in < 1 s
// with RSS < 300 MB.
//
// The input reaches summarize as it would from an HTTP body: the parent writes the
// JSON body to a file, a fresh child process reads and JSON.parses it into flat
// strings, then times summarize. So the first (cold, un-JITed) call and the peak
// RSS (input included) are those of a real request, not of the generator.

const SELF = fileURLToPath(import.meta.url)
const args = new Map<string, string>()
for (let i = 2; i < process.argv.length; i++) {
  const key = process.argv[i] as string
  if (!key.startsWith('--')) continue
  const next = process.argv[i + 1]
  if (next !== undefined && !next.startsWith('--')) {
    args.set(key.slice(2), next)
    i++
  } else args.set(key.slice(2), 'true')
}
const SEED = Number(args.get('seed') ?? 20261122)
const ROUNDS = Number(args.get('rounds') ?? 5)

function sha256(lines: string[]): string {
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

const mb = (bytes: number): number => Math.round(bytes / 1048576)

interface ChildResult {
  n: number
  runsMs: number[]
  outputBlocks: number
  outputHash: string
  /** Process RSS before reading the body (node + tsx + modules). */
  rssBaseMb: number
  /** Peak RSS once the body is parsed into strings, before summarize. */
  maxRssInputMb: number
  /** Peak RSS after the first summarize call: one request's worth. */
  maxRssFirstMb: number
  /** Peak RSS after all rounds (V8 collects lazily, so this creeps above the first). */
  maxRssMb: number
}

/** Peak RSS of this process so far, MB (maxRSS is in KiB). */
const peakMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024)

/** Child mode: one size, a fresh heap. */
function child(file: string): void {
  const rssBase = process.memoryUsage().rss
  const entries = (JSON.parse(readFileSync(file, 'utf8')) as { cidrs: string[] }).cidrs
  const maxRssInputMb = peakMb()
  const runsMs: number[] = []
  let result = summarize([])
  let maxRssFirstMb = 0
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now()
    result = summarize(entries)
    runsMs.push(performance.now() - t)
    if (r === 0) maxRssFirstMb = peakMb()
  }
  const out: ChildResult = {
    n: entries.length,
    runsMs,
    outputBlocks: result.ipv4.length + result.ipv6.length,
    outputHash: sha256([...result.ipv4, ...result.ipv6]),
    rssBaseMb: mb(rssBase),
    maxRssInputMb,
    maxRssFirstMb,
    maxRssMb: peakMb(),
  }
  process.stdout.write(JSON.stringify(out))
}

function runChild(dir: string, n: number, family: 4 | 6 = 4): ChildResult {
  const file = join(dir, `body-${family}-${n}.json`)
  writeFileSync(file, JSON.stringify({ cidrs: family === 4 ? randomPrefixes(n, SEED) : randomIpv6Prefixes(n, SEED) }))
  const r = spawnSync(process.execPath, ['--import', 'tsx', SELF, '--child', file, '--rounds', String(ROUNDS)], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  })
  if (r.status !== 0) throw new Error(`child ${n} failed: ${r.stderr}`)
  return JSON.parse(r.stdout) as ChildResult
}

const PYTHON = `
import ipaddress, hashlib, json, sys, time
with open(sys.argv[1]) as f:
    lines = f.read().split()
t = time.perf_counter()
out = list(ipaddress.collapse_addresses(ipaddress.ip_network(s) for s in lines))
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "blocks": len(out),
    "hash": hashlib.sha256("\\n".join(str(n) for n in out).encode()).hexdigest()[:16],
    "python": sys.version.split()[0]}))
`

interface PythonResult {
  seconds: number
  blocks: number
  hash: string
  python: string
}

function runPython(dir: string, list: string[]): PythonResult | null {
  const file = join(dir, 'prefixes.txt')
  writeFileSync(file, list.join('\n'))
  const r = spawnSync('python3', ['-c', PYTHON, file], { encoding: 'utf8' })
  if (r.error || r.status !== 0) {
    console.error(`python3 unavailable or failed: ${r.error?.message ?? r.stderr}`)
    return null
  }
  return JSON.parse(r.stdout) as PythonResult
}

async function main(): Promise<void> {
  const list100k = randomPrefixes(100_000, SEED)
  const dir = mkdtempSync(join(tmpdir(), 'summarize-bench-'))
  let python: PythonResult | null = null
  let small: ChildResult
  let large: ChildResult
  let v6: ChildResult
  try {
    python = args.has('no-python') ? null : runPython(dir, list100k)
    small = runChild(dir, 100_000)
    large = runChild(dir, 1_000_000)
    v6 = runChild(dir, 100_000, 6)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }

  // Warm, repeated timing of the 100k case in this process (tinybench).
  const entries = (JSON.parse(JSON.stringify(list100k)) as string[]).slice()
  const bench = new Bench({ time: 3000, warmup: true })
  bench.add('summarize 100k IPv4 /16-/32', () => {
    summarize(entries)
  })
  await bench.run()
  const task = bench.tasks[0]
  const warm = task?.result.state === 'completed' ? task.result.latency : null

  const cold100k = small.runsMs[0] as number
  const med100k = median(small.runsMs.slice(1))
  const report = {
    node: process.version,
    seed: SEED,
    rounds: ROUNDS,
    '100k': {
      coldMs: +cold100k.toFixed(1),
      warmMedianMs: +med100k.toFixed(1),
      tinybench: warm && { meanMs: +warm.mean.toFixed(1), p50Ms: +warm.p50.toFixed(1), p99Ms: +(warm.p99 ?? 0).toFixed(1), samples: warm.samplesCount },
      outputBlocks: small.outputBlocks,
      maxRssFirstMb: small.maxRssFirstMb,
    },
    '1M': {
      coldMs: +(large.runsMs[0] as number).toFixed(1),
      warmMedianMs: +median(large.runsMs.slice(1)).toFixed(1),
      runsMs: large.runsMs.map((x) => +x.toFixed(1)),
      outputBlocks: large.outputBlocks,
      rssBaseMb: large.rssBaseMb,
      maxRssInputParsedMb: large.maxRssInputMb,
      maxRssFirstCallMb: large.maxRssFirstMb,
      maxRssAllRoundsMb: large.maxRssMb,
    },
    '100k IPv6 /32-/128 (no target)': {
      coldMs: +(v6.runsMs[0] as number).toFixed(1),
      warmMedianMs: +median(v6.runsMs.slice(1)).toFixed(1),
      outputBlocks: v6.outputBlocks,
      maxRssAllRoundsMb: v6.maxRssMb,
    },
    python: python && {
      version: python.python,
      seconds100k: +python.seconds.toFixed(3),
      blocks: python.blocks,
      sameOutput: python.hash === small.outputHash && python.blocks === small.outputBlocks,
      ratioCold: +(cold100k / 1000 / python.seconds).toFixed(4),
      ratioWarm: +(med100k / 1000 / python.seconds).toFixed(4),
    },
    targets: {
      '100k <= 0.03 x python (cold)': python ? cold100k / 1000 / python.seconds <= 0.03 : 'not measured',
      '1M < 1 s (cold)': (large.runsMs[0] as number) < 1000,
      '1M RSS < 300 MB (peak, all rounds)': large.maxRssMb < 300,
    },
  }
  console.log(JSON.stringify(report, null, 2))
}

if (args.has('child')) child(args.get('child') as string)
else await main()
