import type { z } from 'zod'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { cacheTtlOf, resolveRecords } from '../dns/surface.ts'
import { ageOf } from './domain-age.ts'
import type { DomainAgeData, DomainRegistrarData, DomainWhoisData, NameserverComparisonData } from '../../registry/domain/schemas/domain-data.ts'
import { compareNameservers } from './nameserver-compare.ts'
import type { Registration, RegistrationClients } from './registration.ts'
import { lookupRegistration, whoisSource } from './registration.ts'

// /api/domain/{whois,registrar,age,nameservers}: views of one registration lookup
// (RDAP, or WHOIS for TLDs without RDAP: registration.ts).

type Out<T extends z.ZodType> = z.input<T>

const sourceOf = (r: Registration) => ({ source: r.source, rdap_server: r.rdap_server, rdap_url: r.rdap_url, bootstrap: r.bootstrap, whois: whoisSource(r.whois) })

/** The whole normalized record; a thin registry answer is completed from the registrar (RDAP "related" link, or its WHOIS server). */
export async function domainWhois(clients: RegistrationClients, domain: string, signal?: AbortSignal): Promise<Out<typeof DomainWhoisData>> {
  const r = await lookupRegistration(clients, domain, { signal, followRegistrar: true })
  return { domain, ...r.object, ...sourceOf(r), whois: whoisSource(r.whois, true), registrar_rdap: r.registrar_rdap }
}

export async function domainRegistrar(clients: RegistrationClients, domain: string, signal?: AbortSignal): Promise<Out<typeof DomainRegistrarData>> {
  const r = await lookupRegistration(clients, domain, { signal })
  return { domain, registrar: r.object.registrar, whois_server: r.object.port43, ...sourceOf(r) }
}

export async function domainAge(clients: RegistrationClients, domain: string, nowMs: number, signal?: AbortSignal): Promise<Out<typeof DomainAgeData>> {
  const r = await lookupRegistration(clients, domain, { signal })
  const { object } = r
  return {
    domain,
    created: object.registered,
    expires: object.expires,
    last_changed: object.last_changed,
    ...ageOf(object.registered, object.expires, nowMs),
    ...sourceOf(r),
  }
}

/** Registry delegation vs the zone's NS set. The registration failing fails the answer; DNS failing is reported in it. */
export async function domainNameservers(
  clients: RegistrationClients,
  dns: DnsClient,
  domain: string,
  signal: AbortSignal,
  lowerTtl: (seconds: number) => void,
): Promise<Out<typeof NameserverComparisonData>> {
  const [registry, ns] = await Promise.allSettled([lookupRegistration(clients, domain, { signal }), resolveRecords(dns, domain, 'NS', signal)])
  if (registry.status === 'rejected') throw registry.reason
  const r = registry.value
  const dnsNames = ns.status === 'fulfilled' ? ns.value.raw.map((x) => (x.data as { target: string }).target) : null
  lowerTtl(ns.status === 'fulfilled' ? cacheTtlOf(ns.value) : 30)
  return {
    domain,
    ...compareNameservers(r.object.nameservers, dnsNames),
    dns_status: ns.status === 'fulfilled' ? ns.value.status : 'error',
    dns_error: ns.status === 'rejected' ? (ns.reason as Error).message : null,
    ...sourceOf(r),
  }
}
