import type { z } from 'zod'
import type { EmailNetworkFinding, EmailNetworksData } from '../../../registry/email/schemas/networks-data.ts'

// The findings of /api/email/networks (docs/email.md, "Mail sender networks").
// Claimed only on what is known: a blocklist that did not answer is not a
// listing, a route that could not be asked is neither invalid nor unannounced.

type Data = z.input<typeof EmailNetworksData>
type Finding = z.input<typeof EmailNetworkFinding>
const ORDER: Record<Finding['severity'], number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 }

/** IPv4 networks shorter than /16 (more than 65,536 addresses), IPv6 shorter than /32. */
export const LARGE = { 4: 16, 6: 32 } as const

export function networkFindings(d: Pick<Data, 'networks' | 'mx'>): Finding[] {
  const out: Finding[] = []
  const add = (id: Finding['id'], severity: Finding['severity'], message: string, evidence: string[]) => out.push({ id, severity, message, evidence })
  const via = (n: Data['networks'][number]) => n.sources.map((s) => `${s.domain} ${s.term}`).join('; ')
  const hostAddress = (r: Data['mx'][number]) => `${r.host} ${r.address}`

  const listed = d.networks.filter((n) => n.blocklist?.listed === true)
  if (listed.length) {
    add('email_networks.spf_listed', 'high', `${listed.length} network(s) the SPF record authorizes are on DNS blocklists: mail from there is likely rejected, and the listing may be the domain's own mail.`, listed.map((n) => `${n.network} (${n.blocklist!.sampled ? `sampled ${n.blocklist!.address}` : n.blocklist!.address}) on ${n.blocklist!.lists.join(', ')}; via ${via(n)}`))
  }
  const mxListed = d.mx.filter((r) => r.blocklist?.listed === true)
  if (mxListed.length) {
    add('email_networks.mx_listed', 'high', `${mxListed.length} mail exchanger address(es) are on DNS blocklists.`, mxListed.map((r) => `${hostAddress(r)} on ${r.blocklist!.lists.join(', ')}`))
  }
  const noTls = [...new Map(d.mx.filter((r) => r.starttls !== null && (r.starttls.status === 'no_starttls' || r.starttls.status === 'tls_failed')).map((r) => [r.host, r])).values()]
  if (noTls.length) {
    add('email_networks.mx_no_starttls', 'high', `${noTls.length} mail exchanger(s) offer no working STARTTLS: mail to them travels in the clear.`, noTls.map((r) => `${r.host}: ${r.starttls!.status}`))
  }
  const invalid = d.networks.filter((n) => n.rpki === 'invalid')
  if (invalid.length) {
    add('email_networks.spf_rpki_invalid', 'medium', `The routes to ${invalid.length} SPF-authorized network(s) are RPKI-invalid: validating networks drop them, so mail from there may not arrive.`, invalid.map((n) => `${n.network}: route ${n.route} from AS${n.origins.join('/AS')}`))
  }
  const mxInvalid = d.mx.filter((r) => r.rpki === 'invalid')
  if (mxInvalid.length) {
    add('email_networks.mx_rpki_invalid', 'medium', `The routes to ${mxInvalid.length} mail exchanger address(es) are RPKI-invalid: validating networks cannot deliver to them.`, mxInvalid.map((r) => `${hostAddress(r)}: route ${r.route} from AS${r.origins.join('/AS')}`))
  }
  const bogons = d.networks.filter((n) => n.bogon === true)
  if (bogons.length) {
    add('email_networks.spf_bogon', 'medium', `The SPF record authorizes ${bogons.length} network(s) in private, documentation or reserved space: no mail on the internet comes from there (a typo, a leftover, or a relay's internal address).`, bogons.map((n) => `${n.network} via ${via(n)}`))
  }
  const large = d.networks.filter((n) => n.prefix_length < LARGE[n.version])
  if (large.length) {
    add('email_networks.spf_large_network', 'medium', `The SPF record authorizes ${large.length} very large network(s): anyone sending from those ranges passes SPF as the domain.`, large.map((n) => `${n.network} (${n.size} addresses) via ${via(n)}`))
  }
  const noFcrdns = d.mx.filter((r) => r.fcrdns === false)
  if (noFcrdns.length) {
    add('email_networks.mx_no_fcrdns', 'medium', `${noFcrdns.length} mail exchanger address(es) have no forward-confirmed reverse DNS: many receivers distrust mail from such addresses, and bounces go out from them.`, noFcrdns.map((r) => `${hostAddress(r)}: PTR ${r.ptr.length ? r.ptr.join(', ') : 'none'}`))
  }
  const unannounced = d.networks.filter((n) => n.bogon === false && n.route === null && n.errors.every((e) => e.part !== 'bgp' && e.part !== 'intelligence'))
  if (unannounced.length) {
    add('email_networks.spf_unannounced', 'low', `No BGP route covers ${unannounced.length} SPF-authorized network(s): no mail comes from there now (a leftover of a former provider?).`, unannounced.map((n) => `${n.network} via ${via(n)}`))
  }
  return out.sort((a, b) => ORDER[a.severity] - ORDER[b.severity])
}
