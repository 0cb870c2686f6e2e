import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DnsAnswer } from '../../runtime/net/dns/dns-records.ts'
import { UpstreamError } from '../../runtime/errors.ts'
import { checkTargetText } from '../../runtime/net/target-policy.ts'
import { resolveRecords } from '../dns/surface.ts'

// The delegation as the parent publishes it: the closest enclosing zone with an NS
// set (found through the resolver), then every address (A and AAAA) of its servers,
// up to MAX_PARENT_ADDRESSES, asked directly and at once, without recursion, for the
// domain's NS: the referral's NS set in its authority section, the glue in its
// additional section. The first referral (IPv4 before IPv6, names in order) is the
// one compared with the zone; each server's is in `servers`.

export interface ParentServer {
  name: string
  address: string
  ns: string[] | null
  glue: Array<{ name: string; addresses: string[] }>
  error: string | null
}

export interface ParentView {
  zone: string
  /** The parent server whose referral is shown, "name/address". */
  server: string | null
  ns: string[] | null
  glue: Array<{ name: string; addresses: string[] }>
  servers: ParentServer[]
  error: string | null
}

const clean = (name: string) => name.toLowerCase().replace(/\.$/, '')
const MAX_PARENT_ADDRESSES = 8

async function enclosingZone(dns: DnsClient, domain: string, signal: AbortSignal): Promise<{ zone: string; names: string[] } | null> {
  for (let name = domain; name.includes('.'); ) {
    name = name.slice(name.indexOf('.') + 1)
    const ns = await resolveRecords(dns, name, 'NS', signal)
    const names = ns.raw.filter((r) => clean(r.name) === name).map((r) => clean((r.data as { target: string }).target))
    if (names.length > 0) return { zone: name, names }
  }
  return null
}

function referral(domain: string, answer: DnsAnswer): Pick<ParentServer, 'ns' | 'glue'> | null {
  // Parent and child on one server: the child's own NS answer stands in for the referral.
  const section = answer.answers.some((r) => r.type === 'NS') ? answer.answers : answer.authorities
  const ns = section.filter((r) => r.type === 'NS' && clean(r.name) === domain).map((r) => clean((r.data as { target: string }).target))
  if (ns.length === 0) return null
  const glue = [...new Set(ns)].sort().map((name) => ({
    name,
    addresses: answer.additionals.filter((r) => (r.type === 'A' || r.type === 'AAAA') && clean(r.name) === name).map((r) => (r.data as { address: string }).address),
  }))
  return { ns: [...new Set(ns)].sort(), glue }
}

async function addressesOf(dns: DnsClient, names: readonly string[], signal: AbortSignal): Promise<Array<{ name: string; address: string }>> {
  const ask = async (name: string, type: 'A' | 'AAAA') => {
    try {
      return (await resolveRecords(dns, name, type, signal)).raw.map((r) => ({ name, address: (r.data as { address: string }).address }))
    } catch (error) {
      if (!(error instanceof UpstreamError) || signal.aborted) throw error
      return []
    }
  }
  const sorted = [...names].sort()
  const [v4, v6] = await Promise.all([Promise.all(sorted.map((n) => ask(n, 'A'))), Promise.all(sorted.map((n) => ask(n, 'AAAA')))])
  // Both families within the bound: the first IPv6 addresses are not crowded out by many IPv4 ones.
  const four = v4.flat()
  const six = v6.flat()
  const half = MAX_PARENT_ADDRESSES / 2
  const sixCount = Math.min(six.length, Math.max(half, MAX_PARENT_ADDRESSES - four.length))
  return [...four.slice(0, MAX_PARENT_ADDRESSES - sixCount), ...six.slice(0, sixCount)]
}

async function askParent(client: DnsClient, domain: string, t: { name: string; address: string }, o: { timeoutMs: number; allowLoopback: boolean; signal: AbortSignal }): Promise<ParentServer> {
  const row: ParentServer = { ...t, ns: null, glue: [], error: null }
  const verdict = checkTargetText(t.address, { allowLoopback: o.allowLoopback })
  if (!verdict.allowed) return { ...row, error: `not asked: ${verdict.reason}` }
  try {
    const answer = await client.query(domain, 'NS', { server: { host: t.address }, recursionDesired: false, retries: 0, timeoutMs: o.timeoutMs, signal: o.signal })
    const found = referral(domain, answer)
    return found ? { ...row, ...found } : { ...row, error: `answered ${answer.rcode} without the delegation` }
  } catch (error) {
    if (o.signal.aborted) throw error
    return { ...row, error: (error as Error).message }
  }
}

export async function parentView(dns: DnsClient, client: DnsClient, domain: string, o: { timeoutMs: number; allowLoopback: boolean; signal: AbortSignal }): Promise<ParentView | null> {
  let parent
  try {
    parent = await enclosingZone(dns, domain, o.signal)
  } catch (error) {
    if (!(error instanceof UpstreamError) || o.signal.aborted) throw error
    // The resolver would not say where the parent is: the delegation is not checked, the servers still are.
    const { rcode, reason, name } = error.details
    return { zone: domain.slice(domain.indexOf('.') + 1), server: null, ns: null, glue: [], servers: [], error: `the resolver answered ${typeof rcode === 'string' ? rcode : String(reason)} for ${String(name)} NS, so the parent zone was not found` }
  }
  if (!parent) return null
  const targets = await addressesOf(dns, parent.names, o.signal)
  const servers = await Promise.all(targets.map((t) => askParent(client, domain, t, o)))
  const first = servers.find((s) => s.ns !== null)
  const view: ParentView = { zone: parent.zone, server: null, ns: null, glue: [], servers, error: null }
  if (first) return { ...view, server: `${first.name}/${first.address}`, ns: first.ns, glue: first.glue }
  const errors = servers.map((s) => (s.error?.startsWith('not asked') ? `${s.name} (${s.address}) ${s.error}` : `${s.name} (${s.address}): ${s.error}`))
  return { ...view, error: errors.length ? errors.join('; ') : `no address found for the servers of ${parent.zone}` }
}
