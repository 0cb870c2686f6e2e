import type { CrtshClient } from './crtsh-client.ts'
import type { CrtshEntry } from './ct-entries.ts'
import { certificateKey, parseIssuer, readEntries, splitIdentities } from './ct-entries.ts'
import { UpstreamError } from '../../runtime/errors.ts'

// GET /api/certificate-transparency/{domain}: the certificates CT logs hold for
// a domain, one per certificate (not per log entry), newest first, with the
// names each covers, its issuer and validity.

export interface TransparencyInput {
  domain: string
  expired: boolean
  include_subdomains: boolean
}

const DAY = 86_400_000

export async function certificateTransparency(crtsh: CrtshClient, input: TransparencyInput, signal: AbortSignal, now: Date) {
  const q = input.include_subdomains ? `%.${input.domain}` : input.domain
  const rows = await crtsh({ q, excludeExpired: !input.expired }, signal)
  const { entries, skipped, schema } = readEntries(rows)
  if (rows.length > 0 && entries.length === 0) {
    throw new UpstreamError('crtsh', 'bad_response', `crt.sh answered ${rows.length} entries, none of them readable as a certificate.`, { entries: rows.length })
  }
  const groups = new Map<string, CrtshEntry[]>()
  for (const e of entries) {
    const key = certificateKey(e)
    const list = groups.get(key)
    if (list) list.push(e)
    else groups.set(key, [e])
  }
  const certificates = [...groups.values()].map((list) => {
    const first = list[0]!
    const dns = new Set<string>()
    const other = new Set<string>()
    for (const e of list) {
      const ids = splitIdentities(e.name_value)
      ids.dns.forEach((n) => dns.add(n))
      ids.other.forEach((n) => other.add(n))
    }
    const logged = list.map((e) => e.entry_timestamp).filter((t): t is string => t !== null).sort()
    const notAfter = Date.parse(first.not_after)
    return {
      crtsh_ids: list.map((e) => e.id).sort((a, b) => a - b),
      serial_number: first.serial_number,
      common_name: list.find((e) => e.common_name)?.common_name ?? null,
      names: [...dns].sort(),
      other_identities: [...other].sort(),
      issuer: { name: first.issuer_name, ...parseIssuer(first.issuer_name), ca_id: first.issuer_ca_id },
      not_before: first.not_before,
      not_after: first.not_after,
      validity_days: Math.round((notAfter - Date.parse(first.not_before)) / DAY),
      days_left: Math.floor((notAfter - now.getTime()) / DAY),
      expired: notAfter < now.getTime(),
      first_logged: logged[0] ?? null,
      log_entries: list.length,
    }
  })
  // crt.sh filters server-side on request; filtering here too keeps the answer right when it did not.
  const shown = certificates.filter((c) => input.expired || !c.expired).sort((a, b) => b.not_before.localeCompare(a.not_before) || b.crtsh_ids[0]! - a.crtsh_ids[0]!)
  const issuers = new Map<string, { name: string; organization: string | null; common_name: string | null; ca_id: number | null; certificate_count: number }>()
  for (const c of shown) {
    const known = issuers.get(c.issuer.name)
    if (known) known.certificate_count++
    else issuers.set(c.issuer.name, { ...c.issuer, certificate_count: 1 })
  }
  return {
    domain: input.domain,
    include_subdomains: input.include_subdomains,
    expired_included: input.expired,
    schema,
    log_entries: rows.length,
    skipped_entries: skipped,
    certificate_count: shown.length,
    names: [...new Set(shown.flatMap((c) => c.names))].sort(),
    issuers: [...issuers.values()].sort((a, b) => b.certificate_count - a.certificate_count || a.name.localeCompare(b.name)),
    certificates: shown,
  }
}
