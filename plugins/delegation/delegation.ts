import type { z } from 'zod'
import type { DelegationData } from '../../registry/domain/schemas/delegation-data.ts'
import { DELEGATION_FINDINGS, type DelegationFindingId } from '../../registry/domain/schemas/delegation-findings.ts'
import type { OperatorFinding } from '../../registry/dns/schemas/operator-findings.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { UpstreamError } from '../../runtime/errors.ts'
import { cacheTtlOf, resolveRecords } from '../dns/surface.ts'
import type { ProbeOptions, ServerRow } from './probe-server.ts'
import { probeServer } from './probe-server.ts'
import { asnOf, diversityFindings } from './diversity.ts'
import type { DnssecView } from './ds-check.ts'
import { dnssecView, dsSetsDiffer } from './ds-check.ts'
import type { ParentServer, ParentView } from './parent.ts'
import { parentView } from './parent.ts'

// /api/domain/delegation: the zone's NS set from the resolver, each name server's
// addresses, every address asked directly (probe-server.ts), and what the rows
// say together: lame or silent servers, serials and NS sets that disagree, open
// recursion, zone transfers, TCP.

type Delegation = z.input<typeof DelegationData>
const MAX_SERVERS = 10
const clean = (name: string) => name.toLowerCase().replace(/\.$/, '')
const ORDER = { critical: 0, high: 1, medium: 2, low: 3, info: 4 } as const

function finding(id: DelegationFindingId, message: string, fix: string | null, servers: readonly ServerRow[] = []): OperatorFinding {
  const entry: { severity: OperatorFinding['severity']; zonemaster?: string } = DELEGATION_FINDINGS[id]
  return { id, severity: entry.severity, message, fix, zonemaster: entry.zonemaster ?? null, servers: servers.map((s) => `${s.name}/${s.address}`) }
}

/** A name server's addresses; a lookup the resolver fails is said so, and the other servers are still asked. */
async function addresses(dns: DnsClient, name: string, signal: AbortSignal): Promise<{ addresses: string[]; error: string | null }> {
  try {
    const [a, aaaa] = await Promise.all([resolveRecords(dns, name, 'A', signal), resolveRecords(dns, name, 'AAAA', signal)])
    return { addresses: [...a.raw, ...aaaa.raw].map((r) => (r.data as { address: string }).address), error: null }
  } catch (error) {
    if (!(error instanceof UpstreamError) || signal.aborted) throw error
    return { addresses: [], error: error.message }
  }
}

export async function checkDelegation(ctx: ResolverContext, domain: string, dns: DnsClient, probe: Omit<ProbeOptions, 'signal'>): Promise<Delegation> {
  const nsAnswer = await resolveRecords(dns, domain, 'NS', ctx.signal)
  ctx.lowerTtl(cacheTtlOf(nsAnswer))
  const names = [...new Set(nsAnswer.raw.map((r) => clean((r.data as { target: string }).target)))].sort()
  const base = { domain, ns: { status: nsAnswer.status, names } }
  if (names.length === 0) {
    return { ...base, parent: null, servers: [], serials: [], dnssec: null, findings: [finding('delegation.no_nameservers', `${domain} has no NS records (${nsAnswer.rcode}, ${nsAnswer.status}): it is not a delegated zone.`, null)] }
  }
  const resolved = await Promise.all(names.map(async (name) => ({ name, ...(await addresses(dns, name, ctx.signal)) })))
  const targets = resolved.flatMap((r) => r.addresses.map((address) => ({ name: r.name, address }))).slice(0, MAX_SERVERS)
  const [servers, parent, dnssec] = await Promise.all([
    Promise.all(
      targets.map(async (t) => {
        const [row, asn] = await Promise.all([probeServer(domain, t.name, t.address, { ...probe, signal: ctx.signal }), asnOf(ctx, t.address)])
        return { ...row, asn }
      }),
    ),
    parentView(dns, probe.client, domain, { timeoutMs: probe.timeoutMs, allowLoopback: probe.allowLoopback, signal: ctx.signal }),
    dnssecView(ctx, dns, domain),
  ])
  const answering = servers.filter((s) => s.status === 'ok')
  const serials = [...new Set(answering.flatMap((s) => (s.serial === null ? [] : [s.serial])))].sort((a, b) => a - b)
  const findings: OperatorFinding[] = []
  const rows = (pick: (s: ServerRow) => boolean) => servers.filter(pick)
  const list = (s: readonly ServerRow[]) => s.map((r) => `${r.name} (${r.address})`).join(', ')

  const addressless = resolved.filter((r) => r.addresses.length === 0)
  if (addressless.length) {
    const which = addressless.map((r) => (r.error ? `${r.name} (the lookup failed: ${r.error})` : r.name)).join(', ')
    const f = finding('delegation.ns_no_address', `No A or AAAA record for ${which}: resolvers cannot reach ${addressless.length === 1 ? 'that server' : 'those servers'}.`, 'Publish the name servers\' addresses (and glue at the parent for names inside the zone), or remove them from the NS set.')
    findings.push({ ...f, servers: addressless.map((r) => r.name) })
  }
  const lame = rows((s) => s.status === 'lame')
  if (lame.length) findings.push(finding('delegation.lame', `Not authoritative for ${domain}: ${lame.map((s) => `${s.name} (${s.address}) ${s.error}`).join('; ')}.`, `Serve ${domain} on these servers, or remove them from the NS set (at the parent too).`, lame))
  const silent = rows((s) => s.status === 'unreachable')
  if (silent.length) findings.push(finding('delegation.unreachable', `No answer over UDP from ${list(silent)}.`, 'Check that the servers run and that UDP port 53 reaches them.', silent))
  const refused = rows((s) => s.status === 'refused_target')
  if (refused.length) findings.push(finding('delegation.address_refused', `Not asked: ${refused.map((s) => `${s.name} (${s.address}): ${s.error}`).join('; ')}.`, null, refused))
  const noTcp = answering.filter((s) => s.tcp === false)
  if (noTcp.length) findings.push(finding('delegation.tcp_unsupported', `No answer over TCP from ${list(noTcp)}.`, 'Open TCP port 53 to the servers.', noTcp))
  const noEdns = answering.filter((s) => s.edns === false)
  if (noEdns.length) {
    findings.push(finding('delegation.edns_unsupported', `${list(noEdns)} answer plain queries but not one with an OPT record (EDNS0): FORMERR, no OPT in the reply, or no reply.`, 'Upgrade the name server software, or let EDNS0 through the firewall in front of it (UDP answers over 512 bytes, DNS cookies).', noEdns))
  }
  if (serials.length > 1) {
    const top = serials.at(-1)!
    const behind = answering.filter((s) => s.serial !== null && s.serial !== top)
    findings.push(finding('delegation.serial_mismatch', `The servers give ${serials.length} SOA serials (${serials.join(', ')}); behind ${top}: ${behind.map((s) => `${s.name} (${s.address}) ${s.serial}`).join(', ')}.`, 'Check zone transfers (NOTIFY, allow-transfer) from the primary to these servers.', behind))
  }
  const otherNs = answering.filter((s) => s.ns !== null && s.ns.join(' ') !== names.join(' '))
  if (otherNs.length) findings.push(finding('delegation.ns_set_mismatch', `The NS set ${names.join(', ')} differs on ${otherNs.map((s) => `${s.name} (${s.address}): ${s.ns!.join(', ') || 'none'}`).join('; ')}.`, 'Serve one NS set from every server.', otherNs))
  const open = servers.filter((s) => s.recursion_available === true)
  if (open.length) findings.push(finding('delegation.open_recursion', `${list(open)} offer recursion to anyone (RA set).`, 'Turn recursion off on authoritative servers (BIND: recursion no; or allow-recursion for your own networks only).', open))
  const axfr = servers.filter((s) => s.axfr_allowed === true)
  if (axfr.length) findings.push(finding('delegation.axfr_allowed', `${list(axfr)} hand the whole zone to anyone (AXFR).`, 'Allow zone transfers only to the secondaries (BIND: allow-transfer { key ...; }).', axfr))

  findings.push(...diversityFindings(servers, finding))
  findings.push(...parentFindings(domain, names, resolved, parent))
  findings.push(...dnssecFindings(domain, dnssec))
  findings.sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || a.id.localeCompare(b.id))
  return { ...base, parent, servers, serials, dnssec, findings }
}

/** The parent's DS against the zone's keys and the registry's secureDNS. */
function dnssecFindings(domain: string, view: DnssecView): OperatorFinding[] {
  const out: OperatorFinding[] = []
  if (view.ds.length > 0 && view.ds.every((d) => d.matches_key === false)) {
    const tags = view.dnskey_tags.length ? `its DNSKEY key tags are ${view.dnskey_tags.join(', ')}` : 'it publishes no DNSKEY'
    out.push(finding('delegation.ds_no_matching_dnskey', `The parent's DS for ${domain} (key tags ${view.ds.map((d) => d.key_tag).join(', ')}) names no key of the zone: ${tags}. Validating resolvers answer SERVFAIL for the whole zone.`, 'Publish the DS of the zone\'s current KSK at the registrar (or put the old key back until the DS is replaced); to go unsigned, remove the DS first.'))
  }
  const differ = dsSetsDiffer(view)
  if (differ) {
    const part = (label: string, list: string[]) => (list.length ? ` ${label}: ${list.join('; ')}.` : '')
    out.push(finding('delegation.rdap_ds_differ', `The registry's secureDNS (RDAP) and the DS in DNS for ${domain} differ.${part('Only in DNS', differ.onlyDns)}${part('Only at the registry', differ.onlyRdap)}`, 'Ask the registrar which DS set it submitted; the registry publishes what it holds within its update interval.'))
  }
  if (view.rdap?.status === 'unavailable') out.push(finding('delegation.rdap_unavailable', `The registry's secureDNS for ${domain} could not be read: ${view.rdap.error}. The DS in DNS was not compared with it.`, null))
  return out
}

/** The parent's NS set and glue against the zone's own NS set and the name servers' addresses. */
function parentFindings(domain: string, names: readonly string[], resolved: ReadonlyArray<{ name: string; addresses: string[] }>, parent: ParentView | null): OperatorFinding[] {
  if (!parent) return []
  if (!parent.ns) return [finding('delegation.parent_unchecked', `The delegation in ${parent.zone} could not be read: ${parent.error}.`, null)]
  const out: OperatorFinding[] = []
  const named = (list: string[]) => (f: OperatorFinding) => ({ ...f, servers: list })
  if (parent.ns.join(' ') !== names.join(' ')) {
    const onlyParent = parent.ns.filter((n) => !names.includes(n))
    const onlyChild = names.filter((n) => !parent.ns!.includes(n))
    out.push(
      named([...onlyParent, ...onlyChild])(
        finding('delegation.parent_child_ns_differ', `${parent.zone} delegates ${domain} to ${parent.ns.join(', ')}; the zone says ${names.join(', ')}${onlyParent.length ? ` (only at the parent: ${onlyParent.join(', ')})` : ''}${onlyChild.length ? ` (only in the zone: ${onlyChild.join(', ')})` : ''}.`, `Make the NS set at the registrar and in the zone the same.`),
      ),
    )
  }
  const referrals = parent.servers.filter((s) => s.ns !== null)
  // NS sets must agree; glue only where both referrals carry some for a name (a server may leave
  // glue out of a full additional section, and that is not a different delegation).
  const glueOf = (s: ParentServer, name: string) => [...(s.glue.find((g) => g.name === name)?.addresses ?? [])].sort().join(',')
  const differs = (a: ParentServer, b: ParentServer) =>
    a.ns!.join(' ') !== b.ns!.join(' ') || a.ns!.some((name) => glueOf(a, name) !== '' && glueOf(b, name) !== '' && glueOf(a, name) !== glueOf(b, name))
  if (referrals.some((r) => differs(r, referrals[0]!))) {
    const shown = referrals.map((s) => `${s.name} (${s.address}): ${s.ns!.join(', ')}${s.glue.some((g) => g.addresses.length) ? `; glue ${s.glue.flatMap((g) => g.addresses.map((a) => `${g.name} ${a}`)).join(', ')}` : ''}`)
    out.push(named(referrals.map((s) => `${s.name}/${s.address}`))(finding('delegation.parent_servers_differ', `The servers of ${parent.zone} give different referrals for ${domain}: ${shown.join('; ')}.`, `Check that every server of ${parent.zone} has the latest zone.`)))
  }
  const inside = (name: string) => name === domain || name.endsWith(`.${domain}`)
  const missing = parent.glue.filter((g) => inside(g.name) && g.addresses.length === 0).map((g) => g.name)
  if (missing.length) out.push(named(missing)(finding('delegation.glue_missing', `The referral from ${parent.server} has no glue for ${missing.join(', ')}, inside ${domain}.`, 'Register the name servers\' addresses (glue) with the registrar.')))
  const sorted = (a: readonly string[]) => [...a].sort().join(' ')
  const wrong = parent.glue.flatMap((g) => {
    const own = resolved.find((r) => r.name === g.name)
    return own && g.addresses.length > 0 && own.addresses.length > 0 && sorted(g.addresses) !== sorted(own.addresses) ? [{ ...g, own: own.addresses }] : []
  })
  if (wrong.length) {
    out.push(named(wrong.map((g) => g.name))(finding('delegation.glue_mismatch', `The parent's glue differs from the zone's addresses: ${wrong.map((g) => `${g.name} glue ${g.addresses.join(', ')}, zone ${g.own.join(', ')}`).join('; ')}.`, 'Update the glue at the registrar (or the A/AAAA records in the zone).')))
  }
  return out
}
