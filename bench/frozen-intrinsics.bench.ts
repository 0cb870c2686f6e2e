import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { JsonBytes, jsonPiece } from '../runtime/json-bytes.ts'
import { freezeIntrinsics, intrinsicsFrozen } from '../runtime/harden.ts'

// npx tsx bench/frozen-intrinsics.bench.ts [--rounds 5]
//
// What locking the built-in prototypes (runtime/harden.ts) costs code that writes
// bytes: the JSON byte writer of ip/bulk (runtime/json-bytes.ts) and a plain
// Uint8Array store loop, and regexp split (a text/plain body's lines), each in a fresh process per mode, alternating:
//   none    nothing frozen;
//   freeze  Object.freeze on every prototype harden.ts locks (the way it was done
//           until 2026-11-26);
//   locked  freezeIntrinsics() as the service runs it (Object.prototype's
//           properties read-only one by one, the other prototypes frozen but the
//           typed-array ones, which are sealed, and RegExp.prototype, untouched).
// CPU ms of the measured round (the last of --rounds), medians over the rounds of
// processes. Prints one JSON report.

const MODE = process.env.FROZEN_BENCH_MODE
const PIECE = jsonPiece(',"as_name":"EXAMPLE-NET Example"')
const LINES = Array.from({ length: 100_000 }, (_, i) => `198.51.100.${i % 256}`).join('\n')

function measure(): Record<string, number> {
  const cpu = (work: () => void): number => {
    let ms = 0
    for (let r = 0; r < 4; r++) {
      const started = process.cpuUsage()
      work()
      const used = process.cpuUsage(started)
      ms = (used.user + used.system) / 1000
    }
    return Math.round(ms)
  }
  return {
    writer_bytes: cpu(() => {
      const out = new JsonBytes()
      for (let i = 0; i < 800_000; i++) out.bytes(PIECE)
      out.finish()
    }),
    writer_uint: cpu(() => {
      const out = new JsonBytes()
      for (let i = 0; i < 800_000; i++) out.uint(64_496 + i)
      out.finish()
    }),
    regexp_split_100k_lines: cpu(() => {
      LINES.split(/\r?\n/)
    }),
    uint8_store: cpu(() => {
      const target = { bytes: new Uint8Array(1 << 20), at: 0 }
      for (let i = 0; i < 20_000_000; i++) {
        if (target.at >= target.bytes.length) target.at = 0
        target.bytes[target.at++] = i & 0xff
      }
    }),
  }
}

if (MODE !== undefined) {
  if (MODE === 'freeze') {
    freezeIntrinsics() // to learn the list, then the old way on top: Object.freeze each
    for (const p of [Object.prototype, Array.prototype, RegExp.prototype, Object.getPrototypeOf(Uint8Array.prototype) as object, Uint8Array.prototype]) Object.freeze(p)
  } else if (MODE === 'locked') freezeIntrinsics()
  if (MODE !== 'none' && !intrinsicsFrozen()) throw new Error('intrinsics are not locked')
  console.log(JSON.stringify(measure()))
} else {
  const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 5)
  const modes = ['none', 'freeze', 'locked'] as const
  const runs = new Map<string, Array<Record<string, number>>>(modes.map((m) => [m, []]))
  for (let r = 0; r < rounds; r++) {
    for (const mode of modes) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { env: { ...process.env, FROZEN_BENCH_MODE: mode }, encoding: 'utf8' })
      runs.get(mode)!.push(JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, number>)
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const report: Record<string, Record<string, number>> = {}
  for (const [mode, list] of runs) report[mode] = Object.fromEntries(Object.keys(list[0]!).map((k) => [k, median(list.map((x) => x[k]!))]))
  console.log(JSON.stringify({ node: process.version, rounds, cpu_ms_median: report }, null, 2))
}
