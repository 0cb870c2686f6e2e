import type { SpfDataShape } from '../../../registry/email/schemas/spf-data.ts'
import { prefixMask } from '../../../runtime/ip/bits.ts'
import { formatAddress } from '../../../runtime/ip/format.ts'
import { parseIp } from '../../../runtime/ip/parse.ts'

// The networks an SPF tree authorizes: every ip4 / ip6 term, and the addresses
// the a and mx terms resolve to now (with their prefix lengths), in every record
// the tree reaches, that pass on a match (a "-ip4:" excludes, it does not
// authorize; "~" and "?" do not authorize either). Terms a receiver never
// evaluates (after "all") are left out. Each network is listed once with every
// place that authorizes it.

export interface SpfNetwork {
  network: string
  version: 4 | 6
  prefixLength: number
  size: string
  /** The first address, asked about on the network's behalf. */
  first: string
  sources: Array<{ domain: string; term: string; path: string[] }>
}

export function networkOf(address: string, length: number | null): Omit<SpfNetwork, 'sources'> | null {
  const parsed = parseIp(address)
  if (!parsed.ok) return null
  const { version, value } = parsed.value
  const bits = version === 4 ? 32 : 128
  const prefixLength = Math.max(0, Math.min(bits, length ?? bits))
  const base = value & prefixMask(version, prefixLength)
  const first = formatAddress(version, base)
  return { network: `${first}/${prefixLength}`, version, prefixLength, size: (1n << BigInt(bits - prefixLength)).toString(), first }
}

export function spfNetworks(spf: SpfDataShape): SpfNetwork[] {
  const byId = new Map(spf.tree.map((n) => [n.id, n]))
  const pathOf = (id: number): string[] => {
    const out: string[] = []
    for (let n = byId.get(id); n; n = n.parent_id === null ? undefined : byId.get(n.parent_id)) out.unshift(n.domain)
    return out
  }
  const found = new Map<string, SpfNetwork>()
  const add = (net: Omit<SpfNetwork, 'sources'> | null, source: SpfNetwork['sources'][number]) => {
    if (!net) return
    const known = found.get(net.network)
    if (known) {
      if (!known.sources.some((s) => s.domain === source.domain && s.term === source.term)) known.sources.push(source)
    } else found.set(net.network, { ...net, sources: [source] })
  }
  for (const node of spf.tree) {
    if (node.status !== 'ok') continue
    for (const term of node.terms) {
      if (term.type !== 'mechanism' || term.ignored || term.result_on_match !== 'pass') continue
      const source = { domain: node.domain, term: term.raw, path: pathOf(node.id) }
      const name = term.name.toLowerCase()
      if ((name === 'ip4' || name === 'ip6') && term.value) {
        add(networkOf(term.value, name === 'ip4' ? term.cidr4 : term.cidr6), source)
      } else if ((name === 'a' || name === 'mx') && term.addresses) {
        for (const address of term.addresses) add(networkOf(address, address.includes(':') ? term.cidr6 : term.cidr4), source)
      }
    }
  }
  return [...found.values()]
}
