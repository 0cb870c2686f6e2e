import { NotFoundError, isApiError } from '../../runtime/errors.ts'
import type { GuardedNetwork } from '../../runtime/net/guarded-network.ts'
import { bogonCheck } from '../../runtime/ip/bogon.ts'
import { formatIp } from '../../runtime/ip/format.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { specialAsn } from './asn-special.ts'
import type { BootstrapKind, BootstrapMatch } from './bootstrap.ts'
import type { BootstrapSource, BootstrapStore } from './bootstrap-store.ts'
import type { NormalizedAutnum } from './normalize-autnum.ts'
import { normalizeAutnum } from './normalize-autnum.ts'
import type { NormalizedDomain } from './normalize-domain.ts'
import { isThin, normalizeDomain, registrarLink } from './normalize-domain.ts'
import type { NormalizedNetwork } from './normalize-network.ts'
import { normalizeNetwork } from './normalize-network.ts'
import type { RdapDocument } from './rdap-fetch.ts'
import { fetchRdap } from './rdap-fetch.ts'
import { mergeRegistrar } from './merge-registrar.ts'

// The RDAP upstream: bootstrap lookup, the query, normalization. Resolvers get it
// as ctx.upstreams.rdap; other plugins (ASN, reports) call the same methods.

export interface BootstrapInfo {
  /** The bootstrap entry that matched ("com", "1.0.0.0/8", "13312-15359"). */
  entry: string
  publication: string | null
  /** live: fetched from the configured bootstrap URL; snapshot: the bundled copy. */
  origin: 'live' | 'snapshot'
}

export interface RdapResult<T> {
  object: T
  /** The base URL of the RDAP service the bootstrap named. */
  rdap_server: string
  /** The URL that answered (after redirects). */
  rdap_url: string
  bootstrap: BootstrapInfo
}

export interface RegistrarFollow {
  url: string
  status: 'ok' | 'not_found' | 'failed' | 'blocked'
  error: string | null
}

export interface DomainResult extends RdapResult<NormalizedDomain> {
  /** The registrar's RDAP record, followed when the registry's answer was thin; null when not followed. */
  registrar_rdap: RegistrarFollow | null
}

export interface DomainLookupOptions {
  signal?: AbortSignal | undefined
  /** Complete a thin registry answer from the registrar's RDAP server (one more request). */
  followRegistrar?: boolean
}

export interface RdapClient {
  domain(name: string, options?: DomainLookupOptions): Promise<DomainResult>
  ip(address: string, signal?: AbortSignal): Promise<RdapResult<NormalizedNetwork>>
  autnum(asn: number, signal?: AbortSignal): Promise<RdapResult<NormalizedAutnum>>
  /** Which RDAP service the bootstrap names for a key (null: none). */
  serviceFor(kind: BootstrapKind, key: string | number): Promise<{ match: BootstrapMatch | null; source: BootstrapSource }>
  /** A raw RDAP document by URL (entities, name servers, links found in answers). */
  fetch(url: string, what: string, signal?: AbortSignal): Promise<RdapDocument>
}

export interface RdapClientOptions {
  network: GuardedNetwork
  bootstrap: BootstrapStore
  /** Deadline of each HTTP exchange (bootstrap files have their own). */
  timeoutMs: number
}

const info = (match: BootstrapMatch, source: BootstrapSource): BootstrapInfo => ({
  entry: match.entry,
  publication: source.publication,
  origin: source.origin,
})

const bootstrapDetails = (source: BootstrapSource) => ({ upstream: 'rdap', bootstrap: { kind: source.kind, publication: source.publication, origin: source.origin } })

export function createRdapClient(options: RdapClientOptions): RdapClient {
  const { network, bootstrap, timeoutMs } = options

  async function serviceFor(kind: BootstrapKind, key: string | number) {
    const loaded = await bootstrap.get(kind)
    let match: BootstrapMatch | null = null
    if (kind === 'ipv4' || kind === 'ipv6') {
      const parsed = typeof key === 'string' ? parseIp(key) : null
      match = parsed?.ok ? loaded.table.match(parsed.value) : null
    } else match = loaded.table.match(key)
    return { match, source: loaded.source }
  }

  const get = (url: string, what: string, signal?: AbortSignal) => fetchRdap(network, url, { timeoutMs, what, ...(signal ? { signal } : {}) })

  async function fetchRegistrar(url: string, signal?: AbortSignal): Promise<{ follow: RegistrarFollow; object: NormalizedDomain | null }> {
    try {
      const doc = await get(url, 'registrar record of the domain', signal)
      return { follow: { url: doc.url, status: 'ok', error: null }, object: normalizeDomain(doc.body) }
    } catch (error) {
      if (!isApiError(error)) throw error
      const status = error.status === 404 ? 'not_found' : error.details.reason === 'blocked' ? 'blocked' : 'failed'
      return { follow: { url, status, error: error.message }, object: null }
    }
  }

  return {
    serviceFor,
    fetch: get,

    async domain(name, { signal, followRegistrar: follow = false } = {}) {
      const { match, source } = await serviceFor('dns', name)
      if (!match) {
        const tld = name.split('.').pop() ?? name
        throw new NotFoundError(
          `No RDAP service is registered for .${tld} in the IANA bootstrap (published ${source.publication ?? 'unknown'}): the TLD's registry offers no RDAP, or the TLD does not exist.`,
          { ...bootstrapDetails(source), tld },
        )
      }
      const doc = await get(`${match.base_url}domain/${encodeURIComponent(name)}`, `domain ${name}`, signal)
      let object = normalizeDomain(doc.body)
      let registrar_rdap: RegistrarFollow | null = null
      const link = registrarLink(doc.body)
      // One hop only, and only when it adds something: thin registries name the
      // registrar and link to it; a registrar's answer is never followed further.
      if (follow && link && isThin(object) && link !== doc.url) {
        const followed = await fetchRegistrar(link, signal)
        registrar_rdap = followed.follow
        if (followed.object) object = mergeRegistrar(object, followed.object)
      }
      return { object, rdap_server: match.base_url, rdap_url: doc.url, bootstrap: info(match, source), registrar_rdap }
    },

    async ip(address, signal) {
      const parsed = parseIp(address)
      if (!parsed.ok) throw new NotFoundError(`${address} is not an IP address.`)
      // Special-purpose space first: 2001:db8::/32 sits inside APNIC's 2001:c00::/23
      // in the bootstrap, yet no registry holds documentation addresses.
      const verdict = bogonCheck(parsed.value)
      if (verdict.bogon) {
        throw new NotFoundError(`No registry holds ${address}: ${verdict.reason}.`, { upstream: 'rdap', special_purpose: verdict.prefix })
      }
      const kind = parsed.value.version === 4 ? 'ipv4' : 'ipv6'
      const { match, source } = await serviceFor(kind, address)
      if (!match) {
        throw new NotFoundError(`No RDAP service covers ${address} in the IANA ${kind} bootstrap (published ${source.publication ?? 'unknown'}).`, bootstrapDetails(source))
      }
      const canonical = formatIp(parsed.value)
      const doc = await get(`${match.base_url}ip/${canonical}`, `network for ${canonical}`, signal)
      return { object: normalizeNetwork(doc.body), rdap_server: match.base_url, rdap_url: doc.url, bootstrap: info(match, source) }
    },

    async autnum(asn, signal) {
      const special = specialAsn(asn)
      if (special) throw new NotFoundError(`AS${asn} is ${special}; no registry holds it.`, { upstream: 'rdap', asn })
      const { match, source } = await serviceFor('asn', asn)
      if (!match) {
        throw new NotFoundError(`No RDAP service covers AS${asn} in the IANA ASN bootstrap (published ${source.publication ?? 'unknown'}); it is probably not allocated.`, {
          ...bootstrapDetails(source),
          asn,
        })
      }
      const doc = await get(`${match.base_url}autnum/${asn}`, `AS${asn}`, signal)
      return { object: normalizeAutnum(doc.body), rdap_server: match.base_url, rdap_url: doc.url, bootstrap: info(match, source) }
    },
  }
}
