import type { RdapEntity } from './normalize-common.ts'
import type { NormalizedDomain } from './normalize-domain.ts'

// A thin registry answer completed with the registrar's record of the domain.
// The registry stays authoritative for what it states (status, dates, name
// servers, DNSSEC); the registrar fills what the registry leaves out: the
// registrant, contacts, an abuse contact, events the registry does not carry
// (e.g. "registrar expiration").

const key = (e: RdapEntity) => `${e.handle ?? ''}|${e.parent_handle ?? ''}|${[...e.roles].sort().join(',')}`

export function mergeRegistrar(registry: NormalizedDomain, registrar: NormalizedDomain): NormalizedDomain {
  const known = new Set(registry.entities.map(key))
  const extraEntities = registrar.entities.filter((e) => !known.has(key(e)) && !(e.roles.includes('registrar') && registry.registrar))
  const actions = new Set(registry.events.map((e) => e.action))
  const statusCodes = new Set(registry.status.map((s) => s.code))
  const r = registry.registrar
  const rr = registrar.registrar
  return {
    ...registry,
    entities: [...registry.entities, ...extraEntities],
    events: [...registry.events, ...registrar.events.filter((e) => !actions.has(e.action))],
    status: [...registry.status, ...registrar.status.filter((s) => !statusCodes.has(s.code))],
    registrant: registry.registrant ?? registrar.registrant,
    abuse_contact: registry.abuse_contact ?? registrar.abuse_contact,
    registrar:
      r && rr
        ? {
            handle: r.handle ?? rr.handle,
            name: r.name ?? rr.name,
            iana_id: r.iana_id ?? rr.iana_id,
            url: r.url ?? rr.url,
            abuse_email: r.abuse_email ?? rr.abuse_email,
            abuse_phone: r.abuse_phone ?? rr.abuse_phone,
          }
        : (r ?? rr),
  }
}
