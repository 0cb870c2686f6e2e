import type { z } from 'zod'
import { isApiError } from '../../runtime/errors.ts'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { ageOf } from './domain-age.ts'
import type { DomainIntelligenceData } from '../../registry/domain/schemas/domain-data.ts'
import { collectDnsSignals, dataOf } from './dns-signals.ts'
import { deriveFindings } from './findings.ts'
import { mailSignals } from './mail-signals.ts'
import { compareNameservers } from './nameserver-compare.ts'
import type { Registration, RegistrationClients } from './registration.ts'
import { lookupRegistration } from './registration.ts'

// Registration (RDAP, or WHOIS for TLDs without RDAP) and DNS signals in one answer, with findings. Every part
// degrades on its own: a failed part is null and listed in `errors`. Only when
// nothing at all could be checked does the request fail (with the registration error).

type Intelligence = z.input<typeof DomainIntelligenceData>

export async function domainIntelligence(
  clients: RegistrationClients,
  dns: DnsClient,
  domain: string,
  nowMs: number,
  signal: AbortSignal,
  lowerTtl: (seconds: number) => void,
): Promise<Intelligence> {
  const [registration, signals] = await Promise.all([
    lookupRegistration(clients, domain, { signal }).then(
      (value): { ok: true; value: Registration } => ({ ok: true, value }),
      (error: unknown) => {
        if (!isApiError(error)) throw error
        return { ok: false as const, error }
      },
    ),
    collectDnsSignals(dns, domain, signal),
  ])
  // A 404 from the registry (RDAP, or its WHOIS saying "no match") means "not
  // registered"; a 404 before any registry was asked (the TLD has neither RDAP nor
  // WHOIS) means registration could not be checked.
  const notRegistered = !registration.ok && registration.error.status === 404 && (typeof registration.error.details.url === 'string' || registration.error.details.status === 404)
  const errors: Array<{ part: string; message: string }> = []
  if (!registration.ok && !notRegistered) errors.push({ part: registration.error.details.upstream === 'whois' ? 'whois' : 'rdap', message: registration.error.message })
  for (const part of ['ns', 'mx', 'txt', 'dmarc', 'caa'] as const) {
    const o = signals[part]
    if (!o.ok) errors.push({ part: `dns.${part}`, message: o.error })
  }
  const dnsParts = [signals.ns, signals.mx, signals.txt, signals.dmarc, signals.caa]
  if (!registration.ok && dnsParts.every((o) => !o.ok)) throw registration.error

  const object = registration.ok ? registration.value.object : null
  const codes = object?.status.map((s) => s.code) ?? []
  const age = object ? ageOf(object.registered, object.expires, nowMs) : null
  const dnsNs = dataOf<{ target: string }>(signals.ns)?.map((r) => r.target) ?? null
  const comparison = object ? compareNameservers(object.nameservers, dnsNs) : null
  const mail = mailSignals(signals.mx, signals.txt, signals.dmarc)
  const caa = dataOf<{ tag: string; value: string; flags: number }>(signals.caa)
  const nxdomain = signals.ns.ok && signals.ns.answer.status === 'nxdomain'

  // Partial answers are not kept long: the failed part may answer next time.
  lowerTtl(errors.length > 0 ? Math.min(30, signals.ttl) : signals.ttl)

  return {
    domain,
    registration:
      registration.ok && object
        ? {
            registrar: object.registrar,
            created: object.registered,
            expires: object.expires,
            age_days: age!.age_days,
            days_to_expiry: age!.days_to_expiry,
            status: object.status,
            transfer_locked: codes.includes('client transfer prohibited') || codes.includes('server transfer prohibited'),
            registry_locked: ['server update prohibited', 'server delete prohibited', 'server transfer prohibited'].every((c) => codes.includes(c)),
            on_hold: codes.includes('client hold') || codes.includes('server hold'),
            source: registration.value.source,
            rdap_server: registration.value.rdap_server,
            whois_server: registration.value.whois?.registry.server ?? null,
          }
        : null,
    dnssec: object ? { delegation_signed: object.secure_dns.delegation_signed, ds_count: object.secure_dns.ds.length } : null,
    nameservers: {
      registry: comparison?.registry_nameservers ?? null,
      dns: dnsNs === null ? null : [...new Set(dnsNs.map((n) => n.toLowerCase()))].sort(),
      in_sync: comparison?.in_sync ?? null,
    },
    mail,
    caa: caa === null ? null : { present: caa.length > 0, issuers: [...new Set(caa.filter((r) => r.tag === 'issue' || r.tag === 'issuewild').map((r) => r.value))], records: caa.map((r) => `${r.flags} ${r.tag} "${r.value}"`) },
    findings: deriveFindings({
      rdap: registration.ok ? 'ok' : notRegistered ? 'not_found' : 'failed',
      age_days: age?.age_days ?? null,
      days_to_expiry: age?.days_to_expiry ?? null,
      status_codes: codes,
      // Registries that print no EPP statuses (DENIC's "connect", JPRS's "Active") say nothing of locks.
      epp_status: registration.ok && (registration.value.source === 'rdap' || registration.value.object.status.some((st) => st.epp !== null && st.epp !== 'ok')),
      registry_ns_count: object ? object.nameservers.length : null,
      delegation_signed: object?.secure_dns.delegation_signed ?? null,
      ns_mismatch: comparison?.mismatch ?? false,
      only_in_registry: comparison?.only_in_registry ?? [],
      only_in_dns: comparison?.only_in_dns ?? [],
      nxdomain,
      mail,
      caa_present: caa === null ? null : caa.length > 0,
    }),
    errors,
  }
}
