// The stub resolver: one question to configured servers (IP literals only), UDP first
// with TCP when the reply is truncated, EDNS0 with a 1232-byte payload (the DNS flag
// day 2020 size that avoids IP fragmentation), DO on request, a cryptographically
// random id and a fresh socket per query, a per-exchange deadline and retries that
// walk the server list in order.

import { randomInt } from 'node:crypto'
import net from 'node:net'
import { DnsError, type DnsAttempt } from './dns-error.ts'
import { abortedError, type ExchangeOutcome, type ExchangeRequest } from './dns-exchange.ts'
import { buildQuery } from './dns-message.ts'
import { encodeName } from './dns-name.ts'
import type { DnsAnswer, DnsServerInfo } from './dns-records.ts'
import { inspectReply, type ExpectedReply } from './dns-response.ts'
import { nodeDnsSockets, type DnsSocketFactory } from './dns-sockets.ts'
import { exchangeTcp } from './dns-transport-tcp.ts'
import { exchangeUdp } from './dns-transport-udp.ts'
import { className, typeCode, typeName, type DnsTypeMnemonic } from './dns-types.ts'

export interface DnsServerAddress {
  /** An IPv4 or IPv6 literal. */
  host: string
  /** Defaults to 53. */
  port?: number
  name?: string
}

export interface DnsClientOptions {
  servers: DnsServerAddress[]
  /** Deadline of each exchange (one UDP or TCP round trip with one server). Default 2000. */
  timeoutMs?: number
  /** Extra rounds over the server list after the first. Default 1. */
  retries?: number
  /** EDNS0 UDP payload size advertised. Default 1232. */
  udpPayloadSize?: number
  sockets?: DnsSocketFactory
  /** Circuit breaker and concurrency bound per server (runtime/net/dns-server-guard.ts). */
  guard?: DnsServerGuard
}

/** Per-server health and concurrency, kept outside the client. */
export interface DnsServerGuard {
  /** false: the server failed repeatedly; skip it while another server is usable. */
  available(server: DnsServerInfo): boolean
  /** One exchange with the server (UDP, and TCP after truncation) under its bound; the outcome is recorded. */
  attempt<T>(server: DnsServerInfo, exchange: () => Promise<T>, signal?: AbortSignal): Promise<T>
}

export interface DnsQueryOptions {
  /** Set the DO bit (RFC 3225) so the server includes RRSIG/NSEC records. */
  dnssec?: boolean
  /**
   * Set the AD bit (RFC 6840 §5.7). Validating resolvers (1.1.1.1, 8.8.8.8, 9.9.9.9,
   * Unbound, BIND) set AD in a reply only when the query had AD or DO, so without one
   * of them the answer's `flags.ad` is always false. AD costs nothing; DO would make
   * the resolver add RRSIGs to every answer.
   */
  authenticData?: boolean
  /** Set the CD bit: ask a validating resolver to hand over data that failed validation. */
  checkingDisabled?: boolean
  /** Default true; false for queries to authoritative servers. */
  recursionDesired?: boolean
  /** Send without an OPT record (plain RFC 1035, 512-byte UDP limit). Ignored with dnssec. */
  edns?: boolean
  /** Skip UDP and ask over TCP straight away. */
  tcp?: boolean
  /** Ask only this server instead of the configured list. */
  server?: DnsServerAddress
  signal?: AbortSignal
  timeoutMs?: number
  retries?: number
}

export type DnsQueryType = DnsTypeMnemonic | number

export interface DnsClient {
  readonly servers: readonly DnsServerInfo[]
  query(name: string, type: DnsQueryType, options?: DnsQueryOptions): Promise<DnsAnswer>
}

const CLASS_IN = 1

function serverInfo(address: DnsServerAddress): DnsServerInfo & { family: 4 | 6 } {
  const family = net.isIP(address.host)
  if (family === 0) throw new TypeError(`DNS server "${address.host}" is not an IP address literal`)
  const port = address.port ?? 53
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new TypeError(`DNS server port ${port} is out of range`)
  const hostPort = family === 6 ? `[${address.host}]:${port}` : `${address.host}:${port}`
  return { host: address.host, port, name: address.name ?? (port === 53 ? address.host : hostPort), family: family as 4 | 6 }
}

function publicInfo(server: DnsServerInfo): DnsServerInfo {
  return { host: server.host, port: server.port, name: server.name }
}

function resolveType(type: DnsQueryType): number {
  if (typeof type === 'number') {
    if (!Number.isInteger(type) || type < 0 || type > 0xffff) throw new TypeError(`query type ${type} is out of range`)
    return type
  }
  const code = typeCode(type)
  if (code === undefined) throw new TypeError(`unknown query type ${type}`)
  return code
}

export function createDnsClient(options: DnsClientOptions): DnsClient {
  if (options.servers.length === 0) throw new TypeError('a DNS client needs at least one server')
  const servers = options.servers.map(serverInfo)
  const defaults = {
    timeoutMs: options.timeoutMs ?? 2000,
    retries: options.retries ?? 1,
    udpPayloadSize: options.udpPayloadSize ?? 1232,
    sockets: options.sockets ?? nodeDnsSockets,
  }

  async function query(name: string, type: DnsQueryType, opts: DnsQueryOptions = {}): Promise<DnsAnswer> {
    const nameWire = encodeName(name)
    const qtype = resolveType(type)
    const targets = opts.server ? [serverInfo(opts.server)] : servers
    const timeoutMs = opts.timeoutMs ?? defaults.timeoutMs
    const rounds = 1 + Math.max(0, opts.retries ?? defaults.retries)
    const dnssec = opts.dnssec === true
    const edns = dnssec || opts.edns !== false ? { udpPayloadSize: defaults.udpPayloadSize, dnssecOk: dnssec } : null
    const question = { name: name === '.' || name === '' ? '.' : name.replace(/\.$/, ''), type: typeName(qtype), class: className(CLASS_IN) }
    const attempts: DnsAttempt[] = []
    let current: DnsServerInfo | null = null

    const fail = (error: DnsError): DnsError =>
      new DnsError(error.reason, error.message, { server: current, transport: error.transport, attempts: [...attempts], cause: error.cause })

    const guard = options.guard
    for (let round = 0; round < rounds; round++) {
      // A server whose circuit is open is skipped while another is usable; with
      // none usable all are asked as usual: the breaker reorders, it never fails a query.
      const usable = guard ? targets.filter((s) => guard.available(s)) : targets
      const order = usable.length > 0 ? usable : targets
      for (const server of order) {
        if (opts.signal?.aborted) throw fail(abortedError(opts.signal, null))
        current = publicInfo(server)
        // A new id per attempt, so a late reply to an earlier attempt cannot be taken for this one.
        const id = randomInt(0, 0x10000)
        const expected: ExpectedReply = { id, nameWire, typeCode: qtype, classCode: CLASS_IN }
        const request: ExchangeRequest = {
          host: server.host,
          port: server.port,
          family: server.family,
          query: buildQuery({
            id,
            nameWire,
            typeCode: qtype,
            classCode: CLASS_IN,
            recursionDesired: opts.recursionDesired ?? true,
            checkingDisabled: opts.checkingDisabled === true,
            authenticData: opts.authenticData === true,
            edns,
          }),
          inspect: (message) => inspectReply(message, expected),
          timeoutMs,
          signal: opts.signal,
          sockets: defaults.sockets,
        }
        let transport: 'udp' | 'tcp' = opts.tcp ? 'tcp' : 'udp'
        const exchange = async (): Promise<DnsAnswer> => {
          const started = performance.now()
          let outcome: ExchangeOutcome = opts.tcp ? await exchangeTcp(request) : await exchangeUdp(request)
          if (outcome.kind === 'truncated') {
            transport = 'tcp'
            outcome = await exchangeTcp(request)
          }
          if (outcome.kind !== 'reply') throw new DnsError('bad_response', 'truncated reply over TCP', { transport })
          return {
            question,
            ...outcome.reply,
            server: publicInfo(server),
            transport,
            latencyMs: Math.round((performance.now() - started) * 100) / 100,
          }
        }
        try {
          return guard ? await guard.attempt(server, exchange, opts.signal) : await exchange()
        } catch (error) {
          if (!(error instanceof DnsError)) throw error
          if (error.reason === 'aborted') throw fail(error)
          attempts.push({ server: publicInfo(server), transport: error.transport ?? transport, reason: error.reason, message: error.message })
          if (round === rounds - 1 && server === order[order.length - 1]) {
            const summary = attempts.map((a) => `${a.server.name} over ${a.transport}: ${a.message}`).join('; ')
            throw fail(new DnsError(error.reason, `no answer for ${question.name} ${question.type}: ${summary}`, { transport: error.transport, cause: error }))
          }
        }
      }
    }
    // Unreachable: the loop either returns or throws on its last attempt.
    throw new DnsError('network', 'no DNS server was tried', { attempts })
  }

  return { servers: servers.map(publicInfo), query }
}
