import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// npx tsx bench/instructions.ts [--path /api/uuid] [--servers bare,floor,pipeline,service] [--warm 10000] [--requests 4000]
// Instructions per request of each bench server under valgrind's callgrind, driven
// through in-memory sockets (bench/inmem-driver.ts): no kernel, no load generator,
// so the count does not swing with the box the way req/s does. V8 compiles
// optimized code on the main thread here (--no-concurrent-recompilation): with its
// background compile threads, which callgrind serializes, how much of the warm-up
// ran optimized code varied from run to run, and the count with it (±20 %).
// Even so, repeated runs of one build still differ by up to ~10 % (pipeline 139k
// and 151k on 11-24 evening; GC timing and V8's tiering are not fixed by the flag,
// and --single-threaded --predictable made it worse): run each side more than once
// and trust only differences well beyond that.
// `service` is bench/servers/service-server.ts: the pipeline behind runtime/server.ts's
// listen() (limits, request guard, drain bookkeeping), as `npm start` serves in one process.
// Needs valgrind (apt-get install valgrind); takes minutes (callgrind runs ~50x
// slower than native).

const HERE = fileURLToPath(new URL('.', import.meta.url))
// By URL: valgrind runs each server from a scratch directory (its dump files land there).
const TSX = import.meta.resolve('tsx')
const args = new Map<string, string>()
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1]!)
const path = args.get('path') ?? '/api/uuid'
const servers = (args.get('servers') ?? 'bare,floor,pipeline').split(',')
const warm = Number(args.get('warm') ?? 10_000)
const requests = Number(args.get('requests') ?? 4_000)

const rows: Record<string, number> = {}
for (const name of servers) {
  const dir = mkdtempSync(join(tmpdir(), 'infralens-callgrind-'))
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--smc-check=all-non-file', '--dump-instr=no', process.execPath, '--no-concurrent-recompilation', '--import', TSX, '--import', join(HERE, 'inmem-driver.ts'), join(HERE, 'servers', `${name}-server.ts`)],
    {
      cwd: dir,
      env: { ...process.env, IM_CALLGRIND: '1', IM_W: String(warm), IM_N: String(requests), IM_PATH: path, BODY_BYTES: process.env.BODY_BYTES ?? '287', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    },
  )
  const dump = readdirSync(dir).find((f) => /^callgrind\.out\.\d+\.1$/.test(f))
  if (run.status !== 0 || !dump) throw new Error(`${name}: callgrind run failed (${run.status}): ${run.stderr.toString().slice(-2000)}`)
  const total = Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, dump), 'utf8'))![1])
  rows[name] = Math.round(total / requests)
  rmSync(dir, { recursive: true, force: true })
  console.error(`${name}: ${rows[name]} instructions per request`)
}
console.log(JSON.stringify({ path, warm, requests, instructions_per_request: rows }, null, 2))
