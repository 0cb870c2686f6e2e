import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { ROOT } from '../runtime/app.ts'
import { HERMETIC_ENV } from '../test/support/hermetic-env.ts'
import { rpkiClientJson, syntheticVrps } from './rpki.bench.ts'
import { descendants } from '../test/support/process-tree.ts'

// npx tsx bench/cluster-memory.ts [--workers 1,2,4] [--vrps 500000]
// What the clustered service costs in memory (issue 21): the service as `npm start`
// runs it (runtime/main.ts) with INFRALENS_WORKERS = each count, a synthetic VRP set
// of the size of today's global one (500k, bench/rpki.bench.ts's generator) loaded
// from a local file, the bundled IP data, no internet. Once /api/ready says 200 and
// the loops have settled, every process of the tree is read from /proc:
// RSS (what `ps` shows; pages shared between processes counted in each) and PSS
// (shared pages divided among their sharers: the sum is what the host really gives).
// The worker's heap and external memory come from its /metrics (one worker, or the
// sum over all of them with the cluster's AggregatorRegistry).

const args = new Map<string, string>()
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1]!)
const counts = (args.get('workers') ?? '1,2,4').split(',').map(Number)
const vrpCount = Number(args.get('vrps') ?? 500_000)

const dir = mkdtempSync(join(tmpdir(), 'infralens-memory-'))
const vrpFile = join(dir, 'vrps.json')
writeFileSync(vrpFile, rpkiClientJson(syntheticVrps(vrpCount, 20261126)))

/** RSS and PSS of one process, in MiB (smaps_rollup). */
function memoryOf(pid: number): { rss: number; pss: number; cmd: string } {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0)
  const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
  return { rss: kb('Rss') / 1024, pss: kb('Pss') / 1024, cmd }
}

const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20

const rows: string[] = []
for (const workers of counts) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...HERMETIC_ENV, INFRALENS_VRP_URL: vrpFile, INFRALENS_WORKERS: String(workers), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()))
  let url: string | undefined
  for (let i = 0; i < 1200 && !url; i++) {
    await sleep(100)
    url = /"msg":"infralens listening"/.test(out) ? /"url":"http:\/\/[^:]+:(\d+)/.exec(out)?.[1] : undefined
    if (url) url = `http://127.0.0.1:${url}`
  }
  if (!url) throw new Error(`no listening socket after 120 s: ${out}`)
  for (let i = 0; i < 600; i++) {
    if ((await fetch(`${url}/api/ready`)).status === 200) break
    await sleep(100)
  }
  // A few requests, then let the loops settle (JIT, lazy loads) before reading memory.
  for (let i = 0; i < 200; i++) await (await fetch(`${url}/api/ip/192.0.2.${i % 250}`)).text()
  await sleep(3000)
  const tree = [child.pid!, ...descendants(child.pid!)].map((pid) => ({ pid, ...memoryOf(pid) })).filter((p) => p.cmd.includes('runtime/main.ts'))
  const metrics = await (await fetch(`${url}/metrics`)).text()
  const heap = metric(metrics, 'infralens_nodejs_heap_size_used_bytes') || metric(metrics, 'nodejs_heap_size_used_bytes')
  const external = metric(metrics, 'infralens_nodejs_external_memory_bytes') || metric(metrics, 'nodejs_external_memory_bytes')
  const sum = (pick: (p: (typeof tree)[number]) => number) => tree.reduce((n, p) => n + pick(p), 0)
  const perProcess = tree.map((p) => `${p.rss.toFixed(0)}/${p.pss.toFixed(0)}`).join(', ')
  rows.push(`| ${workers} | ${tree.length} | ${sum((p) => p.rss).toFixed(0)} | ${sum((p) => p.pss).toFixed(0)} | ${perProcess} | ${heap.toFixed(0)} | ${external.toFixed(0)} |`)
  console.error(`workers=${workers}: ${rows.at(-1)}`)
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
}
rmSync(dir, { recursive: true, force: true })

console.log(`\n${vrpCount} synthetic VRPs, bundled IP data; MiB\n`)
console.log('| workers | processes | RSS total | PSS total | per process RSS/PSS (primary first) | JS heap used (all workers) | external (all workers) |')
console.log('|---|---|---|---|---|---|---|')
for (const row of rows) console.log(row)

