import { spawn, spawnSync } from 'node:child_process'
import { bindEnv } from './bind-env.ts'
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'

// A real BIND 9 authoritative server on 127.0.0.1 (named only listens on addresses
// an interface has, so not on other 127/8 addresses) and a free port, for interop tests:
// what the service reports must equal what dig gets from the same server.

export interface BindServer {
  host: string
  port: number
  close(): Promise<void>
}

export function bindAvailable(): boolean {
  return spawnSync('named', ['-v'], { env: bindEnv() }).status === 0 && spawnSync('dig', ['-v'], { env: bindEnv() }).status === 0
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, host, () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

export interface BindOptions {
  /** A fixed port (53 for name servers the service finds through NS records); a free one otherwise. */
  port?: number
  /** Replaces `recursion no;` (e.g. "recursion yes; allow-recursion { any; };": an open resolver on purpose). */
  recursion?: string
  /** Added to every zone block (e.g. "allow-transfer { any; };": AXFR for anyone on purpose). */
  zoneOptions?: string
}

/**
 * `host`: 127.0.0.1, or another loopback address an interface has (named listens
 * only on those; test/support/loopback-addresses.ts adds them in the test's namespace),
 * or ::1 (IPv6 only then).
 */
export async function startBind(zones: Record<string, string>, host = '127.0.0.1', options: BindOptions = {}): Promise<BindServer> {
  const dir = await mkdtemp(join(tmpdir(), 'infralens-bind-'))
  const port = options.port ?? (await freePort(host))
  const zoneBlocks: string[] = []
  for (const [origin, text] of Object.entries(zones)) {
    const file = join(dir, `${origin}.zone`)
    await writeFile(file, text)
    zoneBlocks.push(`zone "${origin}" { type primary; file "${file}"; ${options.zoneOptions ?? ''} };`)
  }
  await writeFile(
    join(dir, 'named.conf'),
    `options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  ${host.includes(':') ? `listen-on { none; };
  listen-on-v6 port ${port} { ${host}; };` : `listen-on port ${port} { ${host}; };
  listen-on-v6 { none; };`}
  ${options.recursion ?? 'recursion no;'}
  dnssec-validation no;
  notify no;
};
controls { };
${zoneBlocks.join('\n')}
`,
  )
  const child: ChildProcess = spawn('named', ['-g', '-c', join(dir, 'named.conf'), '-n', '1'], { stdio: ['ignore', 'pipe', 'pipe'], env: bindEnv() })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`named did not start:\n${output}`)), 15_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      // the final "running" line, not "running as:"/"running on" printed at start (before the sockets are up)
      if (/ running\s*$/m.test(output) && output.includes(`#${port}`)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`named exited with ${code}:\n${output}`))
    })
  })
  return {
    host,
    port,
    async close() {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** dig's answer section, one record per line, as `name ttl class type rdata`. */
export function dig(server: BindServer, name: string, type: string): string[] {
  return digAnswer(server, [name, type])
}

/** `dig -x ip`: the PTR answer for an IPv4 or IPv6 address, with dig building the reverse name. */
export function digReverse(server: BindServer, ip: string): string[] {
  return digAnswer(server, ['-x', ip])
}

function digAnswer(server: BindServer, query: string[]): string[] {
  const out = spawnSync('dig', [`@${server.host}`, '-p', String(server.port), ...query, '+norecurse', '+noall', '+answer', '+nocookie', '+time=2', '+tries=1'], {
    env: bindEnv(),
    encoding: 'utf8',
  })
  if (out.status !== 0) throw new Error(`dig failed: ${out.stderr}`)
  return out.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith(';'))
}
