import type { EmailDns } from '../email-dns.ts'
import type { Finding } from '../../../registry/email/schemas/findings.ts'
import { finding } from '../findings.ts'
import { parseTagList, tagValue } from '../tag-list.ts'
import type { BimiShape } from '../../../registry/email/schemas/bimi-data.ts'

// BIMI (draft-brand-indicators-for-message-identification): "v=BIMI1; l=<https
// SVG>; a=<https VMC/CMC PEM>" at default._bimi.<domain>. Mailbox providers show
// the logo only for mail passing DMARC under an enforcing policy, and the large
// ones only with a mark certificate (a=). The logo and certificate are not fetched.

export interface DmarcForBimi {
  applied_policy: 'none' | 'quarantine' | 'reject' | null
  pct: number | null
  sp: 'none' | 'quarantine' | 'reject' | null
}

export async function inspectBimi(dns: EmailDns, domain: string, dmarc: DmarcForBimi | null): Promise<BimiShape> {
  const name = `default._bimi.${domain}`
  const txt = await dns.txt(name)
  const out: Finding[] = []
  const base: BimiShape = { name, status: 'none', record: null, logo_url: null, certificate_url: null, findings: out }
  if (txt.status === 'error') {
    out.push(finding('bimi.dns_error', 'warning', `${name} could not be read: ${txt.error}.`, null))
    return { ...base, status: 'dns_error' }
  }
  const records = txt.records.filter((r) => /^v=BIMI1\s*(?:;|$)/i.test(r.text))
  if (records.length === 0) {
    out.push(finding('bimi.missing', 'info', `No BIMI record at ${name}; mailbox providers show no brand logo.`, 'Optional: with DMARC at quarantine/reject, publish "v=BIMI1; l=https://.../logo.svg; a=https://.../vmc.pem".'))
    return base
  }
  if (records.length > 1) {
    out.push(finding('bimi.multiple_records', 'error', `${name} has ${records.length} BIMI records; providers ignore them all.`, 'Keep one record.'))
    return { ...base, status: 'multiple', record: records.map((r) => r.text).join(' | ') }
  }
  const text = records[0]!.text
  const tags = parseTagList(text)
  const logo = tagValue(tags, 'l') ?? null
  const cert = tagValue(tags, 'a') ?? null
  const result = { ...base, record: text, logo_url: logo || null, certificate_url: cert || null }
  if (!logo && !cert) {
    out.push(finding('bimi.declined', 'info', `${name} declines BIMI (empty l=).`, null))
    return { ...result, status: 'declined' }
  }
  let invalid = false
  if (!logo || !/^https:\/\/\S+\.svg(?:\?\S*)?$/i.test(logo)) {
    invalid = true
    out.push(finding('bimi.logo_url', 'error', `l=${logo ?? ''} must be an https: URL of an SVG (Tiny PS) file.`, 'Point l= at https://<host>/<logo>.svg.'))
  }
  if (cert && !/^https:\/\/\S+$/i.test(cert)) {
    invalid = true
    out.push(finding('bimi.certificate_url', 'error', `a=${cert} must be an https: URL of the mark certificate (PEM).`, null))
  }
  if (!cert) out.push(finding('bimi.no_certificate', 'info', 'No a= mark certificate (VMC/CMC); Gmail and Apple Mail show logos only with one.', null))
  const enforcing = dmarc && (dmarc.applied_policy === 'quarantine' || dmarc.applied_policy === 'reject') && (dmarc.pct ?? 100) === 100 && dmarc.sp !== 'none'
  if (!enforcing) {
    out.push(finding('bimi.dmarc_not_enforced', 'warning', 'BIMI needs DMARC at p=quarantine or p=reject with pct=100 (and sp not none); without it no provider shows the logo.', 'Move DMARC to an enforcing policy.'))
  }
  return { ...result, status: invalid ? 'invalid' : 'found' }
}
