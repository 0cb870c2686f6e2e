import type { EmailDns, TxtValue } from '../email-dns.ts'
import { organizationalDomain } from '../org-domain.ts'
import { isDmarcRecord } from './dmarc-parse.ts'

// Policy discovery (RFC 7489 §6.6.3): _dmarc.<domain>, and when that has no DMARC
// record, _dmarc.<Organizational Domain>. Several records, or a DNS failure, end
// discovery there (no fallback). DMARCbis replaces the PSL with a DNS tree walk;
// for a name directly below its organizational domain both give the same answer.

export interface DmarcDiscovery {
  domain: string
  organizational_domain: string
  status: 'found' | 'none' | 'multiple' | 'dns_error'
  source: 'domain' | 'organizational_domain' | null
  /** The name the record was found at (without "_dmarc."). */
  record_domain: string | null
  record: string | null
  /** Every DMARC record at the deciding name (more than one: status multiple). */
  records: string[]
  /** TXT records at _dmarc names that mention DMARC1 but do not start with it (receivers skip them). */
  misplaced: string[]
  error: string | null
}

async function at(dns: EmailDns, name: string): Promise<{ kind: 'error'; error: string } | { kind: 'ok'; dmarc: TxtValue[]; misplaced: TxtValue[] }> {
  const lookup = await dns.txt(`_dmarc.${name}`)
  if (lookup.status === 'error') return { kind: 'error', error: lookup.error ?? 'DNS error' }
  const dmarc = lookup.records.filter((r) => isDmarcRecord(r.text))
  const misplaced = lookup.records.filter((r) => !isDmarcRecord(r.text) && /v\s*=\s*DMARC1/i.test(r.text))
  return { kind: 'ok', dmarc, misplaced }
}

export async function discoverDmarc(dns: EmailDns, domain: string): Promise<DmarcDiscovery> {
  const org = organizationalDomain(domain)
  const base = { domain, organizational_domain: org, misplaced: [] as string[] }
  const conclude = (name: string, source: DmarcDiscovery['source'], result: Awaited<ReturnType<typeof at>>): DmarcDiscovery | null => {
    if (result.kind === 'error') return { ...base, status: 'dns_error', source, record_domain: name, record: null, records: [], error: `TXT lookup of _dmarc.${name} failed: ${result.error}` }
    base.misplaced.push(...result.misplaced.map((r) => r.text))
    if (result.dmarc.length > 1) return { ...base, status: 'multiple', source, record_domain: name, record: null, records: result.dmarc.map((r) => r.text), error: null }
    if (result.dmarc.length === 1) return { ...base, status: 'found', source, record_domain: name, record: result.dmarc[0]!.text, records: [result.dmarc[0]!.text], error: null }
    return null
  }
  const own = conclude(domain, 'domain', await at(dns, domain))
  if (own) return own
  if (org !== domain) {
    const inherited = conclude(org, 'organizational_domain', await at(dns, org))
    if (inherited) return inherited
  }
  return { ...base, status: 'none', source: null, record_domain: null, record: null, records: [], error: null }
}
