import type { NormalizedDomain } from '../rdap/surface.ts'
import { describeStatus } from '../rdap/surface.ts'
import type { WhoisDomainResult, WhoisRecord } from '../whois/surface.ts'

// A WHOIS answer in the shape of a normalized RDAP domain, so /api/domain/* read
// one record whichever protocol answered. The registry's answer is authoritative
// for what it states; the registrar's (one hop, when followed) fills what the
// registry leaves out: registrar details, the holder, abuse contacts, an expiry.
// Fields WHOIS has no equivalent for (RDAP notices, links, conformance) are empty.

type Entity = NormalizedDomain['entities'][number]

function entity(roles: string[], fields: Partial<Entity>): Entity {
  return {
    handle: null,
    roles,
    parent_handle: null,
    name: null,
    organization: null,
    kind: null,
    emails: [],
    phones: [],
    address: [],
    url: null,
    public_ids: [],
    iana_id: null,
    status: [],
    events: [],
    ...fields,
  }
}

/** The registry's record, completed from the registrar's where it is silent. */
function merged(registry: WhoisRecord, registrar: WhoisRecord | null): WhoisRecord {
  if (!registrar) return registry
  const r = registry.registrar
  const rr = registrar.registrar
  return {
    ...registry,
    registrar: {
      name: r.name ?? rr.name,
      iana_id: r.iana_id ?? rr.iana_id,
      url: r.url ?? rr.url,
      whois_server: r.whois_server,
      abuse_email: r.abuse_email ?? rr.abuse_email,
      abuse_phone: r.abuse_phone ?? rr.abuse_phone,
    },
    registrant: registry.registrant ?? registrar.registrant,
    created: registry.created ?? registrar.created,
    expires: registry.expires ?? registrar.expires,
    updated: registry.updated ?? registrar.updated,
    nameservers: registry.nameservers.length > 0 ? registry.nameservers : registrar.nameservers,
    status: registry.status.length > 0 ? registry.status : registrar.status,
  }
}

export function whoisDomain(result: WhoisDomainResult): NormalizedDomain {
  const followed = result.registrar?.status === 'ok' ? (result.registrar.answer?.record ?? null) : null
  const w = merged(result.registry.record, followed)
  const events = [
    ...(w.created ? [{ action: 'registration', date: w.created, actor: null }] : []),
    ...(w.expires ? [{ action: 'expiration', date: w.expires, actor: null }] : []),
    ...(w.updated ? [{ action: 'last changed', date: w.updated, actor: null }] : []),
  ]
  const registrar = w.registrar.name || w.registrar.iana_id || w.registrar.url || w.registrar.abuse_email ? w.registrar : null
  const registrant = w.registrant ? entity(['registrant'], { organization: w.registrant }) : null
  const abuse = w.registrar.abuse_email || w.registrar.abuse_phone
  const entities = [
    ...(registrar
      ? [
          entity(['registrar'], {
            name: registrar.name,
            url: registrar.url,
            iana_id: registrar.iana_id,
            public_ids: registrar.iana_id ? [{ type: 'IANA Registrar ID', identifier: registrar.iana_id }] : [],
          }),
        ]
      : []),
    ...(abuse ? [entity(['abuse'], { emails: w.registrar.abuse_email ? [w.registrar.abuse_email] : [], phones: w.registrar.abuse_phone ? [{ number: w.registrar.abuse_phone, types: ['voice'] }] : [] })] : []),
    ...(registrant ? [registrant] : []),
  ]
  return {
    object_class: 'domain',
    ldh_name: w.domain ?? result.domain,
    unicode_name: null,
    handle: w.handle,
    status: w.status.map(describeStatus),
    events,
    entities,
    abuse_contact: abuse ? { handle: null, name: null, email: w.registrar.abuse_email, phone: w.registrar.abuse_phone, inferred: false } : null,
    port43: result.registry.server.replace(/:43$/, ''),
    notices: [],
    remarks: [],
    links: [],
    rdap_conformance: [],
    registered: w.created,
    expires: w.expires,
    last_changed: w.updated,
    rdap_updated: null,
    registrar: registrar
      ? { handle: null, name: registrar.name, iana_id: registrar.iana_id, url: registrar.url, abuse_email: registrar.abuse_email, abuse_phone: registrar.abuse_phone }
      : null,
    registrant,
    nameservers: w.nameservers.map((n) => ({ name: n.name, unicode_name: null, handle: null, ipv4: n.ipv4, ipv6: n.ipv6 })),
    secure_dns: { delegation_signed: w.dnssec.signed, zone_signed: null, max_sig_life: null, ds: w.dnssec.ds, keys: w.dnssec.keys },
  }
}
