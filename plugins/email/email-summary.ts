import type { EmailReport } from './email-checks.ts'
import type { PartName } from './scoring.ts'
import type { PartSummary } from '../../registry/email/schemas/part-summary.ts'
import { summarizePart } from './scoring.ts'

// One line per part for people, next to its score: what was found, not what is wrong
// (the findings say that).

function spfLine(r: EmailReport): string {
  const s = r.spf
  if (s.status !== 'found') return s.status === 'none' ? 'No SPF record' : s.status === 'multiple' ? 'Several SPF records' : 'SPF record unreadable'
  return `${s.record}; ${s.lookups.count}/${s.lookups.limit} DNS lookups; ${s.verdict}`
}

function dmarcLine(r: EmailReport): string {
  const d = r.dmarc
  if (d.status !== 'found') return d.status === 'none' ? 'No DMARC record' : d.status === 'multiple' ? 'Several DMARC records' : 'DMARC record unreadable'
  return `p=${d.policy?.p ?? 'missing'}${d.source === 'organizational_domain' ? ` (inherited from ${d.organizational_domain}, applied ${d.applied_policy})` : ''}, pct=${d.policy?.pct}, ${d.report_destinations.filter((x) => x.type === 'rua').length} rua`
}

function dkimLine(r: EmailReport): string {
  const keys = r.dkim.keys.filter((k) => k.status === 'found' && !k.revoked)
  if (keys.length === 0) return `No DKIM key under ${r.dkim.selectors_checked.length} selectors`
  return `${keys.length} key(s): ${keys.map((k) => `${k.selector} (${k.public_key_type ?? k.key_type} ${k.key_bits ?? '?'})`).join(', ')}`
}

function mxLine(r: EmailReport): string {
  const m = r.mx
  if (m.null_mx && m.records.length === 1) return 'Null MX: accepts no mail'
  if (m.records.length === 0) return m.implicit_mx ? 'No MX (implicit MX: the domain address)' : 'No MX and no address'
  return `${m.records.length} MX: ${m.records.map((h) => `${h.preference} ${h.exchange}`).join(', ')}`
}

function tlsLine(r: EmailReport): string {
  const hosts = r.tls.hosts
  if (hosts.length === 0) return 'No MX host to probe'
  const ok = hosts.filter((h) => h.status === 'ok')
  return `${ok.length}/${hosts.length} MX host(s) negotiated STARTTLS on port ${r.tls.port}${ok.length ? ` (${[...new Set(ok.map((h) => h.tls?.protocol))].join(', ')})` : ''}`
}

function mtaStsLine(r: EmailReport): string {
  const m = r.mta_sts
  if (!m || (m.record.status === 'none' && !m.policy?.fetched)) return 'No MTA-STS policy'
  const p = m.policy
  return `record ${m.record.status}${m.record.id ? ` (id ${m.record.id})` : ''}; policy ${p?.error ? `unavailable (${p.error})` : `mode ${p?.mode}, max_age ${p?.max_age}`}`
}

export function partSummaries(r: EmailReport, weights: Partial<Record<PartName, number>>): Partial<Record<PartName, PartSummary>> {
  const parts: Partial<Record<PartName, PartSummary>> = {}
  const w = (p: PartName) => weights[p] ?? 0
  const cross = (prefix: string) => r.cross.filter((f) => f.id.startsWith(prefix))
  const receiving = r.receives_mail
  const sending = r.sends_mail
  if (weights.spf !== undefined) parts.spf = summarizePart(r.spf.findings, w('spf'), spfLine(r))
  if (weights.dmarc !== undefined) parts.dmarc = summarizePart(r.dmarc.findings, w('dmarc'), dmarcLine(r))
  if (weights.dkim !== undefined) parts.dkim = summarizePart(r.dkim.findings, w('dkim'), sending ? dkimLine(r) : 'Sends no mail (SPF "v=spf1 -all"): no DKIM needed', sending)
  if (weights.mx !== undefined) parts.mx = summarizePart(r.mx.findings, w('mx'), mxLine(r))
  if (weights.tls !== undefined) parts.tls = summarizePart(r.tls.findings, w('tls'), receiving ? tlsLine(r) : 'Accepts no mail: nothing to probe', receiving)
  if (weights.mta_sts !== undefined && r.mta_sts) parts.mta_sts = summarizePart([...r.mta_sts.findings, ...cross('mta_sts.')], w('mta_sts'), receiving ? mtaStsLine(r) : 'Accepts no mail', receiving)
  if (weights.tls_rpt !== undefined && r.tls_rpt) parts.tls_rpt = summarizePart(r.tls_rpt.findings, w('tls_rpt'), receiving ? (r.tls_rpt.record ?? 'No TLS-RPT record') : 'Accepts no mail', receiving)
  if (weights.bimi !== undefined && r.bimi) parts.bimi = summarizePart(r.bimi.findings, w('bimi'), sending ? (r.bimi.record ?? 'No BIMI record') : 'Sends no mail', sending)
  return parts
}
