import { NotFoundError } from '../../runtime/errors.ts'
import { parseIanaAnswer } from './parse/iana.ts'
import type { WhoisExchange } from './whois-exchange.ts'

// Which WHOIS server answers for a TLD, from IANA's WHOIS (whois.iana.org, or
// INFRALENS_WHOIS_IANA). Asked with the TLD only, never the caller's domain, and
// kept: a day for an answer, an hour for "IANA names no server" (registries gain
// one rarely); failures are not kept, so the next request asks again. At most
// MAX_ENTRIES TLDs are kept (there are about 1,500), the oldest going first, and
// concurrent first requests for one TLD share one query.

export interface IanaReferral {
  tld: string
  /** The registry's WHOIS server (a host name). */
  server: string
  /** From the cache rather than a query now. */
  cached: boolean
}

export interface IanaReferralCache {
  serverFor(tld: string): Promise<IanaReferral>
  clear(): void
}

interface Entry {
  server: string | null
  known: boolean
  expiresAt: number
}

const DAY = 24 * 60 * 60 * 1000
const HOUR = 60 * 60 * 1000
const MAX_ENTRIES = 4096

export function createIanaReferralCache(options: {
  /** Asks IANA's WHOIS one query. */
  ask: (query: string, signal?: AbortSignal) => Promise<WhoisExchange>
  /** The service clock (ms). */
  now: () => number
  /** host:port of IANA's WHOIS, for messages. */
  iana: string
}): IanaReferralCache {
  const entries = new Map<string, Entry>()
  const pending = new Map<string, Promise<Entry>>()

  const answer = (tld: string, entry: Entry, cached: boolean): IanaReferral => {
    if (!entry.known) throw new NotFoundError(`.${tld} is not a top-level domain IANA knows (asked ${options.iana}).`, { upstream: 'whois', tld, whois_server: options.iana })
    if (entry.server === null) {
      throw new NotFoundError(`The registry of .${tld} offers neither RDAP (the IANA bootstrap names no service) nor WHOIS (IANA names no server).`, {
        upstream: 'whois',
        tld,
        whois_server: options.iana,
      })
    }
    return { tld, server: entry.server, cached }
  }

  async function ask(tld: string): Promise<Entry> {
    const { text } = await options.ask(tld)
    const parsed = parseIanaAnswer(text)
    const entry: Entry = { ...parsed, expiresAt: options.now() + (parsed.server ? DAY : HOUR) }
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
    entries.set(tld, entry)
    return entry
  }

  return {
    async serverFor(tld) {
      const key = tld.toLowerCase()
      const hit = entries.get(key)
      if (hit && options.now() < hit.expiresAt) return answer(key, hit, true)
      let flight = pending.get(key)
      if (!flight) {
        // On its own deadline, not a caller's signal: its answer serves everyone waiting.
        flight = ask(key).finally(() => pending.delete(key))
        pending.set(key, flight)
      }
      return answer(key, await flight, false)
    },
    clear() {
      entries.clear()
    },
  }
}
