import { readFileSync, readdirSync } from 'node:fs'
import { createServer } from 'node:net'
import type { Server, Socket } from 'node:net'
import { join } from 'node:path'
import { ROOT } from '../../runtime/app.ts'
import { randomLoopback, webZone } from './fake-web.ts'

// The port-43 part of the loopback internet: one WHOIS server per host name the
// recorded answers come from (test/fixtures/whois/<server>/<query>.txt), each on
// its own random 127.x address at port 43 (WHOIS has no Host header: a server
// is told apart by its address; binding 43 needs root, as the tests and CI run),
// with a DNS zone per host name so the service finds them by name as it would
// on the internet. IANA's server answers on its own address and is handed to the
// service as INFRALENS_WHOIS_IANA. Answers are replayed byte for byte; faults on
// demand (timeout, reset, garbage, drip, oversize) and a log of every query.
//
// IANA recordings exist only for com and be (plus an unassigned TLD and an
// unknown string); for the other TLDs of the fixtures IANA's answer is a stand-in
// that says so in its first line.

export const WHOIS_FIXTURES = join(ROOT, 'test', 'fixtures', 'whois')
const IANA_HOST = 'whois.iana.org'

/** Which registry server IANA names for each TLD the fixtures cover. */
export const TLD_SERVERS: ReadonlyMap<string, string> = new Map([
  ['de', 'whois.denic.de'],
  ['es', 'whois.nic.es'],
  ['io', 'whois.nic.io'],
  ['jp', 'whois.jprs.jp'],
  ['cn', 'whois.cnnic.cn'],
  ['ca', 'whois.cira.ca'],
  ['uk', 'whois.nic.uk'],
  ['fr', 'whois.nic.fr'],
  ['nl', 'whois.domain-registry.nl'],
  ['au', 'whois.auda.org.au'],
  ['it', 'whois.nic.it'],
  ['ru', 'whois.tcinet.ru'],
  ['be', 'whois.dns.be'],
  ['com', 'whois.verisign-grs.com'],
])

export type WhoisFault =
  /** Accept the query and never answer. */
  | { kind: 'timeout' }
  /** Drop the connection without a byte. */
  | { kind: 'reset' }
  /** Binary bytes instead of text, then close. */
  | { kind: 'garbage'; bytes?: Buffer }
  /** The real answer `bytes` at a time every `intervalMs`. */
  | { kind: 'drip'; bytes?: number; intervalMs?: number }
  /** `bytes` of filler without end (or up to that many). */
  | { kind: 'oversize'; bytes: number }

export interface WhoisFaultRule {
  fault: WhoisFault
  /** Only this server (host name); default every server but IANA. */
  server?: string
  times?: number
}

export interface WhoisLogEntry {
  server: string
  query: string
  fault: WhoisFault['kind'] | null
}

export interface FakeWhois {
  /** IANA's server, address:43, for INFRALENS_WHOIS_IANA. */
  iana: string
  /** DNS zones naming every server's address. */
  zones: string[]
  env: Record<string, string>
  log: WhoisLogEntry[]
  addressOf(server: string): string
  /** Answer `query` at `server` with this text (before the recorded ones). */
  serve(server: string, query: string, text: string | Buffer): void
  setFault(rule: WhoisFaultRule | null): void
  close(): Promise<void>
}

function recorded(server: string): Map<string, Buffer> {
  const answers = new Map<string, Buffer>()
  let files: string[] = []
  try {
    files = readdirSync(join(WHOIS_FIXTURES, server))
  } catch {
    return answers
  }
  for (const f of files) if (f.endsWith('.txt')) answers.set(f.slice(0, -4), readFileSync(join(WHOIS_FIXTURES, server, f)))
  return answers
}

function ianaStandIn(tld: string, server: string): Buffer {
  return Buffer.from(
    `% IANA WHOIS server (stand-in of the loopback internet, not a recording)\n\nrefer:        ${server}\n\ndomain:       ${tld.toUpperCase()}\n\nwhois:        ${server}\n\nstatus:       ACTIVE\nsource:       IANA\n`,
  )
}

/** The domain a registry query asks about: DENIC's "-T dn,ace x.de", JPRS's "x.jp/e". */
const domainOf = (query: string) =>
  query
    .trim()
    .replace(/^-T\s+\S+\s+/i, '')
    .replace(/\/e$/i, '')
    .toLowerCase()

async function listen(server: Server, address: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(43, address, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

export async function startFakeWhois(options: { servers?: string[] } = {}): Promise<FakeWhois> {
  const hosts = [...new Set([IANA_HOST, ...TLD_SERVERS.values(), ...readdirSync(WHOIS_FIXTURES).filter((d) => !d.endsWith('.md')), ...(options.servers ?? [])])]
  const log: WhoisLogEntry[] = []
  const extra = new Map<string, Buffer>()
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const servers: Server[] = []
  const addresses = new Map<string, string>()
  let rule: (WhoisFaultRule & { left: number }) | null = null
  const answersOf = new Map(hosts.map((h) => [h, recorded(h)]))

  function answer(host: string, query: string): Buffer {
    const key = `${host} ${query.trim().toLowerCase()}`
    const served = extra.get(key)
    if (served) return served
    const answers = answersOf.get(host)!
    if (host === IANA_HOST) {
      const tld = query.trim().toLowerCase().replace(/^\./, '')
      if (answers.has(tld)) return answers.get(tld)!
      if (tld === 'eh') return answers.get('eh')!
      const server = TLD_SERVERS.get(tld)
      return server ? ianaStandIn(tld, server) : answers.get('u34jedzcq.int')!
    }
    const domain = domainOf(query)
    const hit = answers.get(domain)
    if (hit) return hit
    // The registry's own recorded "no such domain", else a plain one.
    const notFound = [...answers.entries()].find(([name]) => name.startsWith('u34jedzcq') || name === 'not-found')?.[1]
    return notFound ?? Buffer.from(`No match for "${domain.toUpperCase()}".\r\n`)
  }

  function faultFor(host: string): WhoisFault | null {
    if (!rule || rule.left <= 0) return null
    if (rule.server ? rule.server !== host : host === IANA_HOST) return null
    rule.left -= 1
    return rule.fault
  }

  function handle(host: string, socket: Socket) {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let query = ''
    socket.on('data', (chunk: Buffer) => {
      if (query.includes('\n')) return
      query += chunk.toString('latin1')
      if (!query.includes('\n')) return
      const line = query.split(/\r?\n/)[0]!
      const fault = faultFor(host)
      log.push({ server: host, query: line, fault: fault?.kind ?? null })
      if (!fault) return void socket.end(answer(host, line))
      switch (fault.kind) {
        case 'timeout':
          return
        case 'reset':
          return void socket.resetAndDestroy()
        case 'garbage':
          return void socket.end(fault.bytes ?? Buffer.from([0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x32, 0x4a, 0x07, 0x00, 0x80, 0x81, 0xc3]))
        case 'oversize': {
          const block = Buffer.alloc(16 * 1024, 'Name Server: ns.example.com\n')
          let sent = 0
          const pump = () => {
            while (sent < fault.bytes && !socket.destroyed) {
              sent += block.length
              if (!socket.write(block)) return void socket.once('drain', pump)
            }
            socket.end()
          }
          return pump()
        }
        case 'drip': {
          const bytes = answer(host, line)
          let at = 0
          const tick = () => {
            if (socket.destroyed) return
            socket.write(bytes.subarray(at, at + (fault.bytes ?? 1)))
            at += fault.bytes ?? 1
            if (at >= bytes.length) return void socket.end()
            const t = setTimeout(tick, fault.intervalMs ?? 100)
            timers.add(t)
          }
          return tick()
        }
      }
    })
  }

  try {
    for (const host of hosts) {
      for (let attempt = 0; ; attempt++) {
        const address = randomLoopback()
        const server = createServer((socket) => handle(host, socket))
        try {
          await listen(server, address)
          servers.push(server)
          addresses.set(host, address)
          break
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt > 20) throw error
        }
      }
    }
  } catch (error) {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
    throw error
  }

  const iana = `${addresses.get(IANA_HOST)!}:43`
  return {
    iana,
    zones: hosts.filter((h) => h !== IANA_HOST).map((h) => webZone(h, addresses.get(h)!, ['@'])),
    env: { INFRALENS_WHOIS_IANA: iana, INFRALENS_ALLOW_PRIVATE_TARGETS: 'true' },
    log,
    addressOf: (server) => addresses.get(server) ?? '',
    serve(server, query, text) {
      extra.set(`${server} ${query.trim().toLowerCase()}`, Buffer.isBuffer(text) ? text : Buffer.from(text))
    },
    setFault(next) {
      rule = next === null ? null : { ...next, left: next.times ?? Infinity }
    },
    async close() {
      for (const t of timers) clearTimeout(t)
      for (const s of sockets) s.destroy()
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
    },
  }
}
