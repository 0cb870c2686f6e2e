import '../test/support/loopback-only.ts'
import { spawnSync } from 'node:child_process'
import { Writable } from 'node:stream'
import { createApp } from '../runtime/app.ts'
import { HERMETIC_ENV } from '../test/support/hermetic-env.ts'
import { suiteByName } from '../plugins/tls/cipher-suites.ts'
import type { OpensslServerOptions } from '../test/support/tls-servers.ts'
import { runSslscan, runTestssl, startOpensslServer, toolAvailable } from '../test/support/tls-servers.ts'

// npm run bench:tls [-- --rounds N] [--testssl-rounds N] [--smoke]
// (--smoke, part of `npm run bench:smoke`: the first configuration only, 2 rounds
// of the service and sslscan, 1 of testssl — about 20 s, nearly all testssl)
//
// Cipher enumeration time of GET /api/tls/ciphers/{host} (in-process, cache off)
// against sslscan and testssl.sh -E on the same `openssl s_server`, in the same
// run, one tool at a time (s_server serves one connection at a time), with the
// accepted suites of all three compared. Goal (issue 9): the service's median at
// most 0.3 of testssl's, with the same suites; the team's target: no slower than
// sslscan. Exits 1 when a goal is missed or the suite sets differ.

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const smoke = process.argv.includes('--smoke')
const rounds = arg('--rounds', smoke ? 2 : 7)
const testsslRounds = arg('--testssl-rounds', smoke ? 1 : 3)

for (const [tool, args] of [['openssl', ['version']], ['sslscan', ['--version']], ['testssl', ['--version']]] as const) {
  if (!toolAvailable(tool, [...args])) throw new Error(`${tool} is needed: apt-get install openssl sslscan testssl.sh (.ci/run does this)`)
}

/** The version a tool reports about itself (ANSI colours stripped), or "unknown". */
function versionOf(command: string, args: string[], pattern: RegExp): string {
  const out = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 })
  const text = `${out.stdout ?? ''}${out.stderr ?? ''}`.replace(/\x1b\[[0-9;]*m/g, '')
  return pattern.exec(text)?.[1] ?? 'unknown'
}
const versions = {
  openssl: versionOf('openssl', ['version'], /OpenSSL (\S+)/),
  sslscan: versionOf('sslscan', ['--version'], /^\s*(\d+\.\d+\S*)/m),
  testssl: versionOf('testssl', ['--version'], /testssl(?:\.sh)?\s+(\d\S*)/),
}

const CONFIGS: Array<[string, OpensslServerOptions]> = [
  [
    'TLS 1.2 only, 6 suites',
    {
      cipher: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA:AES128-GCM-SHA256',
      ciphersuites: '',
      minProtocol: 'TLSv1.2',
      maxProtocol: 'TLSv1.2',
    },
  ],
  ['s_server defaults, TLS 1.2 + 1.3, 23 suites', { cipher: 'DEFAULT' }],
  ['DEFAULT at SECLEVEL=0: TLS 1.0 to 1.3', { cipher: 'DEFAULT:@SECLEVEL=0', minProtocol: 'TLSv1' }],
]

const service = await createApp({
  env: { ...HERMETIC_ENV, LOG_LEVEL: 'error', INFRALENS_ALLOW_PRIVATE_TARGETS: 'true', INFRALENS_CACHE_MAX_ENTRIES: '0', INFRALENS_RATE_LIMITS: 'anonymous=1000000' },
  logStream: new Writable({ write: (_chunk, _encoding, done) => done() }),
})

async function serviceScan(target: string): Promise<{ ms: number; suites: string[]; probes: number }> {
  const started = performance.now()
  const res = await service.app.request(`/api/tls/ciphers/${target}`)
  const ms = performance.now() - started
  const body = (await res.json()) as { data?: { cipher_suites: Array<{ protocol: string; code: string }>; probes: number } }
  if (res.status !== 200 || !body.data) throw new Error(`the service answered ${res.status}: ${JSON.stringify(body)}`)
  return { ms, suites: body.data.cipher_suites.map((s) => `${s.protocol} 0x${Number.parseInt(s.code, 16).toString(16).padStart(4, '0')}`).sort(), probes: body.data.probes }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const hex = (code: number) => `0x${code.toString(16).padStart(4, '0')}`
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`)

let failed = false
const rows: string[] = []
for (const [title, options] of smoke ? CONFIGS.slice(0, 1) : CONFIGS) {
  const server = await startOpensslServer(options)
  try {
    await serviceScan(server.target) // warm-up: JIT, the trust store, the first probes
    const mine: number[] = []
    let mineSuites: string[] = []
    let probes = 0
    for (let i = 0; i < rounds; i++) {
      const r = await serviceScan(server.target)
      mine.push(r.ms)
      mineSuites = r.suites
      probes = r.probes
    }
    const sslscan: number[] = []
    let sslscanSuites: string[] = []
    for (let i = 0; i < rounds; i++) {
      const r = runSslscan(server.target)
      sslscan.push(r.ms)
      sslscanSuites = r.suites.map((s) => `${s.protocol} ${hex(suiteByName(s.name)?.code ?? -1)}`).sort()
    }
    const testssl: number[] = []
    let testsslSuites: string[] = []
    for (let i = 0; i < testsslRounds; i++) {
      const r = runTestssl(server.target)
      testssl.push(r.ms)
      testsslSuites = r.suites.map((s) => `${s.protocol} ${hex(s.code)}`).sort()
    }
    const same = JSON.stringify(mineSuites) === JSON.stringify(sslscanSuites) && JSON.stringify(mineSuites) === JSON.stringify(testsslSuites)
    const vsTestssl = median(mine) / median(testssl)
    const vsSslscan = median(mine) / median(sslscan)
    if (!same) {
      failed = true
      console.error(`${title}: suites differ\n  service: ${mineSuites.join(', ')}\n  sslscan: ${sslscanSuites.join(', ')}\n  testssl: ${testsslSuites.join(', ')}`)
    }
    if (vsTestssl > 0.3) failed = true
    rows.push(
      `| ${title} | ${mineSuites.length} | ${same ? 'yes' : '**no**'} | ${fmt(median(mine))} (${fmt(Math.min(...mine))}-${fmt(Math.max(...mine))}, ${probes} probes) | ${fmt(median(sslscan))} (${fmt(Math.min(...sslscan))}-${fmt(Math.max(...sslscan))}) | ${fmt(median(testssl))} (${fmt(Math.min(...testssl))}-${fmt(Math.max(...testssl))}) | ${vsSslscan.toFixed(3)} | ${vsTestssl.toFixed(3)} |`,
    )
  } finally {
    await server.close()
  }
}
await service.close()

console.log(`\nNode ${process.version}, OpenSSL ${versions.openssl} (s_server), sslscan ${versions.sslscan}, testssl ${versions.testssl}`)
console.log(`rounds: service and sslscan ${rounds} each (after one service warm-up), testssl -E ${testsslRounds}; medians (min-max)\n`)
console.log(`| s_server configuration | suites | same suites (service = sslscan = testssl) | service /api/tls/ciphers | sslscan ${versions.sslscan} | testssl ${versions.testssl} -E | service / sslscan | service / testssl |`)
console.log('|---|---|---|---|---|---|---|---|')
for (const row of rows) console.log(row)
if (failed) {
  console.error('\nFAILED: suites differ or the service took more than 0.3 of testssl\'s time')
  process.exitCode = 1
}
