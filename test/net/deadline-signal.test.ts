import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { deadlineSignal } from '../../runtime/net/deadline-signal.ts'

// The deadline must fire even when nothing but the combined signal is left and
// the garbage collector runs in between (Node 20 holds AbortSignal.any's sources
// weakly). Run in a child with --expose-gc so gc() can be forced.
const script = `
import { deadlineSignal } from ${JSON.stringify(join(ROOT, 'runtime', 'net', 'deadline-signal.ts'))}
const parent = new AbortController()
const signals = Array.from({ length: 50 }, () => deadlineSignal(100, parent.signal))
for (let i = 0; i < 20; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 15)) }
console.log(JSON.stringify({ aborted: signals.filter((s) => s.aborted).length, reason: signals[0].reason?.name }))
process.exit(0)
`

describe('deadlineSignal', () => {
  it('fires after its timeout even when only the combined signal is referenced and GC runs', () => {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual({ aborted: 50, reason: 'TimeoutError' })
  })

  it('aborts with the caller when the caller aborts first, and is the plain timeout without a caller', async () => {
    const parent = new AbortController()
    const signal = deadlineSignal(10_000, parent.signal)
    parent.abort(new Error('client went away'))
    expect(signal.aborted).toBe(true)
    expect((signal.reason as Error).message).toBe('client went away')
    const alone = deadlineSignal(20)
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(alone.aborted).toBe(true)
  })
})
