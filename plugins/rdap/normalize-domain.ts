import type { CommonFields, RdapEntity } from './normalize-common.ts'
import { commonFields, eventDate } from './normalize-common.ts'
import type { RawObject } from '../../runtime/raw-json.ts'
import { bool, int, obj, objects, str, strings } from '../../runtime/raw-json.ts'

// RFC 9083 §5.3 domain objects, normalized: names, status with EPP meanings, the
// lifecycle dates, registrar (with IANA id and abuse contact), registrant, name
// servers with glue, and secureDNS (RFC 9083 §5.3 "secureDNS").

export interface NameserverInfo {
  /** Lowercased LDH name. */
  name: string
  unicode_name: string | null
  handle: string | null
  ipv4: string[]
  ipv6: string[]
}

export interface DsRecord {
  key_tag: number | null
  algorithm: number | null
  digest_type: number | null
  digest: string | null
}

export interface KeyRecord {
  flags: number | null
  protocol: number | null
  algorithm: number | null
  public_key: string | null
}

export interface SecureDns {
  delegation_signed: boolean | null
  zone_signed: boolean | null
  max_sig_life: number | null
  ds: DsRecord[]
  keys: KeyRecord[]
}

export interface RegistrarInfo {
  handle: string | null
  name: string | null
  iana_id: string | null
  url: string | null
  abuse_email: string | null
  abuse_phone: string | null
}

export interface NormalizedDomain extends CommonFields {
  object_class: 'domain'
  ldh_name: string | null
  unicode_name: string | null
  registered: string | null
  expires: string | null
  last_changed: string | null
  rdap_updated: string | null
  registrar: RegistrarInfo | null
  registrant: RdapEntity | null
  nameservers: NameserverInfo[]
  secure_dns: SecureDns
}

export function normalizeNameserver(n: RawObject): NameserverInfo | null {
  const name = str(n.ldhName)?.toLowerCase().replace(/\.$/, '') ?? null
  if (name === null) return null
  const ips = obj(n.ipAddresses) ?? {}
  return { name, unicode_name: str(n.unicodeName), handle: str(n.handle), ipv4: strings(ips.v4), ipv6: strings(ips.v6) }
}

function secureDns(value: unknown): SecureDns {
  const s = obj(value) ?? {}
  return {
    delegation_signed: bool(s.delegationSigned),
    zone_signed: bool(s.zoneSigned),
    max_sig_life: int(s.maxSigLife),
    ds: objects(s.dsData).map((d) => ({ key_tag: int(d.keyTag), algorithm: int(d.algorithm), digest_type: int(d.digestType), digest: str(d.digest)?.toUpperCase() ?? null })),
    keys: objects(s.keyData).map((k) => ({ flags: int(k.flags), protocol: int(k.protocol), algorithm: int(k.algorithm), public_key: str(k.publicKey) })),
  }
}

/** The registrar summary: the top-level entity with the registrar role and its abuse contact. */
export function registrarOf(entities: readonly RdapEntity[]): RegistrarInfo | null {
  const registrar = entities.find((e) => e.parent_handle === null && e.roles.includes('registrar')) ?? entities.find((e) => e.roles.includes('registrar'))
  if (!registrar) return null
  const abuse = entities.find((e) => e.parent_handle !== null && e.parent_handle === registrar.handle && e.roles.includes('abuse'))
  return {
    handle: registrar.handle,
    name: registrar.name ?? registrar.organization,
    iana_id: registrar.iana_id,
    url: registrar.url,
    abuse_email: abuse?.emails[0] ?? null,
    abuse_phone: abuse?.phones.find((p) => !p.types.includes('fax'))?.number ?? null,
  }
}

export function normalizeDomain(o: RawObject): NormalizedDomain {
  const common = commonFields(o)
  const seen = new Set<string>()
  const nameservers = objects(o.nameservers).flatMap((n) => {
    const ns = normalizeNameserver(n)
    if (!ns || seen.has(ns.name)) return []
    seen.add(ns.name)
    return [ns]
  })
  return {
    object_class: 'domain',
    ldh_name: str(o.ldhName),
    unicode_name: str(o.unicodeName),
    ...common,
    registered: eventDate(common.events, 'registration'),
    expires: eventDate(common.events, 'expiration'),
    last_changed: eventDate(common.events, 'last changed'),
    rdap_updated: eventDate(common.events, 'last update of rdap database'),
    registrar: registrarOf(common.entities),
    registrant: common.entities.find((e) => e.roles.includes('registrant')) ?? null,
    nameservers,
    secure_dns: secureDns(o.secureDNS),
  }
}

/** Link to the registrar's own RDAP record of the domain (ICANN gTLD profile: rel "related"). */
export function registrarLink(o: RawObject): string | null {
  for (const l of objects(o.links)) {
    const href = str(l.href)
    const rel = str(l.rel)?.toLowerCase()
    const type = str(l.type)?.toLowerCase() ?? ''
    if (href && rel === 'related' && type.includes('application/rdap+json') && /^https?:\/\//i.test(href)) return href
  }
  return null
}

/**
 * A "thin" registry answer (.com/.net, and gTLD registries under the 2019 ICANN
 * profile) names only the registrar: no registrant or other contacts. The
 * registrar's RDAP server has the rest.
 */
export function isThin(d: Pick<NormalizedDomain, 'entities'>): boolean {
  return !d.entities.some((e) => e.roles.some((r) => r !== 'registrar' && r !== 'abuse'))
}
