import type { EmailDns } from '../email-dns.ts'
import { organizationalDomain } from '../org-domain.ts'
import { isDmarcRecord } from './dmarc-parse.ts'
import type { ReportUri } from './dmarc-parse.ts'

// External report destinations (RFC 7489 §7.1): reports for example.com may go to
// another organization only if it agrees, by publishing a DMARC1 record at
// example.com._report._dmarc.<destination>. Receivers drop unauthorized ones.

export type Authorization = 'not_needed' | 'authorized' | 'unauthorized' | 'dns_error' | 'unsupported_scheme' | 'invalid'

export interface ReportDestination {
  type: 'rua' | 'ruf'
  uri: string
  scheme: string | null
  address: string | null
  domain: string | null
  size_limit: string | null
  external: boolean
  authorization: Authorization
  /** The name asked for an external destination. */
  authorization_name: string | null
  error: string | null
}

export async function checkDestinations(dns: EmailDns, policyDomain: string, rua: readonly ReportUri[], ruf: readonly ReportUri[]): Promise<ReportDestination[]> {
  const org = organizationalDomain(policyDomain)
  const one = async (type: 'rua' | 'ruf', uri: ReportUri): Promise<ReportDestination> => {
    const base = { type, uri: uri.uri, scheme: uri.scheme, address: uri.address, domain: uri.domain, size_limit: uri.size_limit, external: false, authorization_name: null, error: uri.error }
    if (!uri.valid) return { ...base, authorization: 'invalid' }
    if (uri.scheme !== 'mailto' || !uri.domain) return { ...base, authorization: 'unsupported_scheme' }
    if (organizationalDomain(uri.domain) === org) return { ...base, authorization: 'not_needed' }
    const name = `${policyDomain}._report._dmarc.${uri.domain}`
    const lookup = await dns.txt(name)
    if (lookup.status === 'error') return { ...base, external: true, authorization_name: name, authorization: 'dns_error', error: lookup.error ?? 'DNS error' }
    const ok = lookup.records.some((r) => isDmarcRecord(r.text))
    return { ...base, external: true, authorization_name: name, authorization: ok ? 'authorized' : 'unauthorized' }
  }
  return Promise.all([...rua.map((u) => one('rua', u)), ...ruf.map((u) => one('ruf', u))])
}
