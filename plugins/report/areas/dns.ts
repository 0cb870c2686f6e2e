import type { z } from 'zod'
import type { DnsLookupData } from '../../../registry/dns/schemas/dns-data.ts'
import type { ReportFinding } from '../../../registry/flagship/schemas/report-findings.ts'
import { scoreFromFindings } from '../scoring.ts'
import type { AreaAnswer } from './answer.ts'

// The DNS area reads /api/dns/lookup: does the name exist, answer every query,
// have the two name servers RFC 1034 asks for, an address for each IP family,
// and CAA records restricting who may issue certificates for it.

export type DnsLookup = z.input<typeof DnsLookupData>

const SUMMARY_TYPES = ['A', 'AAAA', 'NS', 'MX', 'TXT', 'CAA'] as const
const FAILED = new Set(['servfail', 'error'])

const countOf = (data: DnsLookup, type: string): number => data.types[type]?.count ?? 0

/** Both address queries answered, and neither has a record: there is no server to connect to. */
export function addressless(data: DnsLookup): boolean {
  return data.types.A?.status === 'nodata' && data.types.AAAA?.status === 'nodata'
}

export function dnsAnswer(data: DnsLookup): AreaAnswer {
  const findings: ReportFinding[] = []
  const add = (id: string, severity: ReportFinding['severity'], message: string, fix: string | null) => findings.push({ area: 'dns', id, severity, message, fix })
  if (!data.exists) {
    add('dns.nxdomain', 'critical', `${data.domain} does not exist in DNS (${data.rcode}).`, 'Check the spelling, the registration and the delegation (NS records) at the registrar.')
    return { score: 0, grade: null, summary: `${data.domain} does not exist (${data.rcode})`, findings }
  }
  const failed = Object.entries(data.types).filter(([, t]) => FAILED.has(t.status))
  if (failed.length) {
    add(
      'dns.query_failed',
      'high',
      `The name servers failed to answer for ${failed.map(([type, t]) => `${type} (${t.rcode ?? t.error ?? t.status})`).join(', ')}.`,
      'Check that every name server of the zone is up and authoritative for it.',
    )
  }
  const ns = data.types.NS
  if (ns?.status === 'answer' && ns.count === 1) {
    add('dns.single_nameserver', 'medium', 'Only one name server: when it is down, the domain is down.', 'Delegate to at least two name servers on different networks (RFC 1034 §4.1).')
  }
  const a = countOf(data, 'A')
  const aaaa = countOf(data, 'AAAA')
  if (addressless(data)) {
    add('dns.no_address', 'low', `${data.domain} has no A or AAAA record: there is no web site at this name.`, 'Publish A (and AAAA) records if the name should serve a web site.')
  } else if (a > 0 && aaaa === 0 && data.types.AAAA?.status === 'nodata') {
    add('dns.no_ipv6', 'low', `${data.domain} has no AAAA record: clients on IPv6-only networks cannot reach it.`, 'Publish AAAA records for the IPv6 addresses of the servers.')
  }
  if (data.types.CAA?.status === 'nodata') {
    add('dns.caa_missing', 'low', 'No CAA records: any certificate authority may issue certificates for the domain.', 'Publish CAA records naming the CAs you use, e.g. 0 issue "letsencrypt.org".')
  }
  if (data.canonical_name !== data.domain) {
    add('dns.alias', 'info', `${data.domain} is an alias (CNAME) of ${data.canonical_name}.`, null)
  }
  const counts = SUMMARY_TYPES.map((type) => [type, countOf(data, type)] as const).filter(([, n]) => n > 0)
  const summary = counts.length ? counts.map(([type, n]) => `${n} ${type}`).join(', ') : 'no records'
  return { score: scoreFromFindings(findings), grade: null, summary, findings }
}
