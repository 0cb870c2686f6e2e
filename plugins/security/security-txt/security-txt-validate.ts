import type { WebFinding } from '../../../registry/web/schemas/web-findings.ts'
import type { ParsedSecurityTxt, TxtField } from './security-txt-parse.ts'

// RFC 9116 §2.5 field rules. Contact (one or more, in order of preference — the
// only field whose order means anything) and Expires (exactly once) are
// required; Preferred-Languages may appear once; every other field may repeat.
// Web URIs must be https. Expires is an RFC 3339 date-time, should be less than
// a year ahead, and once passed the file must not be trusted. When Canonical is
// present the URL the file came from must be one of its values (§2.5.2).

export interface SecurityTxtFields {
  contact: string[]
  expires: string | null
  expires_in_days: number | null
  expired: boolean | null
  encryption: string[]
  acknowledgments: string[]
  canonical: string[]
  policy: string[]
  hiring: string[]
  preferred_languages: string[]
  csaf: string[]
  unknown_fields: string[]
}

const KNOWN = new Set(['acknowledgments', 'canonical', 'contact', 'encryption', 'expires', 'hiring', 'policy', 'preferred-languages', 'csaf'])
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/
const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/
const DAY_MS = 86_400_000

function uriProblem(field: TxtField, schemes: readonly string[]): string | null {
  let url: URL
  try {
    url = new URL(field.value)
  } catch {
    if (field.key === 'contact' && /^[^\s@]+@[^\s@]+$/.test(field.value)) return `${field.name} "${field.value}" is an email address, not a URI; write mailto:${field.value}`
    return `${field.name} "${field.value}" is not a URI`
  }
  const scheme = url.protocol.slice(0, -1)
  if (scheme === 'http') return `${field.name} ${field.value} uses http://; web URIs must be https:// (RFC 9116 §2.5)`
  if (!schemes.includes(scheme)) return `${field.name} uses the ${scheme}: scheme; expected ${schemes.map((s) => `${s}:`).join(', ')}`
  return null
}

export function validateSecurityTxt(parsed: ParsedSecurityTxt, retrievedFrom: readonly string[], now: number): { fields: SecurityTxtFields; findings: WebFinding[] } {
  const findings: WebFinding[] = []
  const add = (code: string, severity: WebFinding['severity'], message: string, fix: string | null = null) => findings.push({ code, severity, message, fix })
  const all = (key: string) => parsed.fields.filter((f) => f.key === key)
  const values = (key: string) => all(key).map((f) => f.value)

  for (const p of parsed.problems) add(`security_txt.syntax`, p.severity === 'error' ? 'medium' : p.severity === 'warning' ? 'low' : 'info', `${p.line ? `Line ${p.line}: ` : ''}${p.message}.`, 'Write each field as "Field-Name: value" on its own line.')

  const contacts = all('contact')
  if (contacts.length === 0) add('security_txt.contact_missing', 'high', 'No Contact field: the one thing a security.txt must say is how to report a vulnerability.', 'Add Contact: mailto:security@<domain> (or an https:// form).')
  for (const c of contacts) {
    const problem = uriProblem(c, ['mailto', 'https', 'tel'])
    if (problem) add('security_txt.contact_invalid', 'medium', `Line ${c.line}: ${problem}.`, 'Contact must be a mailto:, tel: or https:// URI.')
  }

  const expiresFields = all('expires')
  let expires: string | null = null
  let expiresIn: number | null = null
  let expired: boolean | null = null
  if (expiresFields.length === 0) add('security_txt.expires_missing', 'medium', 'No Expires field; RFC 9116 requires one so stale files are not trusted forever.', 'Add Expires: <date less than a year ahead>, e.g. 2027-01-01T00:00:00Z.')
  if (expiresFields.length > 1) add('security_txt.expires_repeated', 'medium', `Expires appears ${expiresFields.length} times; it must appear exactly once.`, 'Keep one Expires field.')
  const e = expiresFields[0]
  if (e) {
    expires = e.value
    if (!RFC3339.test(e.value) || Number.isNaN(Date.parse(e.value))) {
      add('security_txt.expires_invalid', 'medium', `Line ${e.line}: Expires "${e.value}" is not an RFC 3339 date-time.`, 'Write it like 2027-01-01T00:00:00Z.')
    } else {
      const at = Date.parse(e.value)
      expiresIn = Math.floor((at - now) / DAY_MS)
      expired = at <= now
      if (expired) add('security_txt.expired', 'high', `The file expired on ${new Date(at).toISOString()}; researchers should not trust it.`, 'Review the contents and set a new Expires date.')
      else if (at - now > 366 * DAY_MS) add('security_txt.expires_far', 'low', `Expires is ${expiresIn} days ahead; RFC 9116 recommends less than a year.`, 'Set Expires less than a year ahead and review the file before then.')
    }
  }

  const languages = all('preferred-languages')
  if (languages.length > 1) add('security_txt.languages_repeated', 'low', 'Preferred-Languages appears more than once; it may appear once.', 'Merge them into one comma-separated field.')
  const langs = languages.flatMap((l) => l.value.split(',').map((s) => s.trim()).filter(Boolean))
  const badLangs = langs.filter((l) => !LANGUAGE_TAG.test(l))
  if (badLangs.length) add('security_txt.languages_invalid', 'low', `Preferred-Languages has values that are not language tags: ${badLangs.join(', ')}.`, 'Use RFC 5646 tags such as en, de, pt-BR.')

  for (const key of ['encryption', 'acknowledgments', 'policy', 'hiring', 'canonical', 'csaf']) {
    for (const f of all(key)) {
      const problem = uriProblem(f, key === 'encryption' ? ['https', 'dns', 'openpgp4fpr'] : ['https'])
      if (problem) add(`security_txt.${key}_invalid`, 'low', `Line ${f.line}: ${problem}.`, null)
    }
  }

  const canonical = values('canonical')
  if (canonical.length > 0 && !canonical.some((c) => retrievedFrom.includes(c))) {
    add('security_txt.canonical_mismatch', 'medium', `The file was retrieved from ${retrievedFrom.at(-1)}, which none of its Canonical fields names (${canonical.join(', ')}); RFC 9116 says it should then not be trusted.`, 'List the URL the file is served at in Canonical.')
  }
  if (parsed.signed) {
    add('security_txt.signature_not_verified', 'info', 'The file is OpenPGP-signed; the signature was not verified (the key would come from the Encryption field).', null)
    if (canonical.length === 0) add('security_txt.signed_without_canonical', 'low', 'The file is signed but has no Canonical field, so a copy could be replayed at another location.', 'Add Canonical: with the file\'s URL.')
  } else {
    add('security_txt.unsigned', 'info', 'The file is not signed; RFC 9116 recommends an OpenPGP cleartext signature.', null)
  }
  const unknown = [...new Set(parsed.fields.filter((f) => !KNOWN.has(f.key)).map((f) => f.name))]
  if (unknown.length) add('security_txt.unknown_fields', 'info', `Fields not in the IANA registry: ${unknown.join(', ')} (allowed, but ignored by most tools).`, null)

  return {
    fields: {
      contact: values('contact'),
      expires,
      expires_in_days: expiresIn,
      expired,
      encryption: values('encryption'),
      acknowledgments: values('acknowledgments'),
      canonical,
      policy: values('policy'),
      hiring: values('hiring'),
      preferred_languages: langs,
      csaf: values('csaf'),
      unknown_fields: unknown,
    },
    findings,
  }
}
