import type { OperatorFinding } from '../../registry/dns/schemas/operator-findings.ts'
import networkIp from '../../registry/network/ip.ts'
import type { ResolverContext } from '../../runtime/define-plugin.ts'
import { isApiError } from '../../runtime/errors.ts'
import { concentration } from '../domain/surface.ts'
import type { ServerRow } from './probe-server.ts'

// All name servers in one AS, or in one /24 (/48)? The AS of each address comes
// from the service's bundled offline data (/api/ip, through ctx.invoke: no upstream,
// its own cache), and the decision is the dependencies endpoint's (the domain
// plugin's surface), so the two endpoints never disagree about one zone.

/** The AS the bundled data gives for an address; null when it has none (or the lookup failed). */
export async function asnOf(ctx: ResolverContext, address: string): Promise<number | null> {
  try {
    return (await ctx.invoke(networkIp, { ip: address })).data.asn?.number ?? null
  } catch (error) {
    if (!isApiError(error) || ctx.signal.aborted) throw error
    return null
  }
}

type Make = (id: 'delegation.ns_single_as' | 'delegation.ns_single_prefix', message: string, fix: string, servers: readonly ServerRow[]) => OperatorFinding

export function diversityFindings(servers: readonly ServerRow[], finding: Make): OperatorFinding[] {
  const { addresses, singleAs, singleBlocks } = concentration(servers)
  const out: OperatorFinding[] = []
  if (singleAs !== null) {
    out.push(finding('delegation.ns_single_as', `All ${addresses.length} name server addresses are in AS${singleAs} (bundled AS data): one network's outage or route leak takes the zone's DNS down.`, 'Add a name server in another network (a secondary DNS provider).', servers))
  }
  if (singleBlocks !== null) {
    out.push(finding('delegation.ns_single_prefix', `All ${addresses.length} name server addresses are in ${singleBlocks.join(' and ')}: one route withdrawn or hijacked takes every name server with it.`, 'Add a name server in another /24 (IPv4) or /48 (IPv6), ideally in another AS.', servers))
  }
  return out
}
