import type { RawObject } from '../../runtime/raw-json.ts'
import { arr, obj, str, unique } from '../../runtime/raw-json.ts'

// jCard (RFC 7095), the contact format inside RDAP entities: ["vcard", [[name,
// params, type, value...], ...]]. Registries fill it inconsistently: phones come as
// "tel:+1.2083895740" uris or as bare "+61-7-3858-3188" text (AFRINIC even sends
// "tel:" in text), addresses as a `label` param or as the 7-part structured value,
// abuse mailboxes marked with a `type: abuse` param (RIPE) or `pref: 1` (APNIC).

export interface Phone {
  number: string
  types: string[]
}

export interface Contact {
  name: string | null
  organization: string | null
  kind: string | null
  emails: string[]
  phones: Phone[]
  address: string[]
  url: string | null
}

interface Property {
  name: string
  params: RawObject
  values: unknown[]
}

function properties(vcardArray: unknown): Property[] {
  const outer = arr(vcardArray)
  if (outer[0] !== 'vcard') return []
  return arr(outer[1]).flatMap((p) => {
    const parts = arr(p)
    const name = typeof parts[0] === 'string' ? parts[0].toLowerCase() : null
    if (name === null || parts.length < 4) return []
    return [{ name, params: obj(parts[1]) ?? {}, values: parts.slice(3) }]
  })
}

/** Param values are a string or a list of strings (RFC 7095 §3.4). */
function paramList(params: RawObject, key: string): string[] {
  const v = params[key]
  const list = Array.isArray(v) ? v : [v]
  return list.flatMap((x) => (typeof x === 'string' && x.trim() !== '' ? [x.trim().toLowerCase()] : []))
}

/** Structured values (adr, org) nest lists; flatten them to their non-empty texts. */
function texts(values: unknown[]): string[] {
  return values.flatMap((v) => (Array.isArray(v) ? texts(v) : (str(v) === null ? [] : [str(v)!])))
}

const firstText = (props: Property[], name: string): string | null => {
  for (const p of props) if (p.name === name) {
    const t = texts(p.values)
    if (t.length > 0) return t.join(', ')
  }
  return null
}

function phoneNumber(value: string): string {
  return value.replace(/^tel:/i, '').trim()
}

// ARIN and APNIC escape newlines in labels as a literal backslash-n.
const labelLines = (label: string): string[] => label.split(/\r?\n|\\n/).map((l) => l.trim()).filter((l) => l !== '')

export function parseJcard(vcardArray: unknown): Contact | null {
  const props = properties(vcardArray)
  if (props.length === 0) return null
  const emails = unique(props.filter((p) => p.name === 'email').flatMap((p) => texts(p.values)))
  const phones: Phone[] = []
  for (const p of props.filter((x) => x.name === 'tel')) {
    for (const value of texts(p.values)) {
      const number = phoneNumber(value)
      if (number !== '' && !phones.some((q) => q.number === number)) phones.push({ number, types: paramList(p.params, 'type') })
    }
  }
  const adr = props.find((p) => p.name === 'adr')
  const label = adr && typeof adr.params.label === 'string' ? adr.params.label : null
  const address = label !== null ? labelLines(label) : adr ? texts(adr.values) : []
  return {
    name: firstText(props, 'fn'),
    organization: firstText(props, 'org'),
    kind: firstText(props, 'kind')?.toLowerCase() ?? null,
    emails,
    phones,
    address,
    url: firstText(props, 'url'),
  }
}

/**
 * The mailbox to send abuse reports to: one marked `type=abuse` (RIPE's
 * abuse-mailbox), else the preferred one (lowest `pref`, APNIC), else one whose
 * local part is "abuse", else the first.
 */
export function abuseEmailOf(vcardArray: unknown): string | null {
  const emails = properties(vcardArray)
    .filter((p) => p.name === 'email')
    .flatMap((p) => texts(p.values).map((email, i) => ({ email, types: paramList(p.params, 'type'), pref: Number(p.params.pref ?? NaN), order: i })))
  if (emails.length === 0) return null
  const typed = emails.find((e) => e.types.includes('abuse'))
  if (typed) return typed.email
  const preferred = emails.filter((e) => Number.isFinite(e.pref)).sort((a, b) => a.pref - b.pref)[0]
  if (preferred) return preferred.email
  return (emails.find((e) => /^abuse@/i.test(e.email)) ?? emails[0]!).email
}

/** A voice number first (fax numbers are no way to report abuse). */
export function voicePhoneOf(contact: Contact | null): string | null {
  if (!contact) return null
  const voice = contact.phones.find((p) => !p.types.includes('fax'))
  return voice?.number ?? null
}
