import type { Finding } from '../../../registry/email/schemas/findings.ts'
import { finding } from '../findings.ts'
import type { DmarcDiscovery } from './dmarc-discover.ts'
import type { Disposition, ParsedDmarc } from './dmarc-parse.ts'
import type { ReportDestination } from './dmarc-report-auth.ts'

const STRENGTH: Record<Disposition, number> = { none: 0, quarantine: 1, reject: 2 }

export function lintDmarc(discovery: DmarcDiscovery, parsed: ParsedDmarc | null, destinations: readonly ReportDestination[]): Finding[] {
  const out: Finding[] = []
  const where = discovery.record_domain ? `_dmarc.${discovery.record_domain}` : `_dmarc.${discovery.domain}`
  for (const text of discovery.misplaced) {
    out.push(finding('dmarc.version_not_first', 'error', `A TXT record at _dmarc mentions DMARC1 but does not start with "v=DMARC1" ("${text.slice(0, 80)}"); receivers ignore it.`, 'Start the record with "v=DMARC1;".'))
  }
  if (discovery.status === 'dns_error') {
    out.push(finding('dmarc.dns_error', 'warning', `The DMARC record could not be read: ${discovery.error}. Receivers apply no policy while this lasts.`, null))
    return out
  }
  if (discovery.status === 'multiple') {
    out.push(finding('dmarc.multiple_records', 'critical', `${where} has ${discovery.records.length} DMARC records; receivers then apply no DMARC policy at all (RFC 7489 §6.6.3).`, 'Keep exactly one "v=DMARC1" record.'))
    return out
  }
  if (discovery.status === 'none' || !parsed) {
    out.push(finding('dmarc.missing', 'error', `No DMARC record at _dmarc.${discovery.domain}${discovery.organizational_domain !== discovery.domain ? ` or _dmarc.${discovery.organizational_domain}` : ''}: receivers apply no policy to spoofed mail and you get no reports.`, `Publish a TXT record at _dmarc.${discovery.organizational_domain}: "v=DMARC1; p=none; rua=mailto:dmarc@${discovery.organizational_domain}", read the reports, then move to p=quarantine and p=reject.`))
    return out
  }
  if (discovery.source === 'organizational_domain') {
    out.push(finding('dmarc.inherited', 'info', `${discovery.domain} has no record of its own; the policy of its organizational domain ${discovery.organizational_domain} applies (${parsed.explicit.sp ? 'its sp= tag' : 'its p= tag, as there is no sp='}).`, null))
  }
  for (const problem of parsed.problems) {
    switch (problem.kind) {
      case 'syntax':
        out.push(finding('dmarc.syntax_error', 'error', `${where}: ${problem.message}.`, 'Write every tag as tag=value, separated by semicolons.'))
        break
      case 'version':
        out.push(finding('dmarc.version', 'error', `${where}: ${problem.message}.`, 'Start the record with "v=DMARC1;".'))
        break
      case 'invalid_value':
        out.push(finding('dmarc.invalid_value', 'error', `${where}: ${problem.message}; receivers use the default instead.`, `Fix the ${problem.tag}= value.`))
        break
      case 'duplicate':
        out.push(finding('dmarc.duplicate_tag', 'error', `${where}: ${problem.message}.`, `Keep one ${problem.tag}= tag.`))
        break
      case 'unknown_tag':
        out.push(finding('dmarc.unknown_tag', 'warning', `${where}: ${problem.message}.`, 'Remove it, or check its spelling.'))
        break
      case 'missing_p': {
        const rua = parsed.policy.rua.some((u) => u.valid)
        out.push(finding('dmarc.p_missing', 'error', `${where}: the required p= tag is missing${rua ? '; because rua= is valid, receivers treat it as p=none' : ', so receivers ignore the record'}.`, 'Add p=none, p=quarantine or p=reject right after v=DMARC1.'))
        break
      }
    }
  }
  const policy = parsed.policy
  if (policy.p === 'none') {
    out.push(finding('dmarc.policy_none', 'warning', 'p=none only monitors: spoofed mail is delivered as usual.', 'Once the aggregate reports show all your mail passing, move to p=quarantine, then p=reject.'))
  } else if (policy.p === 'quarantine') {
    out.push(finding('dmarc.policy_quarantine', 'info', 'p=quarantine sends failing mail to spam; p=reject refuses it outright.', 'Move to p=reject when reports show no legitimate failures.'))
  }
  if (policy.p && policy.sp && STRENGTH[policy.sp] < STRENGTH[policy.p]) {
    out.push(finding('dmarc.subdomain_policy_weaker', 'warning', `sp=${policy.sp} is weaker than p=${policy.p}: spoofing a subdomain is easier than spoofing the domain.`, `Set sp=${policy.p} (or remove sp= to inherit p=).`))
  }
  if (parsed.explicit.np !== undefined && policy.p && policy.np && STRENGTH[policy.np] < STRENGTH[policy.p]) {
    out.push(finding('dmarc.np_weaker', 'info', `np=${policy.np} is weaker than p=${policy.p} for subdomains that do not exist.`, 'Set np=reject: names that do not exist send no legitimate mail.'))
  }
  if (policy.pct < 100) {
    out.push(finding('dmarc.pct_partial', 'warning', `pct=${policy.pct}: the policy applies to only ${policy.pct}% of failing mail (and DMARCbis drops pct= for t=).`, 'Raise pct to 100 (or remove it).'))
  }
  if (policy.t === 'y') out.push(finding('dmarc.testing', 'warning', 't=y (DMARCbis test mode): receivers are asked to apply one step less than the policy.', 'Remove t=y once the policy is proven.'))
  for (const tag of ['pct', 'rf', 'ri'] as const) {
    if (parsed.explicit[tag] !== undefined && !(tag === 'pct' && policy.pct < 100)) {
      out.push(finding('dmarc.deprecated_tag', 'info', `${tag}= is removed in DMARCbis; receivers following it ignore the tag.`, null))
    }
  }
  if (policy.rua.length === 0) {
    out.push(finding('dmarc.no_rua', 'warning', 'No rua= address: you receive no aggregate reports, so you cannot see who sends as your domain.', `Add rua=mailto:dmarc-reports@${discovery.organizational_domain} (or a report service's address).`))
  }
  if (policy.ruf.length > 0) out.push(finding('dmarc.ruf', 'info', 'ruf= asks for failure reports; few receivers send them (they may contain personal data).', null))
  if (parsed.explicit.fo !== undefined && policy.ruf.length === 0) out.push(finding('dmarc.fo_without_ruf', 'info', 'fo= only affects failure reports, and there is no ruf= address.', 'Remove fo= or add ruf=.'))
  for (const d of destinations) {
    if (d.authorization === 'invalid') out.push(finding('dmarc.report_uri_invalid', 'error', `${d.type}=${d.uri}: ${d.error ?? 'not a valid URI'}.`, `Use ${d.type}=mailto:address@domain.`))
    else if (d.authorization === 'unsupported_scheme') out.push(finding('dmarc.report_uri_scheme', 'warning', `${d.type}=${d.uri}: receivers only send reports to mailto: URIs.`, 'Use a mailto: address.'))
    else if (d.authorization === 'unauthorized') {
      out.push(finding('dmarc.report_unauthorized', 'error', `${d.type} reports go to ${d.domain}, another organization that has not authorized them (no DMARC1 record at ${d.authorization_name}); receivers will not send them.`, `Ask ${d.domain} to publish "v=DMARC1" at ${d.authorization_name}, or use an address in your own domain.`))
    } else if (d.authorization === 'dns_error') {
      out.push(finding('dmarc.report_auth_dns_error', 'warning', `Could not check whether ${d.domain} accepts reports for this domain (${d.authorization_name}): ${d.error}.`, null))
    }
  }
  return out
}
