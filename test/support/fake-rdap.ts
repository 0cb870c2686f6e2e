// The RDAP part of the loopback internet: one HTTP server on 127.0.0.43 standing in
// for data.iana.org and every RDAP server the recorded responses come from. A
// registry lives under its own host name as the first path segment
// (https://rdap.verisign.com/com/v1/domain/x -> <origin>/rdap.verisign.com/com/v1/domain/x);
// the bootstrap files it serves are rewritten so every base URL points here, and
// so are the registrar ("related") links inside answers. Registries answer like
// the real ones: by range for IPs and ASNs, 301 to the registry that holds an
// address they do not (RFC 7480 §5.2), RDAP error bodies with 404. Faults on
// demand (429, 5xx, black hole, garbage, reset, redirect, slow drip), and a log of requests.

import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { BlockList, isIP } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import { join } from 'node:path'
import { ROOT } from '../../runtime/app.ts'

export const RDAP_FIXTURES = join(ROOT, 'test', 'fixtures', 'rdap')

export type BootstrapFile = 'dns' | 'ipv4' | 'ipv6' | 'asn'

export type RdapFault =
  | { kind: 'status'; status: number; retryAfter?: string; body?: string }
  /** Accept the request and never answer (the client's deadline must fire). */
  | { kind: 'timeout' }
  /** 200 with a body that is not JSON. */
  | { kind: 'garbage'; body?: string; contentType?: string }
  /** Destroy the connection without an answer. */
  | { kind: 'reset' }
  | { kind: 'redirect'; location: string; status?: number }
  /** The real answer, trickled out `bytes` at a time every `intervalMs`. */
  | { kind: 'drip'; bytes?: number; intervalMs?: number }

export interface FaultRule {
  fault: RdapFault
  /** rdap (default): registry queries only; bootstrap: the bootstrap files; all: both. */
  scope?: 'rdap' | 'bootstrap' | 'all'
  /** Only paths matching this. */
  match?: RegExp
  /** Apply to this many matching requests, then disappear. */
  times?: number
}

export interface RdapLogEntry {
  method: string
  path: string
  accept: string | undefined
  fault: RdapFault['kind'] | null
}

export interface FakeRdap {
  /** http://127.0.0.43:<port> */
  origin: string
  /** Base of the rewritten bootstrap files. */
  bootstrapUrl: string
  /** Points the app here (and lets it connect to loopback). */
  env: Record<string, string>
  log: RdapLogEntry[]
  setFault(rule: FaultRule | RdapFault | null): void
  /** Serve a body at a path (a registry path like /rdap.example/domain/x.test), before the recorded ones. */
  serve(path: string, body: unknown, init?: { status?: number; contentType?: string; headers?: Record<string, string> }): void
  /** Replace a bootstrap file (served as given, no rewriting). */
  setBootstrap(kind: BootstrapFile, json: unknown): void
  /** A real RDAP URL as this fake serves it. */
  urlOf(realUrl: string): string
  close(): Promise<void>
}

type Json = Record<string, unknown>

const readJson = (file: string): Json => JSON.parse(readFileSync(join(RDAP_FIXTURES, file), 'utf8')) as Json

// Recorded answers by the registry base (host + path) that serves them.
const DOMAINS: ReadonlyArray<[base: string, name: string, file: string]> = [
  ['rdap.verisign.com/com/v1/', 'google.com', 'domain_google.com_verisign.json'],
  ['rdap.verisign.com/com/v1/', 'themarquetry.com', 'domain_themarquetry.com_verisign.json'],
  ['rdap.verisign.com/com/v1/', '20c.com', 'domain_20c.com_verisign.json'],
  ['rdap.norid.no/', 'norway.no', 'domain_norway.no_norid.json'],
  ['rdap.nic.cz/', 'example.cz', 'domain_example.cz_nic.cz.json'],
]
const NETWORKS: ReadonlyArray<[base: string, file: string]> = [
  ['rdap.apnic.net/', 'ip_1.1.1.0-24_apnic.json'],
  ['rdap.arin.net/registry/', 'ip_13.64.0.0_arin.json'],
  ['rdap.arin.net/registry/', 'ip_2001-4860_arin.json'],
  ['rdap.arin.net/registry/', 'ip_206.41.110.0_arin.json'],
  ['rdap.db.ripe.net/', 'ip_130.59.0.0-16_ripe.json'],
]
const AUTNUMS: ReadonlyArray<[base: string, file: string]> = [
  ['rdap.arin.net/registry/', 'autnum_AS13335_arin.json'],
  ['rdap.arin.net/registry/', 'autnum_AS2914_arin.json'],
  ['rdap.db.ripe.net/', 'autnum_AS8283_ripe.json'],
  ['rdap.apnic.net/', 'autnum_AS9269_apnic.json'],
  ['rdap.afrinic.net/rdap/', 'autnum_AS37271_afrinic.json'],
]
const ENTITIES: ReadonlyArray<[base: string, handle: string, file: string]> = [
  ['rdap.arin.net/registry/', 'GOVI', 'entity_GOVI_arin.json'],
  ['rdap.db.ripe.net/', 'CLUE1-RIPE', 'entity_CLUE1-RIPE_ripe.json'],
]
const NAMESERVERS: ReadonlyArray<[base: string, name: string, file: string]> = [['rdap.nic.cz/', 'ns2.pipni.cz', 'nameserver_ns2.pipni.cz_nic.cz.json']]
/** Each registry's own 404 body where one was recorded. */
const ERRORS: Readonly<Record<string, string>> = { 'rdap.db.ripe.net': 'error_404_ripe.json', 'rdap.apnic.net': 'error_404_apnic.json' }

const GENERIC_404 = { errorCode: 404, title: 'Not Found', description: ['The object does not exist.'], rdapConformance: ['rdap_level_0'] }

/** The rdap+json "related" links (registrar records) of an answer, rewritten by `rewrite`. */
function rewriteRelated(doc: Json, rewrite: (url: string) => string): Json {
  const copy = structuredClone(doc)
  for (const link of Array.isArray(copy.links) ? (copy.links as Json[]) : []) {
    if (link?.rel === 'related' && link.type === 'application/rdap+json' && typeof link.href === 'string') link.href = rewrite(link.href)
  }
  return copy
}

export async function startFakeRdap(options: { host?: string } = {}): Promise<FakeRdap> {
  const host = options.host ?? '127.0.0.43'
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const log: RdapLogEntry[] = []
  const extra = new Map<string, { status: number; contentType: string; headers: Record<string, string>; body: string }>()
  const bootstrapOverride = new Map<BootstrapFile, string>()
  let rule: (FaultRule & { left: number }) | null = null
  let origin = ''

  const urlOf = (real: string): string => {
    const u = new URL(real)
    return `${origin}/${u.host}${u.pathname}${u.search}`
  }

  function bootstrap(kind: BootstrapFile): string {
    const overridden = bootstrapOverride.get(kind)
    if (overridden !== undefined) return overridden
    const file = readJson(join('bootstrap', `${kind}.json`))
    const services = (file.services as Array<[string[], string[]]>).map(([entries, urls]) => [entries, [...new Set(urls.map(urlOf))]])
    return JSON.stringify({ ...file, services })
  }

  // Ranges each registry holds, for "which network / autnum is this" and redirects.
  const networks = NETWORKS.map(([base, file]) => {
    const doc = readJson(file)
    const list = new BlockList()
    const start = String(doc.startAddress)
    list.addRange(start, String(doc.endAddress), isIP(start) === 6 ? 'ipv6' : 'ipv4')
    return { base, doc, list }
  })
  const autnums = AUTNUMS.map(([base, file]) => {
    const doc = readJson(file)
    return { base, doc, lo: Number(doc.startAutnum), hi: Number(doc.endAutnum) }
  })

  const hostOfBase = (base: string) => base.split('/')[0]!

  function recorded(path: string): { status: number; body: Json; location?: string } | null {
    const lower = path.toLowerCase()
    for (const [base, name, file] of DOMAINS) if (lower === `/${base}domain/${name}`) return { status: 200, body: rewriteRelated(readJson(file), urlOf) }
    for (const [base, handle, file] of ENTITIES) if (lower === `/${base}entity/${handle}`.toLowerCase()) return { status: 200, body: readJson(file) }
    for (const [base, name, file] of NAMESERVERS) if (lower === `/${base}nameserver/${name}`) return { status: 200, body: readJson(file) }
    const ip = /^\/(.+\/)ip\/([^/]+)$/.exec(path)
    if (ip) {
      const address = decodeURIComponent(ip[2]!)
      const family = isIP(address) === 6 ? 'ipv6' : isIP(address) === 4 ? 'ipv4' : null
      const holder = family ? networks.find((n) => n.list.check(address, family)) : undefined
      if (holder && holder.base === ip[1]) return { status: 200, body: holder.doc }
      if (holder) return { status: 301, body: {}, location: `${origin}/${holder.base}ip/${address}` }
    }
    const as = /^\/(.+\/)autnum\/(?:as)?(\d+)$/i.exec(path)
    if (as) {
      const n = Number(as[2])
      const holder = autnums.find((a) => a.lo <= n && n <= a.hi)
      if (holder && holder.base === as[1]) return { status: 200, body: holder.doc }
      if (holder) return { status: 301, body: {}, location: `${origin}/${holder.base}autnum/${n}` }
    }
    const registry = path.split('/')[1] ?? ''
    const known = [...DOMAINS, ...NETWORKS, ...AUTNUMS].some(([base]) => hostOfBase(base) === registry)
    return { status: 404, body: known && ERRORS[registry] ? readJson(ERRORS[registry]) : GENERIC_404 }
  }

  function faultFor(path: string): RdapFault | null {
    if (!rule || rule.left <= 0) return null
    const isBootstrap = path.startsWith('/bootstrap/')
    const scope = rule.scope ?? 'rdap'
    if (scope === 'rdap' && isBootstrap) return null
    if (scope === 'bootstrap' && !isBootstrap) return null
    if (rule.match && !rule.match.test(path)) return null
    rule.left -= 1
    return rule.fault
  }

  function send(res: ServerResponse, status: number, body: string, contentType: string, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': contentType, ...headers })
    res.end(body)
  }

  /** What the server would answer without a fault. */
  function normal(path: string): { status: number; body: string; contentType: string; headers: Record<string, string> } {
    const served = extra.get(path.toLowerCase())
    if (served) return served
    const file = /^\/bootstrap\/(dns|ipv4|ipv6|asn)\.json$/.exec(path)
    if (file) return { status: 200, body: bootstrap(file[1] as BootstrapFile), contentType: 'application/json', headers: {} }
    const answer = recorded(path)!
    if (answer.location) return { status: answer.status, body: '', contentType: 'text/plain', headers: { location: answer.location } }
    return { status: answer.status, body: JSON.stringify(answer.body), contentType: 'application/rdap+json', headers: {} }
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://fake').pathname
    const fault = faultFor(path)
    log.push({ method: req.method ?? 'GET', path, accept: req.headers.accept, fault: fault?.kind ?? null })
    if (fault) {
      switch (fault.kind) {
        case 'timeout':
          return // never answered; close() destroys the socket
        case 'reset':
          req.socket.destroy()
          return
        case 'garbage':
          return send(res, 200, fault.body ?? '<html><body>Service temporarily unavailable</body></html>', fault.contentType ?? 'text/html')
        case 'redirect':
          return send(res, fault.status ?? 302, '', 'text/plain', { location: fault.location })
        case 'status':
          return send(
            res,
            fault.status,
            fault.body ?? JSON.stringify({ errorCode: fault.status, title: `HTTP ${fault.status}` }),
            'application/rdap+json',
            fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
          )
        case 'drip': {
          const answer = normal(path)
          const bytes = Buffer.from(answer.body)
          res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': String(bytes.length), ...answer.headers })
          let at = 0
          const tick = () => {
            if (res.destroyed) return
            res.write(bytes.subarray(at, at + (fault.bytes ?? 1)))
            at += fault.bytes ?? 1
            if (at >= bytes.length) return void res.end()
            const t = setTimeout(tick, fault.intervalMs ?? 100)
            timers.add(t)
          }
          return tick()
        }
      }
    }
    const answer = normal(path)
    send(res, answer.status, answer.body, answer.contentType, answer.headers)
  }

  const server = createServer(handle)
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  origin = `http://${host}:${(server.address() as AddressInfo).port}`
  const bootstrapUrl = `${origin}/bootstrap/`

  return {
    origin,
    bootstrapUrl,
    env: { INFRALENS_RDAP_BOOTSTRAP_URL: bootstrapUrl, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true' },
    log,
    setFault(next) {
      if (next === null) rule = null
      else if ('fault' in next) rule = { ...next, left: next.times ?? Infinity }
      else rule = { fault: next, left: Infinity }
    },
    serve(path, body, init = {}) {
      extra.set(path.toLowerCase(), {
        status: init.status ?? 200,
        contentType: init.contentType ?? 'application/rdap+json',
        headers: init.headers ?? {},
        body: typeof body === 'string' ? body : JSON.stringify(body),
      })
    },
    setBootstrap(kind, json) {
      bootstrapOverride.set(kind, JSON.stringify(json))
    },
    urlOf,
    async close() {
      for (const t of timers) clearTimeout(t)
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

// DNS for the domains whose RDAP records the fake serves, so endpoints comparing
// registry and DNS have a zone to ask. Test data, not recordings: google.com as
// publicly seen; 20c.com deliberately differs from its registry delegation.
export const RDAP_ZONES = [
  `
$ORIGIN google.com.
$TTL 300
@      IN SOA  ns1.google.com. dns-admin.google.com. ( 1 900 900 1800 60 )
@      IN NS   ns1.google.com.
@      IN NS   ns2.google.com.
@      IN NS   ns3.google.com.
@      IN NS   ns4.google.com.
@      IN A    142.250.74.46
@      IN MX   10 smtp.google.com.
@      IN TXT  "v=spf1 include:_spf.google.com ~all"
@      IN CAA  0 issue "pki.goog"
_dmarc IN TXT  "v=DMARC1; p=reject; rua=mailto:mailauth-reports@google.com"
ns1    IN A    216.239.32.10
ns2    IN A    216.239.34.10
ns3    IN A    216.239.36.10
ns4    IN A    216.239.38.10
smtp   IN A    142.250.102.26
`,
  `
$ORIGIN 20c.com.
$TTL 300
@      IN SOA  ns-1468.awsdns-55.org. awsdns-hostmaster.amazon.com. ( 1 7200 900 1209600 86400 )
@      IN NS   ns-1468.awsdns-55.org.
@      IN NS   ns-1771.awsdns-29.co.uk.
@      IN NS   ns-327.awsdns-40.com.
@      IN NS   ns-9.awsdns-01.com.
@      IN A    104.21.0.1
`,
]
