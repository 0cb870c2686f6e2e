import type { EmailDns } from '../email-dns.ts'
import { sortFindings } from '../findings.ts'
import type { DmarcDataShape } from '../../../registry/email/schemas/dmarc-data.ts'
import { discoverDmarc } from './dmarc-discover.ts'
import { lintDmarc } from './dmarc-lint.ts'
import { parseDmarc } from './dmarc-parse.ts'
import { checkDestinations } from './dmarc-report-auth.ts'

export async function inspectDmarc(dns: EmailDns, domain: string): Promise<DmarcDataShape> {
  const discovery = await discoverDmarc(dns, domain)
  const parsed = discovery.status === 'found' && discovery.record ? parseDmarc(discovery.record) : null
  const destinations = parsed ? await checkDestinations(dns, discovery.record_domain!, parsed.policy.rua, parsed.policy.ruf) : []
  const findings = sortFindings(lintDmarc(discovery, parsed, destinations))
  const policy = parsed?.policy ?? null
  // A subdomain that inherits its organization's record gets sp= (RFC 7489 §6.3).
  const applied = policy ? (discovery.source === 'organizational_domain' ? policy.sp : policy.p) : null
  return {
    domain,
    organizational_domain: discovery.organizational_domain,
    status: discovery.status,
    source: discovery.source,
    record_domain: discovery.record_domain,
    record: discovery.record,
    records: discovery.records,
    valid: parsed !== null && parsed.problems.every((p) => p.kind === 'unknown_tag'),
    tags: parsed?.tags ?? [],
    policy: policy
      ? { p: policy.p, sp: policy.sp, np: policy.np, pct: policy.pct, adkim: policy.adkim, aspf: policy.aspf, fo: policy.fo, rf: policy.rf, ri: policy.ri, psd: policy.psd, t: policy.t }
      : null,
    applied_policy: applied,
    report_destinations: destinations,
    findings,
  }
}
