// The TLS part of the loopback internet: HTTPS servers on 127.0.0.x (and ::1),
// each showing one way a deployment can be right or wrong, under names in the
// test zone tls.test, with certificates from a test PKI (root -> intermediate ->
// leaves; tls-certs.ts) whose root the app trusts through INFRALENS_EXTRA_CA_FILE.

import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttpsServer } from 'node:https'
import type { Server } from 'node:https'
import { createServer as createNetServer } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { DEFAULT_CIPHERS } from 'node:tls'
import type { SecureVersion } from 'node:tls'
import type { CertSpec, Issued, KeyPair } from './tls-certs.ts'
import { issue, keyPair, ocspResponse } from './tls-certs.ts'
import type { WorldTime } from './world-time.ts'
import { hostTime } from './world-time.ts'

export const TLS_ZONE_ORIGIN = 'tls.test'
const DAY = 86_400_000

/** Mozilla's "intermediate" TLS 1.2 suites (TLS 1.3 suites are always on). */
export const MOZILLA_INTERMEDIATE =
  'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305'

export const HSTS_HEADER = 'max-age=63072000; includeSubDomains; preload'

export interface TestPki {
  root: Issued
  intermediate: Issued
  /** PEM file with the root, for INFRALENS_EXTRA_CA_FILE. */
  caFile: string
  env: Record<string, string>
  close(): void
}

/**
 * `alsoTrust`: PEM files of other test roots to put in the same INFRALENS_EXTRA_CA_FILE.
 * `time`: when the world lives (world-time.ts); its leaves are dated by leafFor's caller.
 */
export function createTestPki(alsoTrust: readonly string[] = [], time: WorldTime = hostTime()): TestPki {
  const root = issue({
    subject: { cn: 'Infralens Test Root CA', o: 'Infralens Tests', c: 'US' },
    ca: true,
    key: keyPair({ type: 'rsa', bits: 2048 }, true),
    ...time.ca,
  })
  const intermediate = issue({
    subject: { cn: 'Infralens Test Issuing CA', o: 'Infralens Tests', c: 'US' },
    issuer: root,
    ca: true,
    pathLength: 0,
    key: keyPair({ type: 'rsa', bits: 2048 }, true),
    ...time.ca,
    caIssuersUrl: 'http://pki.tls.test/root.crt',
  })
  const dir = mkdtempSync(join(tmpdir(), 'infralens-tls-'))
  const caFile = join(dir, 'test-root.pem')
  writeFileSync(caFile, [root.pem, ...alsoTrust.map((file) => readFileSync(file, 'utf8'))].join('\n'))
  return { root, intermediate, caFile, env: { INFRALENS_EXTRA_CA_FILE: caFile }, close: () => rmSync(dir, { recursive: true, force: true }) }
}

export interface ServerSpec {
  address: string
  port?: number
  leaf: Issued
  /** Certificates sent after the leaf, in this order. */
  chain: Issued[]
  minVersion?: SecureVersion
  maxVersion?: SecureVersion
  ciphers?: string
  hsts?: string
  /** A DER OCSP response to staple. */
  ocsp?: Buffer
  /** false: the client's suite order decides (node:tls servers default to their own). */
  honorCipherOrder?: boolean
}

export interface TlsTestServer {
  address: string
  port: number
  server: Server
  close(): Promise<void>
}

export async function startTlsServer(spec: ServerSpec): Promise<TlsTestServer> {
  const sockets = new Set<Socket>()
  const server = createHttpsServer(
    {
      key: spec.leaf.key.pem,
      cert: [spec.leaf, ...spec.chain].map((c) => c.pem).join(''),
      minVersion: spec.minVersion ?? 'TLSv1.2',
      maxVersion: spec.maxVersion ?? 'TLSv1.3',
      // SECLEVEL=0: OpenSSL 3 otherwise refuses TLS 1.0/1.1 and 1024-bit keys, which some servers here must offer.
      ciphers: `${spec.ciphers ?? DEFAULT_CIPHERS}:@SECLEVEL=0`,
      ...(spec.honorCipherOrder !== undefined ? { honorCipherOrder: spec.honorCipherOrder } : {}),
    },
    (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', ...(spec.hsts ? { 'strict-transport-security': spec.hsts } : {}) })
      res.end('hello from the loopback internet\n')
    },
  )
  if (spec.ocsp) {
    const staple = spec.ocsp
    server.on('OCSPRequest', (_cert: Buffer, _issuer: Buffer, done: (error: Error | null, response?: Buffer) => void) => done(null, staple))
  }
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  server.on('tlsClientError', () => {}) // probes hang up after the ServerHello by design
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(spec.port ?? 0, spec.address, () => resolve())
  })
  return {
    address: spec.address,
    port: (server.address() as AddressInfo).port,
    server,
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The servers of the TLS test world, by what they show. */
export const SERVER_NAMES = [
  'valid',
  'expired',
  'wrong-name',
  'self-signed',
  'incomplete',
  'wildcard',
  'ip-san',
  'ipv6',
  'rsa1024',
  'ecdsa',
  'tls12',
  'tls13',
  'legacy',
  'misordered',
  'client-order',
  'not-yet-valid',
  'untrusted',
] as const
export type ServerName = (typeof SERVER_NAMES)[number]

export interface WorldServer extends TlsTestServer {
  /** The DNS name to ask for (for ip-san and ipv6: the address itself). */
  host: string
  /** host:port (IPv6 bracketed), as the endpoints take it. */
  target: string
}

export interface TlsWorld {
  pki: TestPki
  servers: Record<ServerName, WorldServer>
  /** Master file for tls.test: every server's name (and *.wild) -> its address. */
  zone: string
  env: Record<string, string>
  close(): Promise<void>
}

/** A leaf from the test PKI's intermediate with the usual AIA, CRL and OCSP URLs. */
export function leafFor(pki: TestPki, cn: string, extra: Partial<Parameters<typeof issue>[0]> = {}): Issued {
  return issue({ subject: { cn }, issuer: pki.intermediate, dns: [cn], ocspUrl: 'http://ocsp.tls.test', crlUrls: ['http://crl.tls.test/issuing.crl'], caIssuersUrl: 'http://pki.tls.test/issuing.crt', ...extra })
}

export async function startTlsWorld(): Promise<TlsWorld> {
  const pki = createTestPki()
  const now = Date.now()
  const at = (n: number) => `127.0.0.${n}`
  const name = (label: string) => `${label}.${TLS_ZONE_ORIGIN}`
  const { intermediate, root } = pki
  const valid = leafFor(pki, name('valid'), { dns: [name('valid'), name('www.valid')], scts: 2, mustStaple: true })
  const selfKey: KeyPair = keyPair()
  // A complete chain, root included, from a CA the app does not trust.
  const strangerRoot = issue({ subject: { cn: 'Stranger Root CA', o: 'Nobody Trusts Us' }, ca: true, key: keyPair({ type: 'rsa', bits: 2048 }, true), notBefore: new Date(now - 365 * DAY), notAfter: new Date(now + 3650 * DAY) })
  const strangerIssuer = issue({ subject: { cn: 'Stranger Issuing CA', o: 'Nobody Trusts Us' }, issuer: strangerRoot, ca: true, pathLength: 0, notBefore: new Date(now - 365 * DAY), notAfter: new Date(now + 1825 * DAY) })
  const specs: Record<ServerName, ServerSpec & { host: string }> = {
    valid: { host: name('valid'), address: at(61), leaf: valid, chain: [intermediate], ciphers: MOZILLA_INTERMEDIATE, hsts: HSTS_HEADER, ocsp: ocspResponse(valid, intermediate) },
    expired: { host: name('expired'), address: at(62), leaf: leafFor(pki, name('expired'), { notBefore: new Date(now - 100 * DAY), notAfter: new Date(now - 10 * DAY) }), chain: [intermediate] },
    'wrong-name': { host: name('wrong-name'), address: at(63), leaf: leafFor(pki, 'other.example', { dns: ['other.example', 'www.other.example'] }), chain: [intermediate] },
    'self-signed': { host: name('self-signed'), address: at(64), leaf: issue({ subject: { cn: name('self-signed') }, dns: [name('self-signed')], key: selfKey }), chain: [] },
    incomplete: { host: name('incomplete'), address: at(65), leaf: leafFor(pki, name('incomplete')), chain: [] },
    wildcard: { host: name('app.wild'), address: at(66), leaf: leafFor(pki, `*.${name('wild')}`, { dns: [`*.${name('wild')}`] }), chain: [intermediate] },
    'ip-san': { host: at(67), address: at(67), leaf: leafFor(pki, at(67), { dns: [], ips: [at(67)] }), chain: [intermediate] },
    ipv6: { host: '::1', address: '::1', leaf: leafFor(pki, 'ipv6 loopback', { dns: [], ips: ['::1'] }), chain: [intermediate] },
    rsa1024: { host: name('rsa1024'), address: at(68), leaf: leafFor(pki, name('rsa1024'), { key: keyPair({ type: 'rsa', bits: 1024 }) }), chain: [intermediate] },
    ecdsa: { host: name('ecdsa'), address: at(69), leaf: leafFor(pki, name('ecdsa'), { key: keyPair({ type: 'ec', curve: 'P-256' }) }), chain: [intermediate] },
    tls12: { host: name('tls12'), address: at(70), leaf: leafFor(pki, name('tls12')), chain: [intermediate], maxVersion: 'TLSv1.2' },
    tls13: { host: name('tls13'), address: at(71), leaf: leafFor(pki, name('tls13')), chain: [intermediate], minVersion: 'TLSv1.3' },
    legacy: {
      host: name('legacy'),
      address: at(72),
      leaf: leafFor(pki, name('legacy')),
      chain: [intermediate],
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.2',
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA:AES128-SHA:AES256-SHA',
    },
    misordered: { host: name('misordered'), address: at(73), leaf: leafFor(pki, name('misordered')), chain: [root, intermediate] },
    // The client's order decides, and a static-RSA CBC suite is on offer.
    'client-order': {
      host: name('client-order'),
      address: at(74),
      leaf: leafFor(pki, name('client-order')),
      chain: [intermediate],
      maxVersion: 'TLSv1.2',
      ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:AES128-SHA',
      honorCipherOrder: false,
    },
    'not-yet-valid': { host: name('not-yet-valid'), address: at(75), leaf: leafFor(pki, name('not-yet-valid'), { notBefore: new Date(now + 10 * DAY), notAfter: new Date(now + 100 * DAY) }), chain: [intermediate] },
    untrusted: { host: name('untrusted'), address: at(76), leaf: issue({ subject: { cn: name('untrusted') }, issuer: strangerIssuer, dns: [name('untrusted')] }), chain: [strangerIssuer, strangerRoot] },
  }
  const started = await Promise.all(SERVER_NAMES.map(async (key) => [key, await startTlsServer(specs[key])] as const))
  const servers = {} as Record<ServerName, WorldServer>
  for (const [key, server] of started) {
    const host = specs[key].host
    servers[key] = { ...server, host, target: host.includes(':') ? `[${host}]:${server.port}` : `${host}:${server.port}` }
  }
  const records = SERVER_NAMES.filter((k) => k !== 'ipv6')
    .map((k) => {
      const label = k === 'wildcard' ? '*.wild' : k
      return `${label} IN A ${specs[k].address}`
    })
    .join('\n')
  const zone = `
$ORIGIN ${TLS_ZONE_ORIGIN}.
$TTL 300
@ IN SOA ns1 hostmaster ( 1 3600 900 604800 60 )
@ IN NS ns1
ns1 IN A 127.0.0.53
${records}
`
  return {
    pki,
    servers,
    zone,
    env: { ...pki.env, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true' },
    async close() {
      await Promise.all(Object.values(servers).map((s) => s.close()))
      pki.close()
    },
  }
}

export const EXAMPLE_TLS_PORT = 8443

export interface ExampleTlsHost {
  /** The tls.test zone naming valid.tls.test. */
  zone: string
  env: Record<string, string>
  server: TlsTestServer
  close(): Promise<void>
}

/**
 * The host the TLS descriptors' examples name (valid.tls.test:8443): a fixed port
 * needs an address no other test file uses at the same time, so it listens on a
 * random 127.x.y.z. `alsoTrust` adds other fakes' roots to its CA file (the
 * service reads one INFRALENS_EXTRA_CA_FILE).
 */
export async function startExampleTlsHost(options: { alsoTrust?: readonly string[]; time?: WorldTime } = {}): Promise<ExampleTlsHost> {
  const time = options.time ?? hostTime()
  const pki = createTestPki(options.alsoTrust, time)
  const leaf = leafFor(pki, `valid.${TLS_ZONE_ORIGIN}`, { scts: 2, ...time.leaf })
  let server: TlsTestServer | null = null
  for (let attempt = 0; !server; attempt++) {
    const address = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`
    try {
      server = await startTlsServer({ address, port: EXAMPLE_TLS_PORT, leaf, chain: [pki.intermediate], ciphers: MOZILLA_INTERMEDIATE, hsts: HSTS_HEADER, ocsp: ocspResponse(leaf, pki.intermediate, 'good', 24, time.now) })
    } catch (error) {
      if (attempt > 5) throw error
    }
  }
  const running = server
  return {
    zone: `
$ORIGIN ${TLS_ZONE_ORIGIN}.
$TTL 300
@ IN SOA ns1 hostmaster ( 1 3600 900 604800 60 )
@ IN NS ns1
ns1 IN A 127.0.0.53
valid IN A ${running.address}
`,
    env: { ...pki.env, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true' },
    server: running,
    async close() {
      await running.close()
      pki.close()
    },
  }
}

// ---------------------------------------------------------------------------
// OpenSSL's s_server and the external scanners, for interop tests and the
// cipher-scan benchmark (Debian packages openssl, sslscan, testssl.sh; .ci/run
// installs them).

export interface OpensslServer {
  host: string
  port: number
  /** host:port */
  target: string
  close(): Promise<void>
}

export interface OpensslServerOptions {
  /** TLS <= 1.2 suites (OpenSSL cipher string; add `:@SECLEVEL=0` for TLS 1.0/1.1 and weak suites). */
  cipher: string
  /** TLS 1.3 suites; '' disables TLS 1.3 suites. */
  ciphersuites?: string
  minProtocol?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'
  maxProtocol?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'
  /** The server's suite order decides (-serverpref). */
  serverPreference?: boolean
  host?: string
  /** More s_server options, as given (-client_renegotiation, -no_ticket, -early_data, -groups, ...). */
  extra?: string[]
  /** false: no -www (s_server refuses -early_data with it); stdin is then held open so it keeps serving. */
  www?: boolean
  /** The leaf's key and dates (leafFor's defaults otherwise: RSA 2048, valid from a day ago for 90 days). */
  leaf?: Partial<CertSpec>
}

export function toolAvailable(command: string, args: string[] = ['--version']): boolean {
  // Only "not found" says it is missing: testssl.sh's --version alone takes ~10 s
  // on a busy 2-core box, and a timeout means it ran.
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 })
  return (result.error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT'
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer()
    probe.once('error', reject)
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/** `openssl s_server -www` with a known configuration (one connection at a time, as it serves). */
export async function startOpensslServer(o: OpensslServerOptions): Promise<OpensslServer> {
  const host = o.host ?? '127.0.0.1'
  const pki = createTestPki()
  const leaf = leafFor(pki, 'openssl.tls.test', o.leaf)
  writeFileSync(join(dirname(pki.caFile), 'server.pem'), leaf.key.pem + leaf.pem + pki.intermediate.pem)
  const port = await freePort(host)
  const args = ['s_server', ...(o.www === false ? [] : ['-www']), '-accept', `${host}:${port}`, '-cert', join(dirname(pki.caFile), 'server.pem'), '-cipher', o.cipher, '-ciphersuites', o.ciphersuites ?? 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256']
  if (o.minProtocol) args.push('-min_protocol', o.minProtocol)
  if (o.maxProtocol) args.push('-max_protocol', o.maxProtocol)
  if (o.serverPreference) args.push('-serverpref')
  if (o.extra) args.push(...o.extra)
  const child: ChildProcess = spawn('openssl', args, { stdio: [o.www === false ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`openssl s_server did not start:\n${output}`)), 10_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('ACCEPT')) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`openssl s_server exited with ${code}:\n${output}`))
    })
  })
  // Keep draining its output (it logs every connection) so the pipe never fills.
  child.stdout!.resume()
  child.stderr!.resume()
  return {
    host,
    port,
    target: `${host}:${port}`,
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
      pki.close()
    },
  }
}

/** Accepted suites as (protocol, OpenSSL name), protocols named as the service names them. */
export type SuiteSet = Array<{ protocol: string; name: string }>

const TOOL_PROTOCOLS: Record<string, string> = { SSLv3: 'SSLv3', 'TLSv1.0': 'TLSv1.0', 'TLSv1.1': 'TLSv1.1', 'TLSv1.2': 'TLSv1.2', 'TLSv1.3': 'TLSv1.3' }

/** sslscan's verdict: its "Preferred"/"Accepted" lines. */
export function runSslscan(target: string): { suites: SuiteSet; ms: number } {
  const started = performance.now()
  const out = spawnSync('sslscan', ['--no-colour', '--no-check-certificate', '--no-heartbleed', '--no-renegotiation', '--no-compression', '--no-fallback', '--no-groups', target], {
    encoding: 'utf8',
    timeout: 120_000,
  })
  const ms = performance.now() - started
  if (out.status !== 0) throw new Error(`sslscan failed: ${out.stderr}`)
  const suites: SuiteSet = []
  for (const line of out.stdout.split('\n')) {
    const m = /^(?:Preferred|Accepted)\s+(\S+)\s+\d+ bits\s+(\S+)/.exec(line.trim())
    if (m && TOOL_PROTOCOLS[m[1]!]) suites.push({ protocol: TOOL_PROTOCOLS[m[1]!]!, name: m[2]! })
  }
  return { suites, ms }
}

const TESTSSL_PROTOCOLS: Record<string, string> = { ssl3: 'SSLv3', tls1: 'TLSv1.0', tls1_1: 'TLSv1.1', tls1_2: 'TLSv1.2', tls1_3: 'TLSv1.3' }

/** testssl.sh -E (ciphers per protocol), no DNS lookups; suites as (protocol, IANA code). */
export function runTestssl(target: string, extra: string[] = []): { suites: Array<{ protocol: string; code: number }>; ms: number } {
  const dir = mkdtempSync(join(tmpdir(), 'infralens-testssl-'))
  try {
    const json = join(dir, 'out.json')
    const started = performance.now()
    const out = spawnSync('testssl', ['--quiet', '--color', '0', '--nodns', 'none', '--warnings', 'off', '-E', ...extra, '--jsonfile', json, target], { encoding: 'utf8', timeout: 300_000 })
    const ms = performance.now() - started
    if (out.error) throw out.error
    const entries = JSON.parse(readFileSync(json, 'utf8')) as Array<{ id: string; finding: string }>
    const suites: Array<{ protocol: string; code: number }> = []
    for (const e of entries) {
      const m = /^cipher-(ssl3|tls1|tls1_1|tls1_2|tls1_3)_x([0-9a-f]+)$/i.exec(e.id)
      if (m) suites.push({ protocol: TESTSSL_PROTOCOLS[m[1]!]!, code: Number.parseInt(m[2]!, 16) })
    }
    return { suites, ms }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
