import { isIP } from 'node:net'
import { checkTargetText } from '../../../runtime/net/target-policy.ts'
import type { EmailDns } from '../email-dns.ts'
import type { Finding } from '../../../registry/email/schemas/findings.ts'
import { finding, sortFindings } from '../findings.ts'
import { parseClientIp, reverseName, sameIp } from '../spf/spf-ip.ts'
import type { MxDataShape, MxHostShape } from '../../../registry/email/schemas/mx-data.ts'

// MX records by preference, each exchange resolved (A and AAAA), with what RFC
// 5321/2181/7505 forbid or expect checked: null MX, aliases, IP literals, names
// without addresses, private addresses, and forward-confirmed reverse DNS — which
// many receivers require of a sending host, and which MX hosts usually are too.

export interface MxOptions {
  /** Loopback counts as reachable (INFRALENS_ALLOW_PRIVATE_TARGETS): what the probe may connect to. */
  allowLoopback: boolean
  /** Hosts resolved and checked (the rest are listed as they are). */
  maxHosts?: number
}

async function fcrdns(dns: EmailDns, address: string): Promise<MxHostShape['reverse_dns'][number]> {
  const ip = parseClientIp(address)
  if (!ip) return { address, ptr: [], fcrdns: false, error: 'not an IP address' }
  const ptr = await dns.ptr(reverseName(ip))
  if (ptr.status === 'error') return { address, ptr: [], fcrdns: false, error: ptr.error ?? 'PTR lookup failed' }
  const names = ptr.records.map((n) => n.replace(/\.$/, '')).slice(0, 5)
  const confirmed = await Promise.all(
    names.map(async (name) => {
      const forward = ip.version === 4 ? await dns.a(name) : await dns.aaaa(name)
      return forward.records.some((a) => sameIp(ip, a))
    }),
  )
  return { address, ptr: names, fcrdns: confirmed.some(Boolean), error: null }
}

async function inspectHost(dns: EmailDns, preference: number, exchange: string, options: MxOptions): Promise<MxHostShape> {
  const host: MxHostShape = { preference, exchange, status: 'ok', addresses: [], cname_chain: [], reverse_dns: [], refused_addresses: [], error: null }
  if (exchange === '.') return { ...host, status: 'null' }
  if (isIP(exchange) !== 0 || /^\d+(?:\.\d+){3}$/.test(exchange)) return { ...host, status: 'ip_literal', error: 'an MX target must be a host name, not an address' }
  const [a, aaaa] = await Promise.all([dns.a(exchange), dns.aaaa(exchange)])
  host.cname_chain = a.chain.length ? a.chain : aaaa.chain
  host.addresses = [...a.records, ...aaaa.records]
  if (host.addresses.length === 0) {
    if (a.status === 'error' && aaaa.status === 'error') return { ...host, status: 'dns_error', error: a.error ?? 'DNS error' }
    return { ...host, status: a.status === 'nxdomain' ? 'nxdomain' : 'no_address', error: a.status === 'nxdomain' ? `${exchange} does not exist` : `${exchange} has no A or AAAA record` }
  }
  host.refused_addresses = host.addresses.filter((addr) => !checkTargetText(addr, { allowLoopback: options.allowLoopback }).allowed)
  host.reverse_dns = await Promise.all(host.addresses.slice(0, 4).map((addr) => fcrdns(dns, addr)))
  return host
}

function lint(domain: string, data: Omit<MxDataShape, 'findings'>): Finding[] {
  const out: Finding[] = []
  if (data.status === 'error') return [finding('mx.dns_error', 'warning', `The MX records of ${domain} could not be read; senders retry and then bounce.`, 'Check that the name servers answer MX queries.')]
  if (data.null_mx && data.records.length === 1) {
    out.push(finding('mx.null', 'info', `${domain} publishes a null MX (RFC 7505): it accepts no mail, and senders bounce at once.`, null))
    return out
  }
  // Beside other MX records the null MX is an error, and senders disagree on it: some
  // bounce at once, most skip the unusable "." and deliver to the others. So the
  // others are checked like any MX host.
  if (data.null_mx) {
    out.push(finding('mx.null_mixed', 'error', `A null MX ("MX 0 .") is published beside ${data.records.length - 1} other MX record(s); RFC 7505 requires it to be the only one, and senders disagree on whether ${domain} accepts mail.`, 'Remove the null MX if the domain receives mail, or the other MX records if it does not.'))
  }
  if (data.records.length === 0) {
    if (data.implicit_mx) out.push(finding('mx.implicit', 'warning', `${domain} has no MX record; senders fall back to its A/AAAA address (RFC 5321 §5.1), which is rarely a mail server.`, `Publish MX records, or "MX 0 ." (null MX) if ${domain} receives no mail.`))
    else out.push(finding('mx.none', 'warning', `${domain} has no MX record and no address: it cannot receive mail, and senders retry for days before bouncing.`, `Publish MX records, or "${domain}. MX 0 ." if it receives no mail (RFC 7505).`))
    return out
  }
  const hosts = data.records.filter((h) => h.status !== 'null')
  for (const h of hosts) {
    if (h.status === 'ip_literal') out.push(finding('mx.ip_literal', 'error', `MX ${h.preference} points at "${h.exchange}", an address; MX targets must be host names, and most senders skip it.`, `Create a name (e.g. mx.${domain}) with an A record for that address and point the MX at it.`))
    if (h.cname_chain.length) out.push(finding('mx.cname', 'error', `MX target ${h.exchange} is an alias (CNAME to ${h.cname_chain.at(-1)}); RFC 2181 §10.3 forbids it and some senders refuse to deliver.`, `Point the MX record at ${h.cname_chain.at(-1)} directly.`))
    if (h.status === 'no_address' || h.status === 'nxdomain') out.push(finding('mx.no_address', 'error', `MX target ${h.exchange}: ${h.error}.`, `Add A/AAAA records for ${h.exchange} or remove the MX record.`))
    if (h.status === 'dns_error') out.push(finding('mx.host_dns_error', 'warning', `MX target ${h.exchange} could not be resolved: ${h.error}.`, null))
    if (h.refused_addresses.length) out.push(finding('mx.private_address', 'error', `MX target ${h.exchange} resolves to ${h.refused_addresses.join(', ')}, not reachable from the internet.`, 'Publish the public address of the mail server.'))
    for (const r of h.reverse_dns) {
      if (r.error) continue
      if (r.ptr.length === 0) out.push(finding('mx.no_ptr', 'warning', `${r.address} (${h.exchange}) has no reverse DNS (PTR); receivers distrust mail from hosts without one.`, `Ask the address's provider to set its PTR to ${h.exchange}.`))
      else if (!r.fcrdns) out.push(finding('mx.fcrdns', 'warning', `${r.address} (${h.exchange}) has PTR ${r.ptr.join(', ')}, which does not resolve back to it (no forward-confirmed reverse DNS).`, `Make the PTR name resolve to ${r.address}, or set the PTR to ${h.exchange}.`))
    }
  }
  const usable = hosts.filter((h) => h.status === 'ok' && h.refused_addresses.length < h.addresses.length)
  if (usable.length === 0) out.push(finding('mx.unreachable', 'critical', `None of the MX hosts of ${domain} has a usable address: it cannot receive mail.`, 'Fix the MX targets (see the other findings).'))
  else if (hosts.length === 1) out.push(finding('mx.single', 'info', `${domain} has a single MX host; senders queue mail while it is down.`, null))
  return out
}

export async function inspectMx(dns: EmailDns, domain: string, options: MxOptions): Promise<MxDataShape> {
  const mx = await dns.mx(domain)
  const records = [...mx.records]
    .map((r) => ({ preference: r.preference, exchange: r.exchange === '' || r.exchange === '.' ? '.' : r.exchange.replace(/\.$/, '').toLowerCase() }))
    .sort((a, b) => a.preference - b.preference || a.exchange.localeCompare(b.exchange))
  const nullMx = records.some((r) => r.exchange === '.')
  const max = options.maxHosts ?? 10
  const hosts = await Promise.all(
    records.map((r, i) =>
      i < max ? inspectHost(dns, r.preference, r.exchange, options) : Promise.resolve<MxHostShape>({ preference: r.preference, exchange: r.exchange, status: 'ok', addresses: [], cname_chain: [], reverse_dns: [], refused_addresses: [], error: 'not checked (too many MX records)' }),
    ),
  )
  let implicit = false
  if (records.length === 0 && mx.status !== 'error') {
    const [a, aaaa] = await Promise.all([dns.a(domain), dns.aaaa(domain)])
    implicit = a.records.length + aaaa.records.length > 0
  }
  const partial = {
    domain,
    status: mx.status,
    null_mx: nullMx,
    implicit_mx: implicit,
    accepts_mail: implicit || hosts.some((h) => h.status === 'ok'),
    records: hosts,
  }
  return { ...partial, findings: sortFindings(lint(domain, partial)) }
}
