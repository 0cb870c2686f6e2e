import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import type { DnsAnswer } from '../../runtime/net/dns/dns-records.ts'
import { UpstreamError } from '../../runtime/errors.ts'
import { checkTargetText } from '../../runtime/net/target-policy.ts'
import { resolveRecords } from '../dns/surface.ts'

// The delegation as the parent publishes it: the closest enclosing zone with an NS
// set (found through the resolver), then its servers asked directly, without
// recursion, for the domain's NS until one answers with the referral: the NS set
// in its authority section, the glue in its additional section.

export interface ParentView {
  zone: string
  /** The parent server whose referral is shown, "name/address". */
  server: string | null
  ns: string[] | null
  glue: Array<{ name: string; addresses: string[] }>
  error: string | null
}

const clean = (name: string) => name.toLowerCase().replace(/\.$/, '')
const MAX_PARENT_ADDRESSES = 4

async function enclosingZone(dns: DnsClient, domain: string, signal: AbortSignal): Promise<{ zone: string; names: string[] } | null> {
  for (let name = domain; name.includes('.'); ) {
    name = name.slice(name.indexOf('.') + 1)
    const ns = await resolveRecords(dns, name, 'NS', signal)
    const names = ns.raw.filter((r) => clean(r.name) === name).map((r) => clean((r.data as { target: string }).target))
    if (names.length > 0) return { zone: name, names }
  }
  return null
}

function referral(domain: string, answer: DnsAnswer): Omit<ParentView, 'zone' | 'server' | 'error'> | null {
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

export async function parentView(dns: DnsClient, client: DnsClient, domain: string, o: { timeoutMs: number; allowLoopback: boolean; signal: AbortSignal }): Promise<ParentView | null> {
  let parent
  try {
    parent = await enclosingZone(dns, domain, o.signal)
  } catch (error) {
    if (!(error instanceof UpstreamError) || o.signal.aborted) throw error
    // The resolver would not say where the parent is: the delegation is not checked, the servers still are.
    const { rcode, reason, name } = error.details
    return { zone: domain.slice(domain.indexOf('.') + 1), server: null, ns: null, glue: [], error: `the resolver answered ${typeof rcode === 'string' ? rcode : String(reason)} for ${String(name)} NS, so the parent zone was not found` }
  }
  if (!parent) return null
  const view: ParentView = { zone: parent.zone, server: null, ns: null, glue: [], error: null }
  const targets: Array<{ name: string; address: string }> = []
  for (const name of parent.names.sort()) {
    if (targets.length >= MAX_PARENT_ADDRESSES) break
    try {
      const a = await resolveRecords(dns, name, 'A', o.signal)
      for (const r of a.raw) targets.push({ name, address: (r.data as { address: string }).address })
    } catch (error) {
      if (!(error instanceof UpstreamError) || o.signal.aborted) throw error
    }
  }
  const errors: string[] = []
  for (const t of targets.slice(0, MAX_PARENT_ADDRESSES)) {
    const verdict = checkTargetText(t.address, { allowLoopback: o.allowLoopback })
    if (!verdict.allowed) {
      errors.push(`${t.name} (${t.address}) not asked: ${verdict.reason}`)
      continue
    }
    try {
      const answer = await client.query(domain, 'NS', { server: { host: t.address }, recursionDesired: false, retries: 0, timeoutMs: o.timeoutMs, signal: o.signal })
      const found = referral(domain, answer)
      if (found) return { ...view, ...found, server: `${t.name}/${t.address}` }
      errors.push(`${t.name} (${t.address}) answered ${answer.rcode} without the delegation`)
    } catch (error) {
      if (o.signal.aborted) throw error
      errors.push(`${t.name} (${t.address}): ${(error as Error).message}`)
    }
  }
  return { ...view, error: errors.length ? errors.join('; ') : `no address found for the servers of ${parent.zone}` }
}
