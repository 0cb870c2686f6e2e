import type { EmailDns } from '../email-dns.ts'
import type { Finding } from '../../../registry/email/schemas/findings.ts'
import { finding } from '../findings.ts'
import { parseTagList, tagValue } from '../tag-list.ts'
import type { TlsRptShape } from '../../../registry/email/schemas/tls-rpt-data.ts'

// SMTP TLS Reporting (RFC 8460): "v=TLSRPTv1; rua=<mailto: or https: URIs>" at
// _smtp._tls.<domain> asks senders to report TLS failures (and MTA-STS/DANE
// results) daily. Without it an enforced MTA-STS policy fails silently.

export async function inspectTlsRpt(dns: EmailDns, domain: string, mtaStsPublished: boolean): Promise<TlsRptShape> {
  const name = `_smtp._tls.${domain}`
  const txt = await dns.txt(name)
  const out: Finding[] = []
  const base: TlsRptShape = { name, status: 'none', record: null, rua: [], findings: out }
  if (txt.status === 'error') {
    out.push(finding('tls_rpt.dns_error', 'warning', `${name} could not be read: ${txt.error}.`, null))
    return { ...base, status: 'dns_error' }
  }
  const records = txt.records.filter((r) => /^v=TLSRPTv1\s*(?:;|$)/.test(r.text))
  if (records.length === 0) {
    out.push(
      finding(
        'tls_rpt.missing',
        mtaStsPublished ? 'warning' : 'info',
        `No TLS-RPT record at ${name}: senders cannot tell you when TLS to your MX hosts fails${mtaStsPublished ? ', so MTA-STS problems go unnoticed' : ''}.`,
        `Publish "v=TLSRPTv1; rua=mailto:tls-reports@${domain}" at ${name}.`,
      ),
    )
    return base
  }
  if (records.length > 1) {
    out.push(finding('tls_rpt.multiple_records', 'error', `${name} has ${records.length} TLSRPTv1 records; senders then send no reports (RFC 8460 §3).`, 'Keep one record.'))
    return { ...base, status: 'multiple', record: records.map((r) => r.text).join(' | ') }
  }
  const text = records[0]!.text
  const rua = (tagValue(parseTagList(text), 'rua') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const bad = rua.filter((u) => !/^mailto:[^@\s]+@[^@\s]+$/i.test(u) && !/^https:\/\/\S+$/i.test(u))
  if (rua.length === 0) out.push(finding('tls_rpt.invalid', 'error', `${name}: the required rua= tag is missing or empty.`, 'Add rua=mailto:address (or an https: URL).'))
  else if (bad.length) out.push(finding('tls_rpt.invalid', 'error', `${name}: ${bad.join(', ')} is not a mailto: or https: URI.`, 'Use rua=mailto:address or rua=https://...'))
  return { ...base, status: out.length ? 'invalid' : 'found', record: text, rua }
}
