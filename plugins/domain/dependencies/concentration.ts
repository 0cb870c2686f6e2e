import { prefixMask } from '../../../runtime/ip/bits.ts'
import { formatAddress } from '../../../runtime/ip/format.ts'
import { parseIp } from '../../../runtime/ip/parse.ts'

// Are a zone's name servers all in one AS, or all in one /24 (/48)? Shared by
// /api/domain/dependencies and /api/domain/delegation (through this plugin's
// surface). Decided only on what is known: an address whose AS is unknown keeps
// "one AS" from being claimed, and one name server address is no concentration.

export interface PlacedAddress {
  address: string
  /** null: the AS is not known. */
  asn: number | null
}

export interface Concentration {
  /** The distinct addresses judged, in the order given. */
  addresses: string[]
  /** The one AS every address is in; null when they differ, one is unknown, or fewer than two addresses. */
  singleAs: number | null
  /** The one /24 (IPv4) and the one /48 (IPv6) every address of each family is in; null otherwise. */
  singleBlocks: string[] | null
}

/** The /24 (IPv4) or /48 (IPv6) around an address: the smallest blocks that propagate in BGP. */
export function blockOf(address: string): string | null {
  const parsed = parseIp(address)
  if (!parsed.ok) return null
  const { version, value } = parsed.value
  const length = version === 4 ? 24 : 48
  return `${formatAddress(version, value & prefixMask(version, length))}/${length}`
}

export function concentration(rows: readonly PlacedAddress[]): Concentration {
  const unique = [...new Map(rows.map((r) => [r.address, r])).values()]
  const addresses = unique.map((r) => r.address)
  if (unique.length < 2) return { addresses, singleAs: null, singleBlocks: null }
  const asns = new Set(unique.map((r) => r.asn))
  const singleAs = asns.size === 1 && !asns.has(null) ? unique[0]!.asn : null
  const blocks = new Map<4 | 6, Set<string | null>>()
  for (const r of unique) {
    const v = r.address.includes(':') ? 6 : 4
    const set = blocks.get(v) ?? new Set()
    set.add(blockOf(r.address))
    blocks.set(v, set)
  }
  const single = [...blocks.values()].every((set) => set.size === 1 && !set.has(null))
  return { addresses, singleAs, singleBlocks: single ? [...blocks.values()].flatMap((set) => [...set] as string[]) : null }
}
