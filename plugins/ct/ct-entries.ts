// crt.sh log entries, in either JSON shape it has served: the current one
// (with common_name and serial_number) and the older one without them (as
// recorded in 2020). One certificate appears several times — the precertificate
// and the final certificate, each in one or more logs — so entries are merged
// into certificates: by issuer and serial number when the serial is there, else
// by issuer, validity and names.

export interface CrtshEntry {
  id: number
  issuer_ca_id: number | null
  issuer_name: string
  common_name: string | null
  name_value: string
  not_before: string
  not_after: string
  serial_number: string | null
  entry_timestamp: string | null
}

export type Schema = 'current' | 'legacy'

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/** crt.sh times are UTC without a zone ("2023-01-13T00:00:00"); null if unreadable. */
export function utc(text: string | null): string | null {
  if (!text) return null
  const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`
  const t = Date.parse(iso)
  return Number.isNaN(t) ? null : new Date(t).toISOString()
}

/** The entries that have what a certificate needs; the rest are counted, not fatal. */
export function readEntries(rows: readonly unknown[]): { entries: CrtshEntry[]; skipped: number; schema: Schema } {
  const entries: CrtshEntry[] = []
  let skipped = 0
  let current = false
  for (const row of rows) {
    const r = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>
    const id = num(r.id)
    const names = str(r.name_value)
    const notBefore = utc(str(r.not_before))
    const notAfter = utc(str(r.not_after))
    if (id === null || names === null || !notBefore || !notAfter) {
      skipped++
      continue
    }
    if ('serial_number' in r || 'common_name' in r) current = true
    const ca = num(r.issuer_ca_id)
    entries.push({
      id,
      issuer_ca_id: ca !== null && ca >= 0 ? ca : null,
      issuer_name: str(r.issuer_name) ?? '',
      common_name: str(r.common_name),
      name_value: names,
      not_before: notBefore,
      not_after: notAfter,
      serial_number: str(r.serial_number)?.toLowerCase() ?? null,
      entry_timestamp: utc(str(r.entry_timestamp)),
    })
  }
  return { entries, skipped, schema: current ? 'current' : 'legacy' }
}

const DNS_NAME = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/

/** name_value: newline-separated identities; DNS names (lowercased) apart from e-mail addresses and the rest. */
export function splitIdentities(value: string): { dns: string[]; other: string[] } {
  const dns = new Set<string>()
  const other = new Set<string>()
  for (const raw of value.split('\n')) {
    const v = raw.trim()
    if (!v) continue
    const lower = v.toLowerCase().replace(/\.$/, '')
    if (DNS_NAME.test(lower) && lower.length <= 253) dns.add(lower)
    else other.add(v)
  }
  return { dns: [...dns].sort(), other: [...other].sort() }
}

/** "C=US, O=DigiCert Inc, CN=DigiCert TLS RSA SHA256 2020 CA1" -> its O and CN. */
export function parseIssuer(name: string): { organization: string | null; common_name: string | null } {
  const field = (key: string) => {
    const m = new RegExp(`(?:^|,\\s*)${key}=("(?:[^"]|"")*"|[^,]*)`).exec(name)
    return m ? m[1]!.replace(/^"(.*)"$/, '$1').replace(/""/g, '"').trim() : null
  }
  return { organization: field('O'), common_name: field('CN') }
}

export function certificateKey(e: CrtshEntry): string {
  if (e.serial_number) return `${e.issuer_ca_id ?? e.issuer_name}|${e.serial_number}`
  return `${e.issuer_ca_id ?? e.issuer_name}|${e.not_before}|${e.not_after}|${splitIdentities(e.name_value).dns.join(',')}`
}
