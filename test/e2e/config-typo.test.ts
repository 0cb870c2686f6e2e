import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { HERMETIC_ENV } from '../support/hermetic-env.ts'

describe('npm start with a misspelt setting', () => {
  it('INFRALENS_DNS_RESOLVER (for INFRALENS_DNS_RESOLVERS) stops start-up: exit 1, the closest name on stderr', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...HERMETIC_ENV, PORT: '0', HOST: '127.0.0.1', INFRALENS_DNS_RESOLVER: '192.0.2.53' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    // Started anyway, it would listen and never exit by itself: stop it then.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    clearTimeout(timer)
    expect(out).not.toContain('infralens listening')
    expect(code).toBe(1)
    expect(err).toContain('Unknown setting INFRALENS_DNS_RESOLVER; did you mean INFRALENS_DNS_RESOLVERS?')
  })
})
