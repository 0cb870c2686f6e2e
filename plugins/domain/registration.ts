import type { DomainResult, NormalizedDomain, RdapClient } from '../rdap/surface.ts'
import type { WhoisClient, WhoisDomainResult } from '../whois/surface.ts'
import { whoisDomain } from './whois-registration.ts'

// A domain's registration, from whichever protocol its registry speaks: RDAP when
// the IANA bootstrap names an RDAP service for the TLD (RDAP is structured and is
// what ICANN requires of gTLDs), else port-43 WHOIS (many ccTLD registries offer
// nothing else). The choice is the bootstrap's, made before any query; an RDAP
// server that fails is reported as failing, not retried over WHOIS, so an answer
// always says truthfully where it came from (`source`).

export interface Registration {
  object: NormalizedDomain
  source: 'rdap' | 'whois'
  rdap_server: string | null
  rdap_url: string | null
  bootstrap: { entry: string | null; publication: string | null; origin: 'live' | 'snapshot' }
  registrar_rdap: DomainResult['registrar_rdap']
  /** The WHOIS exchanges (source "whois"); null for RDAP. */
  whois: WhoisDomainResult | null
}

export interface RegistrationClients {
  rdap: RdapClient
  whois: WhoisClient
}

export async function lookupRegistration(
  clients: RegistrationClients,
  domain: string,
  options: { signal?: AbortSignal | undefined; followRegistrar?: boolean } = {},
): Promise<Registration> {
  const { match, source } = await clients.rdap.serviceFor('dns', domain)
  if (match) {
    const { object, rdap_server, rdap_url, bootstrap, registrar_rdap } = await clients.rdap.domain(domain, options)
    return { object, source: 'rdap', rdap_server, rdap_url, bootstrap, registrar_rdap, whois: null }
  }
  const whois = await clients.whois.domain(domain, options)
  return {
    object: whoisDomain(whois),
    source: 'whois',
    rdap_server: null,
    rdap_url: null,
    bootstrap: { entry: null, publication: source.publication, origin: source.origin },
    registrar_rdap: null,
    whois,
  }
}

/** What /api/domain/* say about the WHOIS exchanges; with the raw text only where asked (domain/whois). */
export function whoisSource(w: WhoisDomainResult | null, withText: true): (ReturnType<typeof summary> & { raw: string; registrar_raw: string | null }) | null
export function whoisSource(w: WhoisDomainResult | null, withText?: false): ReturnType<typeof summary> | null
export function whoisSource(w: WhoisDomainResult | null, withText = false) {
  if (!w) return null
  return withText ? { ...summary(w), raw: w.registry.text, registrar_raw: w.registrar?.answer?.text ?? null } : summary(w)
}

function summary(w: WhoisDomainResult) {
  return {
    iana_server: w.iana.server,
    iana_cached: w.iana.cached,
    server: w.registry.server,
    query: w.registry.query,
    registrar_server: w.registrar?.server ?? null,
    registrar_status: w.registrar?.status ?? null,
    registrar_error: w.registrar?.error ?? null,
  }
}
