import type { AnswerKind } from './answer-kind.ts'
import { answerKind } from './answer-kind.ts'
import { whoisDate } from './dates.ts'
import type { WhoisEntry } from './entries.ts'
import { whoisEntries } from './entries.ts'
import type { Field } from './fields.ts'
import { fieldOf } from './fields.ts'
import type { WhoisNameserver } from './nameservers.ts'
import { hostName, mergeNameservers, parseNameserver } from './nameservers.ts'

// One WHOIS answer to the fields the service normalizes (the ones RDAP answers
// carry too): registrar, created / updated / expires, status, name servers,
// DNSSEC. Whatever a registry does not print stays null or empty; the raw text
// goes into the answer beside these, so nothing is lost. Never throws.

export interface WhoisRegistrar {
  name: string | null
  /** Digits only ("not applicable" from CIRA is null). */
  iana_id: string | null
  url: string | null
  /** The registrar's own WHOIS server, as the registry names it (not yet vetted: a host name or null). */
  whois_server: string | null
  abuse_email: string | null
  abuse_phone: string | null
}

export interface WhoisDs {
  key_tag: number | null
  algorithm: number | null
  digest_type: number | null
  digest: string | null
}

export interface WhoisKey {
  flags: number | null
  protocol: number | null
  algorithm: number | null
  public_key: string | null
}

export interface WhoisRecord {
  kind: AnswerKind
  /** Lowercased, as the registry wrote it. */
  domain: string | null
  handle: string | null
  registrar: WhoisRegistrar
  /** The holder's organization or name where the registry shows one (most redact it). */
  registrant: string | null
  /** UTC ISO 8601, or null when absent or not a date this reads. */
  created: string | null
  updated: string | null
  expires: string | null
  /** As written ("clientTransferProhibited", "connect", "Active"), the ICANN URL after it dropped. */
  status: string[]
  nameservers: WhoisNameserver[]
  dnssec: {
    /** true: DS data at the registry / "signedDelegation"; false: "unsigned", "no"; null: not said. */
    signed: boolean | null
    ds: WhoisDs[]
    keys: WhoisKey[]
  }
}

const REDACTED = /^(redacted|not (shown|disclosed|available)|data (redacted|protected)|privacy|withheld|n\/a|none|-|\.)\b/i

function clean(value: string | undefined): string | null {
  if (value === undefined) return null
  const v = value.trim().slice(0, 512)
  return v === '' || REDACTED.test(v) ? null : v
}

function statusWords(value: string, key: string | null): string[] {
  // "clientTransferProhibited https://icann.org/epp#..." / "... (https://www.icann.org/epp#...)"
  const word = value.replace(/\(?\s*https?:\/\/\S*\)?/gi, '').trim()
  if (word === '') return []
  return key === 'state' ? word.split(/\s*,\s*/).filter(Boolean) : [word]
}

function signedOf(entries: readonly WhoisEntry[]): boolean | null {
  const first = entries[0]
  if (!first) return null
  const v = first.value.trim().toLowerCase()
  // JPRS prints "[Signing Key]" on every record; empty means no DS at the registry.
  if (first.key === 'signing key') return v !== ''
  if (/^(signeddelegation|signed|yes|true|active|signed delegation)\b/.test(v)) return true
  if (/^(unsigned|no|false|inactive|not signed|unsigneddelegation)\b/.test(v)) return false
  return null
}

const int = (s: string | undefined): number | null => (s !== undefined && /^\d{1,5}$/.test(s) ? Number(s) : null)

function dsOf(value: string): WhoisDs | null {
  const p = value.trim().split(/\s+/)
  if (p.length < 4) return null
  return { key_tag: int(p[0]), algorithm: int(p[1]), digest_type: int(p[2]), digest: /^[0-9a-f]+$/i.test(p[3]!) ? p.slice(3).join('').toUpperCase() : null }
}

function keyOf(value: string): WhoisKey | null {
  const p = value.trim().split(/\s+/)
  if (p.length < 4) return null
  return { flags: int(p[0]), protocol: int(p[1]), algorithm: int(p[2]), public_key: p.slice(3).join('').slice(0, 4096) }
}

/** Line of the first contact object (AFNIC "nic-hdl:", DENIC "[Tech-C]" / "Type:", RIPE-like "person:"/"role:"). */
function whoisEntriesBoundary(byField: ReadonlyMap<Field | 'boundary', WhoisEntry[]>): number | null {
  return byField.get('boundary')?.[0]?.line ?? null
}

const CONTACT_OBJECT = new Set(['nic-hdl', 'type', 'person', 'role', 'tech-c', 'zone-c'])

export function parseWhoisRecord(text: string): WhoisRecord {
  const byField = new Map<Field | 'boundary', WhoisEntry[]>()
  for (const entry of whoisEntries(text)) {
    if (entry.section === null && entry.key !== null && CONTACT_OBJECT.has(entry.key) && !byField.has('boundary')) byField.set('boundary', [entry])
    const field = fieldOf(entry)
    if (field === null) continue
    const list = byField.get(field)
    if (list) list.push(entry)
    else byField.set(field, [entry])
  }
  const all = (f: Field) => byField.get(f) ?? []
  // The first value that says something ("REDACTED" does not).
  const first = (f: Field) => {
    for (const e of all(f)) {
      const value = clean(e.value)
      if (value !== null) return value
    }
    return null
  }
  const date = (f: Field) => {
    const value = first(f)
    return value === null ? null : whoisDate(value)
  }

  // RPSL-like answers (AFNIC, DENIC) list contact objects after the domain's, with
  // statuses of their own: the domain's are those before the first contact object.
  const contactsFrom = all('status').length > 0 ? (whoisEntriesBoundary(byField) ?? Infinity) : Infinity
  const status: string[] = []
  const seen = new Set<string>()
  for (const e of all('status')) {
    if (e.line >= contactsFrom) continue
    for (const word of statusWords(e.value, e.key)) {
      if (!seen.has(word.toLowerCase()) && status.length < 32) status.push(word)
      seen.add(word.toLowerCase())
    }
  }
  const nameservers = mergeNameservers(all('nameserver').flatMap((e) => parseNameserver(e.value) ?? []))
  const domainText = first('domain')
  const ianaId = first('registrar_iana_id')
  const email = first('abuse_email')
  const whoisServer = first('registrar_whois')
  const ds = all('ds').flatMap((e) => dsOf(e.value) ?? [])
  const keys = all('dnskey').flatMap((e) => keyOf(e.value) ?? [])
  const signed = signedOf(all('dnssec'))

  const record: WhoisRecord = {
    kind: 'record',
    domain: domainText === null ? null : domainText.toLowerCase().replace(/\.$/, ''),
    handle: first('handle'),
    registrar: {
      name: first('registrar'),
      iana_id: ianaId !== null && /^\d{1,10}$/.test(ianaId) ? ianaId : null,
      url: first('registrar_url'),
      whois_server: whoisServer === null ? null : whoisServer,
      abuse_email: email !== null && email.includes('@') ? email : null,
      abuse_phone: first('abuse_phone'),
    },
    // The holder's organization before a person's name ("Registrant Name: Dns Admin" comes first at MarkMonitor).
    registrant: clean(all('registrant').find((e) => e.value.trim() !== '' && !REDACTED.test(e.value.trim()) && /organi[sz]ation|^org$|^registrant$|^holder$/.test(e.key ?? ''))?.value) ?? first('registrant'),
    created: date('created'),
    updated: date('updated'),
    expires: date('expires'),
    status,
    nameservers,
    // DENIC prints the zone's keys instead of a DNSSEC line: keys at the registry mean a signed delegation.
    dnssec: { signed: signed ?? (ds.length > 0 || keys.length > 0 ? true : null), ds, keys },
  }
  const hasRecord =
    record.created !== null ||
    record.expires !== null ||
    record.registrar.name !== null ||
    record.nameservers.length > 0 ||
    status.some((s) => !/^(free|available)$/i.test(s))
  return { ...record, kind: answerKind(text, hasRecord) }
}

/** The registrar's WHOIS server as a host name to dial, or null (a URL, a path or junk is reduced or refused). */
export function referralHost(value: string | null): string | null {
  if (value === null) return null
  // "whois://whois.example.net:4343/", "rwhois://..." -> the host; the port is never taken (port 43 or nothing).
  // A web URL ("http://www.example.net/whois") names a web form, not a port-43 server.
  if (/^https?:\/\//i.test(value.trim())) return null
  const bare = value.trim().replace(/^[a-z]+:\/\//i, '').split(/[/:?#\s]/)[0] ?? ''
  return hostName(bare)
}
