import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bindEnv } from './bind-env.ts'

// A DNSSEC tree signed at test time by BIND's own signer (dnssec-keygen,
// dnssec-signzone, dnssec-dsfromkey), for zones whose data is only known when the
// test runs (TLSA records of certificates made per run). A root "." delegates each
// child zone, with a DS when the child is signed; the trust anchor is the root KSK's
// DS, as a file for INFRALENS_TRUST_ANCHORS and a trust-anchors block for delv -a.
// Signatures run 2025-2045, like test/fixtures/dnssec (scripts/gen-dnssec-fixtures.sh).

export interface ChildZone {
  /** Without the trailing dot, e.g. "dane". */
  origin: string
  /** The zone's records ($ORIGIN and $TTL included), unsigned. */
  text: string
  signed: boolean
  /** Owner names (fully qualified, with the dot) whose RRSIG over this type is altered after signing: a bogus RRset on purpose. */
  corrupt?: Array<{ owner: string; type: string }>
  /** The root publishes the DS of another key, one the zone does not have: a stale DS on purpose. */
  staleDs?: boolean
}

export interface SignOptions {
  /** The address of ns.root-servers.test, which serves every zone of the tree. Default 127.0.0.1. */
  nsAddress?: string
}

export interface SignedTree {
  /** Zone texts by origin ("." for the root), for startBind. */
  zones: Record<string, string>
  /** The DS record the root publishes for each signed child, by origin (dnssec-dsfromkey's line). */
  ds: Record<string, string>
  /** INFRALENS_TRUST_ANCHORS file. */
  anchorDs: string
  /** delv -a file. */
  anchorConf: string
  close(): void
}

const INCEPTION = '20250101000000'
const EXPIRATION = '20450101000000'

function run(cmd: string, args: string[], cwd: string): string {
  const out = spawnSync(cmd, args, { cwd, env: bindEnv(), encoding: 'utf8' })
  if (out.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${out.stderr}`)
  return out.stdout.trim()
}

function signZone(dir: string, origin: string, text: string): { signed: string; ds: string } {
  const name = origin === '.' ? '.' : `${origin}.`
  const ksk = run('dnssec-keygen', ['-q', '-K', dir, '-a', 'ECDSAP256SHA256', '-f', 'KSK', '-n', 'ZONE', name], dir)
  const zsk = run('dnssec-keygen', ['-q', '-K', dir, '-a', 'ECDSAP256SHA256', '-n', 'ZONE', name], dir)
  const file = join(dir, `${origin === '.' ? 'root' : origin}.zone`)
  writeFileSync(`${file}.in`, [text, readFileSync(join(dir, `${ksk}.key`), 'utf8'), readFileSync(join(dir, `${zsk}.key`), 'utf8')].join('\n'))
  run('dnssec-signzone', ['-q', '-K', dir, '-o', name, '-s', INCEPTION, '-e', EXPIRATION, '-O', 'full', '-f', file, `${file}.in`, `${ksk}.key`, `${zsk}.key`], dir)
  const ds = run('dnssec-dsfromkey', ['-2', join(dir, `${ksk}.key`)], dir)
  return { signed: readFileSync(file, 'utf8'), ds }
}

/** One base64 character of each matching RRSIG changed: the signature no longer verifies. */
function corrupt(zone: string, targets: ReadonlyArray<{ owner: string; type: string }>): string {
  return zone
    .split('\n')
    .map((line) => {
      const f = line.trim().split(/\s+/)
      if (f[3] !== 'RRSIG' || !targets.some((t) => t.owner === f[0] && t.type === f[4])) return line
      const chunk = f[12]!
      f[12] = `${chunk.slice(0, 4)}${chunk[4] === 'A' ? 'B' : 'A'}${chunk.slice(5)}`
      return f.join(' ')
    })
    .join('\n')
}

/** The DS of a key made for the zone and never published in it. */
function strayDs(dir: string, origin: string): string {
  const key = run('dnssec-keygen', ['-q', '-K', dir, '-a', 'ECDSAP256SHA256', '-f', 'KSK', '-n', 'ZONE', `${origin}.`], dir)
  return run('dnssec-dsfromkey', ['-2', join(dir, `${key}.key`)], dir)
}

export function signTree(children: readonly ChildZone[], options: SignOptions = {}): SignedTree {
  const dir = mkdtempSync(join(tmpdir(), 'infralens-signed-'))
  try {
    const zones: Record<string, string> = {}
    const published: Record<string, string> = {}
    const delegations: string[] = []
    for (const child of children) {
      delegations.push(`${child.origin}. IN NS ns.root-servers.test.`)
      if (!child.signed) {
        zones[child.origin] = child.text
        continue
      }
      const { signed, ds } = signZone(dir, child.origin, child.text)
      zones[child.origin] = child.corrupt ? corrupt(signed, child.corrupt) : signed
      published[child.origin] = child.staleDs ? strayDs(dir, child.origin) : ds
      delegations.push(published[child.origin]!)
    }
    const root = `$ORIGIN .\n$TTL 300\n@ IN SOA ns.root-servers.test. hostmaster.root-servers.test. 1 3600 900 604800 60\n@ IN NS ns.root-servers.test.\nns.root-servers.test. IN A ${options.nsAddress ?? '127.0.0.1'}\n${delegations.join('\n')}\n`
    const { signed, ds } = signZone(dir, '.', root)
    zones['.'] = signed
    const [, , , keyTag, alg, digestType, ...digest] = ds.split(/\s+/)
    const anchorDs = join(dir, 'root-anchor.ds')
    writeFileSync(anchorDs, `; trust anchor of the tree signed for this test run\n${ds}\n`)
    const anchorConf = join(dir, 'root-anchor.conf')
    writeFileSync(anchorConf, `trust-anchors {\n  . static-ds ${keyTag} ${alg} ${digestType} "${digest.join('')}";\n};\n`)
    return { zones, ds: published, anchorDs, anchorConf, close: () => rmSync(dir, { recursive: true, force: true }) }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}
