import { spawnSync } from 'node:child_process'
import { bindEnv } from './bind-env.ts'

// delv (bind9-dnsutils): BIND's validator as a command. Pointed at a server with a
// trust anchor file, it validates like named would and says so on its ';' lines.

export type DelvStatus = 'secure' | 'insecure' | 'bogus' | 'indeterminate'

export interface DelvResult {
  status: DelvStatus
  /** Its comment lines (verdicts, validation errors), for messages. */
  lines: string[]
}

export function delvAvailable(): boolean {
  return spawnSync('delv', ['-v'], { env: bindEnv() }).status === 0
}

/**
 * `delv -a <anchors> +root=<root> @host -p port name type`. The verdict of a CNAME
 * chain is its weakest link, as delv prints one line per RRset it validated.
 */
export function delv(server: { host: string; port: number }, anchorFile: string, name: string, type = 'A', root = '.'): DelvResult {
  const out = spawnSync('delv', ['-a', anchorFile, `+root=${root}`, `@${server.host}`, '-p', String(server.port), name, type, '+nocrypto'], {
    env: bindEnv(),
    encoding: 'utf8',
    timeout: 20_000,
  })
  const lines = `${out.stdout}\n${out.stderr}`.split('\n').filter((l) => l.startsWith(';'))
  // "ncache nxdomain/nxrrset" follows a validated negative answer; any other failure is a validation failure
  if (lines.some((l) => /resolution failed: (?!ncache)/.test(l))) return { status: 'bogus', lines }
  const verdicts = lines.filter((l) => /^; (negative response, )?(fully validated|unsigned answer)/.test(l))
  if (verdicts.some((l) => l.includes('unsigned answer'))) return { status: 'insecure', lines }
  if (verdicts.some((l) => l.includes('fully validated'))) return { status: 'secure', lines }
  return { status: 'indeterminate', lines }
}
