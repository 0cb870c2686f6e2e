import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'

// Defence in depth (issue 18): runtime/main.ts freezes the built-in prototypes once
// the service listens (runtime/harden.ts). This shows it breaks no dependency on
// any path the API reference exercises: every endpoint's example in every format
// and every documented error, with the prototypes frozen before the service is
// even built (test/hardening/frozen-service.ts, in a child process so the test
// runner itself stays unfrozen), and that a write to a frozen prototype cannot
// take effect.

describe('frozen built-in prototypes', () => {
  it('every example, format and error answers as usual with them frozen', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test/hardening/frozen-service.ts')], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 })
    expect(run.status, run.stderr).toBe(0)
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { frozen: boolean; failures: string[] }
    expect(result.failures).toEqual([])
    expect(result.frozen).toBe(true)
  }, 300_000)

  it('a frozen prototype refuses a new property (the shape of a pollution gadget)', () => {
    const script = `
      import { freezeIntrinsics } from './runtime/harden.ts'
      freezeIntrinsics()
      // A module is strict code: a write to a frozen object throws.
      const attempts = [
        () => { Object.getPrototypeOf({}).polluted = true },
        () => { Object.defineProperty(Array.prototype, 'polluted', { value: 1 }) },
        () => { Object.prototype.toString = () => 'x' },
        () => { delete Map.prototype.get },
        () => { Object.defineProperty(Object.prototype, 'hasOwnProperty', { get: () => 1 }) },
        // The typed-array prototypes are sealed (bench/frozen-intrinsics.bench.ts: read-only
        // properties there slow every element store): nothing added or removed.
        () => { Uint8Array.prototype.polluted = true },
        () => { delete Object.getPrototypeOf(Uint8Array.prototype).subarray },
      ]
      const threw = attempts.map((attempt) => { try { attempt(); return false } catch { return true } })
      const clean = ({}).polluted === undefined && [].polluted === undefined && ({}).toString() === '[object Object]' && new Uint8Array(1).polluted === undefined && typeof new Map().get === 'function'
      console.log(JSON.stringify({ threw, clean }))
    `
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout.trim())).toEqual({ threw: [true, true, true, true, true, true, true], clean: true })
  })
})
