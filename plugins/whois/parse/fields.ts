import type { WhoisEntry } from './entries.ts'

// Which keys carry which field, registry by registry. A field is read from the
// first entry whose key (and, where it matters, section) matches, so a domain's
// "Created:" wins over a contact's "Created:" further down (NIC.it, AFNIC,
// DENIC's [Tech-C]). Keys are compared in the form entries.ts gives them
// (lowercased, spaces collapsed); the table is a Map: keys come from the text.

export type Field =
  | 'domain'
  | 'handle'
  | 'registrar'
  | 'registrar_iana_id'
  | 'registrar_url'
  | 'registrar_whois'
  | 'abuse_email'
  | 'abuse_phone'
  | 'registrant'
  | 'created'
  | 'updated'
  | 'expires'
  | 'status'
  | 'nameserver'
  | 'dnssec'
  | 'dnskey'
  | 'ds'

const KEYS: ReadonlyArray<[Field, readonly string[]]> = [
  ['domain', ['domain name', 'domain', 'domain name (ascii)']],
  ['handle', ['registry domain id', 'roid', 'domain id']],
  ['registrar', ['registrar', 'sponsoring registrar', 'registrar name', 'registrar organization', 'registrar organization name']],
  ['registrar_iana_id', ['registrar iana id', 'sponsoring registrar iana id']],
  ['registrar_url', ['registrar url', 'registrar website', 'referral url']],
  ['registrar_whois', ['registrar whois server', 'whois server', 'registrar whois']],
  ['abuse_email', ['registrar abuse contact email']],
  ['abuse_phone', ['registrar abuse contact phone']],
  ['registrant', ['registrant organization', 'registrant organisation', 'registrant', 'registrant name', 'org', 'holder']],
  ['created', ['creation date', 'created', 'created on', 'created date', 'registered', 'registered on', 'registration date', 'registration time', 'date registered', 'domain registered', 'registered date']],
  ['updated', ['updated date', 'last updated', 'last update', 'last-update', 'last modified', 'changed', 'modified', 'record last updated', 'last updated on', 'updated']],
  [
    'expires',
    ['registry expiry date', 'expiry date', 'expiration date', 'expire date', 'expires', 'expires on', 'expiration time', 'paid-till', 'renewal date', 'registrar registration expiration date'],
  ],
  ['status', ['domain status', 'status', 'eppstatus', 'state', 'registration status', 'flags']],
  ['nameserver', ['name server', 'nameserver', 'nserver', 'name servers', 'nameservers', 'domain nameservers', 'domain servers', 'dns', 'host name']],
  ['dnssec', ['dnssec', 'signed', 'signing key', 'dnssec signed']],
  ['dnskey', ['dnskey']],
  ['ds', ['ds record', 'ds-rdata', 'dsdata']],
]

const BY_KEY = new Map<string, Field>(KEYS.flatMap(([field, keys]) => keys.map((k) => [k, field] as const)))

/** Red.es numbers its name servers: "Name Server 1". */
const NUMBERED_NS = /^name server \d{1,2}$/

/** Sections holding a contact: their dates and names are the contact's, not the domain's. */
const CONTACT_SECTION = /registrant|admin|tech|billing|contact|holder|owner|zone-c|domicile/

/** Sections that stand for a field of their own: the lines under them are its values. */
const SECTION_FIELDS = new Map<string, Field>([
  ['registrar', 'registrar'],
  ['registrant', 'registrant'],
  ['name servers', 'nameserver'],
  ['nameservers', 'nameserver'],
  ['domain nameservers', 'nameserver'],
  ['domain servers', 'nameserver'],
  ['name server information', 'nameserver'],
  ['registration status', 'status'],
  ['flags', 'status'],
  ['domain name', 'domain'],
  ['keys', 'dnskey'],
])

/** The field an entry carries, if any. */
export function fieldOf(entry: WhoisEntry): Field | null {
  const { section, key } = entry
  if (key === null) {
    // A value line under a header: "Registrar:\n   MarkMonitor Inc." (SIDN), "Name servers:\n  ns1..." (Nominet).
    return section === null ? null : (SECTION_FIELDS.get(section) ?? null)
  }
  if (section !== null && CONTACT_SECTION.test(section)) {
    // Red.es, NIC.it: "Registrant:\n  Registrant Name: ..." / "Registrant\n  Organization: ..."
    const holder = section === 'registrant' || section === 'holder'
    return holder && /^(registrant (name|organi[sz]ation)|organi[sz]ation|name)$/.test(key) ? 'registrant' : null
  }
  if (section === 'registrar') {
    // "Registrar\n  Organization: MarkMonitor" (NIC.it), "Registrar:\n\tName: Combell nv" (DNS Belgium)
    if (key === 'organization' || key === 'organisation' || key === 'name') return 'registrar'
    if (key === 'url' || key === 'website' || key === 'web') return 'registrar_url'
    if (key === 'whois server') return 'registrar_whois'
    return null
  }
  if (NUMBERED_NS.test(key)) return 'nameserver'
  return BY_KEY.get(key) ?? null
}
