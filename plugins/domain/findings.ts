import type { z } from 'zod'
import type { FindingData, Severity } from '../../registry/domain/schemas/domain-data.ts'
import type { MailSignals } from './mail-signals.ts'

// What an operator should look at, most severe first. Thresholds: expired or in
// deletion is critical; a hold (not in DNS), expiry within 30 days or a domain
// younger than 30 days (the classic phishing signal) is high/medium; missing mail
// authentication is medium; missing hardening (DNSSEC, CAA, transfer lock) is low.

type Finding = z.infer<typeof FindingData>
type Level = z.infer<typeof Severity>

const ORDER: Record<Level, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 }

export interface FindingInput {
  rdap: 'ok' | 'not_found' | 'failed'
  age_days: number | null
  days_to_expiry: number | null
  status_codes: string[]
  /** The registry states EPP statuses (RDAP always; WHOIS registries that print them); false: absent locks mean nothing. */
  epp_status: boolean
  registry_ns_count: number | null
  delegation_signed: boolean | null
  ns_mismatch: boolean
  only_in_registry: string[]
  only_in_dns: string[]
  nxdomain: boolean
  mail: MailSignals
  caa_present: boolean | null
}

export function deriveFindings(i: FindingInput): Finding[] {
  const out: Finding[] = []
  const add = (severity: Level, code: string, message: string) => out.push({ severity, code, message })
  const has = (code: string) => i.status_codes.includes(code)

  if (i.rdap === 'not_found') add('high', 'not_registered', 'The registry has no record of this domain (RDAP 404 or WHOIS "no match"): it is not registered, or was deleted.')
  if (i.days_to_expiry !== null && i.days_to_expiry < 0) add('critical', 'expired', `The registration expired ${-i.days_to_expiry} days ago.`)
  else if (i.days_to_expiry !== null && i.days_to_expiry <= 30) add('high', 'expiring_soon', `The registration expires in ${i.days_to_expiry} days.`)
  if (has('pending delete') || has('redemption period')) add('critical', 'pending_deletion', 'The domain has been deleted and is in its redemption or pending-delete period.')
  if (has('client hold') || has('server hold')) add('high', 'on_hold', 'The domain is on hold: it is removed from DNS and does not resolve.')
  if (i.age_days !== null && i.age_days < 30) add('medium', 'newly_registered', `The domain was registered ${i.age_days} days ago; new domains are often used for phishing and spam.`)
  if (i.rdap === 'ok' && i.epp_status && !has('client transfer prohibited') && !has('server transfer prohibited')) {
    add('low', 'no_transfer_lock', 'No transfer lock (clientTransferProhibited): the domain could be transferred away without an extra step.')
  }
  if (has('server update prohibited') && has('server delete prohibited') && has('server transfer prohibited')) {
    add('info', 'registry_lock', 'Registry lock is on: changes need the registry\'s manual verification.')
  }
  if (i.delegation_signed === false) add('low', 'dnssec_unsigned', 'The delegation is not DNSSEC-signed (no DS records at the registry).')
  if (i.delegation_signed === true) add('info', 'dnssec_signed', 'The delegation is DNSSEC-signed (DS records at the registry).')
  if (i.registry_ns_count !== null && i.registry_ns_count > 0 && i.registry_ns_count < 2) {
    add('medium', 'single_nameserver', 'Only one name server is delegated; RFC 1034 asks for at least two.')
  }
  if (i.ns_mismatch) {
    const parts = [
      i.only_in_registry.length ? `only at the registry: ${i.only_in_registry.join(', ')}` : '',
      i.only_in_dns.length ? `only in DNS: ${i.only_in_dns.join(', ')}` : '',
    ].filter(Boolean)
    add('medium', 'nameserver_mismatch', `The registry delegation and the zone's NS records differ (${parts.join('; ')}).`)
  }
  if (i.nxdomain) add('high', 'nxdomain', 'DNS says the domain does not exist (NXDOMAIN).')

  const m = i.mail
  if (m.null_mx) add('info', 'null_mx', 'The domain publishes a null MX (RFC 7505): it accepts no mail.')
  else if (m.mx !== null && m.mx.length === 0 && !i.nxdomain) add('info', 'no_mx', 'No MX records: mail is delivered to the A/AAAA address, if anywhere.')
  if (m.spf && !m.spf.present && !i.nxdomain) add('medium', 'spf_missing', 'No SPF record: anyone can send mail claiming this domain.')
  if (m.spf && m.spf.records.length > 1) add('high', 'spf_multiple', `${m.spf.records.length} SPF records: receivers treat this as a permanent error (RFC 7208 §4.5).`)
  if (m.dmarc && !m.dmarc.present && !i.nxdomain) add('medium', 'dmarc_missing', 'No DMARC record at _dmarc: receivers get no policy for mail failing SPF/DKIM.')
  if (m.dmarc?.policy === 'none') add('low', 'dmarc_monitoring_only', 'DMARC policy is p=none: failing mail is reported, not rejected.')
  if (i.caa_present === false && !i.nxdomain) add('low', 'caa_missing', 'No CAA records: any certificate authority may issue certificates for the domain.')

  return out.sort((a, b) => ORDER[a.severity] - ORDER[b.severity])
}
