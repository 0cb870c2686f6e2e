import type { z } from 'zod'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { cacheTtlOf, resolveRecords } from '../dns/surface.ts'
import type { RdapClient } from '../rdap/surface.ts'
import { ageOf } from './domain-age.ts'
import type { DomainAgeData, DomainRegistrarData, DomainWhoisData, NameserverComparisonData } from '../../registry/domain/schemas/domain-data.ts'
import { compareNameservers } from './nameserver-compare.ts'

// /api/domain/{whois,registrar,age,nameservers}: views of one RDAP domain lookup.

type Out<T extends z.ZodType> = z.input<T>

/** The whole normalized record; a thin registry answer is completed from the registrar's RDAP. */
export async function domainWhois(rdap: RdapClient, domain: string, signal?: AbortSignal): Promise<Out<typeof DomainWhoisData>> {
  const { object, ...source } = await rdap.domain(domain, { signal, followRegistrar: true })
  return { domain, ...object, ...source }
}

export async function domainRegistrar(rdap: RdapClient, domain: string, signal?: AbortSignal): Promise<Out<typeof DomainRegistrarData>> {
  const { object, rdap_server, rdap_url, bootstrap } = await rdap.domain(domain, { signal })
  return { domain, registrar: object.registrar, whois_server: object.port43, rdap_server, rdap_url, bootstrap }
}

export async function domainAge(rdap: RdapClient, domain: string, nowMs: number, signal?: AbortSignal): Promise<Out<typeof DomainAgeData>> {
  const { object, rdap_server, rdap_url, bootstrap } = await rdap.domain(domain, { signal })
  return {
    domain,
    created: object.registered,
    expires: object.expires,
    last_changed: object.last_changed,
    ...ageOf(object.registered, object.expires, nowMs),
    rdap_server,
    rdap_url,
    bootstrap,
  }
}

/** Registry delegation vs the zone's NS set. RDAP failing fails the answer; DNS failing is reported in it. */
export async function domainNameservers(
  rdap: RdapClient,
  dns: DnsClient,
  domain: string,
  signal: AbortSignal,
  lowerTtl: (seconds: number) => void,
): Promise<Out<typeof NameserverComparisonData>> {
  const [registry, ns] = await Promise.allSettled([rdap.domain(domain, { signal }), resolveRecords(dns, domain, 'NS', signal)])
  if (registry.status === 'rejected') throw registry.reason
  const { object, rdap_server, rdap_url, bootstrap } = registry.value
  const dnsNames = ns.status === 'fulfilled' ? ns.value.raw.map((r) => (r.data as { target: string }).target) : null
  lowerTtl(ns.status === 'fulfilled' ? cacheTtlOf(ns.value) : 30)
  return {
    domain,
    ...compareNameservers(object.nameservers, dnsNames),
    dns_status: ns.status === 'fulfilled' ? ns.value.status : 'error',
    dns_error: ns.status === 'rejected' ? (ns.reason as Error).message : null,
    rdap_server,
    rdap_url,
    bootstrap,
  }
}
