import type { z } from 'zod'
import dnssecEndpoint from '../../registry/dns/dnssec.ts'
import type { DaneHost } from '../../registry/dns/schemas/dane-data.ts'
import type { OperatorFinding } from '../../registry/dns/schemas/operator-findings.ts'
import type { EmailDaneData } from '../../registry/email/schemas/dane-data.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import { cacheTtlOf, resolveRecords } from '../dns/surface.ts'
import type { HostOptions } from './dane-host.ts'
import { checkDaneHost } from './dane-host.ts'
import { daneFinding, scoreOf, sortFindings } from './findings.ts'

// DANE for SMTP (RFC 7672) over a mail domain: its MX hosts (or the domain itself,
// the implicit MX), each one's _25._tcp TLSA records and STARTTLS certificate, and
// the MX RRset's own DNSSEC verdict, since senders apply DANE only to MX hosts they
// learned securely (§2.2.1).

type EmailDane = z.input<typeof EmailDaneData>
const MAX_HOSTS = 5
/** Verdicts with which a DANE sender defers mail to a host that publishes secure TLSA. */
const FAILING: ReadonlySet<DaneHost['verdict']> = new Set(['mismatch', 'bogus', 'tls_unavailable', 'no_usable_records'])

export async function emailDane(ctx: ResolverContext, domain: string, options: Omit<HostOptions, 'referenceNames' | 'probeWithoutTlsa'>): Promise<EmailDane> {
  const mx = await resolveRecords(options.dns, domain, 'MX', ctx.signal)
  ctx.lowerTtl(cacheTtlOf(mx))
  const exchanges = mx.raw
    .map((r) => r.data as { exchange: string; preference: number })
    .map((r) => ({ host: r.exchange.replace(/\.$/, '').toLowerCase(), preference: r.preference }))
    .sort((a, b) => a.preference - b.preference || a.host.localeCompare(b.host))
  const nullMx = exchanges.length === 1 && (exchanges[0]!.host === '' || exchanges[0]!.host === '.')
  const implicit = exchanges.length === 0 && mx.status === 'nodata'
  const base = { domain, mx: { status: mx.status, implicit, null_mx: nullMx, hosts: nullMx ? [] : exchanges, dnssec: null } }
  if (mx.status === 'servfail' || mx.status === 'error') {
    // A validating resolver answers SERVFAIL for a bogus MX RRset: our own validator says whether that is why.
    const verdict = await ctx.invoke(dnssecEndpoint, { domain, type: 'MX' })
    ctx.lowerTtl(verdict.ttl)
    const dnssec = { status: verdict.data.status, reason: verdict.data.reason, message: verdict.data.message }
    const bogus = dnssec.status === 'bogus'
    const findings = bogus ? [daneFinding('dane.mx_not_secure', `The MX RRset of ${domain} is bogus (${dnssec.message}): validating senders cannot deliver to it at all.`, `Re-sign ${domain} or fix its DS in the parent.`)] : []
    return { ...base, mx: { ...base.mx, dnssec }, status: bogus ? 'failing' : 'indeterminate', score: bogus ? scoreOf(findings) : null, hosts: [], findings }
  }
  if (nullMx || (exchanges.length === 0 && !implicit)) {
    const why = nullMx ? `${domain} publishes a null MX (RFC 7505): it takes no mail` : `${domain} has no MX records and does not exist (${mx.rcode})`
    return { ...base, status: 'not_applicable', score: null, hosts: [], findings: [daneFinding('dane.not_used', `${why}, so DANE does not apply.`, null)] }
  }
  const targets = implicit ? [{ host: domain, preference: 0 }] : exchanges.filter((e) => e.host !== '').slice(0, MAX_HOSTS)
  const [mxVerdict, hosts] = await Promise.all([
    ctx.invoke(dnssecEndpoint, { domain, type: 'MX' }),
    Promise.all(
      targets.map(async (t) => ({ ...(await checkDaneHost(ctx, t.host, 25, 'tcp', { ...options, referenceNames: [t.host, domain], probeWithoutTlsa: false })), preference: t.preference })),
    ),
  ])
  ctx.lowerTtl(mxVerdict.ttl)
  const mxDnssec = { status: mxVerdict.data.status, reason: mxVerdict.data.reason, message: mxVerdict.data.message }
  const published = hosts.filter((h) => h.verdict !== 'no_tlsa')
  // Each host's own findings, but "not used" once for the whole domain.
  const findings: OperatorFinding[] = hosts.flatMap((h) => h.findings.filter((f) => f.id !== 'dane.not_used'))
  let status: EmailDane['status']
  if (published.length === 0) {
    status = 'not_used'
    findings.push(daneFinding('dane.not_used', `No MX host of ${domain} publishes TLSA records at _25._tcp: senders do not use DANE for its mail.`, 'To use DANE, sign the zones of the MX hosts and publish a 3 1 1 record of each host\'s key (plus one for the next key).'))
  } else {
    if (mxDnssec.status !== 'secure') {
      findings.push(
        daneFinding('dane.mx_not_secure', `The MX records of ${domain} are ${mxDnssec.status} (${mxDnssec.message}): senders do not apply DANE to its MX hosts, whatever their TLSA records say.`, `Sign ${domain} and publish its DS in the parent.`),
      )
    }
    // A bogus MX RRset stops delivery outright; an insecure one turns DANE off for every host.
    if (mxDnssec.status === 'bogus') status = 'failing'
    else if (mxDnssec.status !== 'secure') status = 'not_secure'
    else if (published.some((h) => FAILING.has(h.verdict))) status = 'failing'
    else if (published.some((h) => h.verdict === 'not_secure')) status = 'not_secure'
    else status = hosts.every((h) => h.verdict === 'valid') ? 'valid' : 'partial'
  }
  const sorted = sortFindings(findings)
  return { ...base, mx: { ...base.mx, dnssec: mxDnssec }, status, score: status === 'not_used' ? null : scoreOf(sorted), hosts, findings: sorted }
}
