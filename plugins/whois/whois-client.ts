import { NotFoundError, UpstreamError, isApiError } from '../../runtime/errors.ts'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import type { IanaReferralCache } from './iana-referral.ts'
import { createIanaReferralCache } from './iana-referral.ts'
import type { WhoisRecord } from './parse/record.ts'
import { parseWhoisRecord, referralHost } from './parse/record.ts'
import { queryFor } from './server-queries.ts'
import { whoisExchange } from './whois-exchange.ts'

// Registration data over port 43, for TLDs whose registry offers no RDAP:
//   1. IANA's WHOIS names the TLD's server (cached, iana-referral.ts);
//   2. that registry's server answers for the domain;
//   3. when the registry names the registrar's own WHOIS server ("Registrar WHOIS
//      Server:", thin registries) and the caller wants it, one more query there.
// One hop at most: what the registrar's server names is never followed. Every
// server is dialed on port 43 whatever the text says (a referral is a host name,
// its port is dropped), through the guarded network (never a private address).

export const WHOIS_PORT = 43
/** Largest answer read: registry answers are a few KB; 256 KiB is generous and bounds what a hostile server can make us hold. */
export const MAX_WHOIS_BYTES = 256 * 1024

export interface WhoisAnswer {
  /** host:port asked. */
  server: string
  query: string
  /** The text as received (decoded, control characters replaced). */
  text: string
  record: WhoisRecord
}

export interface RegistrarHop {
  /** host:port of the registrar's server, as the registry named it (port 43). */
  server: string
  status: 'ok' | 'not_found' | 'failed' | 'blocked'
  error: string | null
  answer: WhoisAnswer | null
}

export interface WhoisDomainResult {
  domain: string
  tld: string
  /** host:port of IANA's WHOIS, and whether its referral came from the cache. */
  iana: { server: string; cached: boolean }
  registry: WhoisAnswer
  /** null when not followed (not asked for, no server named, or it is the registry's own). */
  registrar: RegistrarHop | null
}

export interface WhoisLookupOptions {
  signal?: AbortSignal | undefined
  /** Ask the registrar's WHOIS server too when the registry names one (one more query). */
  followRegistrar?: boolean
}

export interface WhoisClient {
  domain(name: string, options?: WhoisLookupOptions): Promise<WhoisDomainResult>
  /** Forget IANA's referrals (tests, operators). */
  clearReferrals(): void
}

export interface WhoisClientOptions {
  network: GuardedNetwork
  /** IANA's WHOIS: INFRALENS_WHOIS_IANA. */
  iana: { host: string; port: number }
  /** Deadline of each exchange. */
  timeoutMs: number
  now: () => number
}

const hostPort = (host: string, port: number) => `${host.includes(':') ? `[${host}]` : host}:${port}`

export function createWhoisClient(options: WhoisClientOptions): WhoisClient {
  const { network, timeoutMs } = options
  const ianaServer = hostPort(options.iana.host, options.iana.port)

  async function ask(host: string, port: number, query: string, signal?: AbortSignal): Promise<WhoisAnswer> {
    const exchange = await whoisExchange(network, { host, port, query, timeoutMs, maxBytes: MAX_WHOIS_BYTES, signal })
    return { server: exchange.server, query, text: exchange.text, record: parseWhoisRecord(exchange.text) }
  }

  const referrals: IanaReferralCache = createIanaReferralCache({
    iana: ianaServer,
    now: options.now,
    ask: (tld) => whoisExchange(network, { host: options.iana.host, port: options.iana.port, query: tld, timeoutMs, maxBytes: MAX_WHOIS_BYTES }),
  })

  async function registrarHop(host: string, domain: string, signal?: AbortSignal): Promise<RegistrarHop> {
    const server = hostPort(host, WHOIS_PORT)
    try {
      const answer = await ask(host, WHOIS_PORT, queryFor(host, domain), signal)
      if (answer.record.kind === 'not_found') return { server, status: 'not_found', error: `${server} has no record of ${domain}.`, answer }
      if (answer.record.kind === 'refused') return { server, status: 'failed', error: `${server} refused the query (rate limit or access).`, answer }
      return { server, status: 'ok', error: null, answer }
    } catch (error) {
      if (!isApiError(error)) throw error
      return { server, status: error.details.reason === 'blocked' ? 'blocked' : 'failed', error: error.message, answer: null }
    }
  }

  return {
    clearReferrals: () => referrals.clear(),

    async domain(name, { signal, followRegistrar = false } = {}) {
      const domain = name.toLowerCase().replace(/\.$/, '')
      const tld = domain.split('.').pop() ?? domain
      const referral = await referrals.serverFor(tld)
      const registry = await ask(referral.server, WHOIS_PORT, queryFor(referral.server, domain), signal)
      if (registry.record.kind === 'not_found') {
        throw new NotFoundError(`The registry has no record of ${domain} (WHOIS ${registry.server}).`, { upstream: 'whois', whois_server: registry.server, status: 404 })
      }
      if (registry.record.kind === 'refused') {
        throw new UpstreamError('whois', 'unavailable', `The registry's WHOIS server ${registry.server} refused the query for ${domain} (rate limit or access restriction).`, {
          whois_server: registry.server,
          answer: registry.text.slice(0, 500),
        })
      }
      let registrar: RegistrarHop | null = null
      const next = referralHost(registry.record.registrar.whois_server)
      // One hop, and only to another server: CIRA and auDA name themselves.
      if (followRegistrar && next !== null && next !== referral.server.toLowerCase() && next !== options.iana.host.toLowerCase()) {
        registrar = await registrarHop(next, domain, signal)
      }
      return { domain, tld, iana: { server: ianaServer, cached: referral.cached }, registry, registrar }
    },
  }
}
