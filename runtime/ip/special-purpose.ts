import { IPV4_ADDRESS_SPACE, IPV6_ADDRESS_SPACE } from './address-space-data.ts'
import { hostMask } from './bits.ts'
import type { Cidr, IpAddress, IpVersion } from './ip-types.ts'
import { parseCidr } from './parse-cidr.ts'
import { IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE } from './special-purpose-data.ts'
import type { SpecialPurposeClass, SpecialPurposeEntry } from './special-purpose-types.ts'

/** One block of the registries, with its range precomputed for containment tests. */
interface IndexedBlock<T> {
  version: IpVersion
  prefix: string
  prefixLength: number
  start: bigint
  end: bigint
  entry: T
}

function indexBlock<T>(prefix: string, entry: T): IndexedBlock<T> {
  const parsed = parseCidr(prefix)
  // The data module is generated from these same parsers; a failure here is a bug.
  if (!parsed.ok) throw new Error(`bad generated prefix ${prefix}: ${parsed.error.reason}`)
  const { version, network, prefixLength } = parsed.value
  return { version, prefix, prefixLength, start: network, end: network | hostMask(version, prefixLength), entry }
}

// Most specific first, so the first containing block is the deciding one.
const SPECIAL: IndexedBlock<SpecialPurposeEntry>[] = [...IPV4_SPECIAL_PURPOSE.entries, ...IPV6_SPECIAL_PURPOSE.entries]
  .flatMap((entry) => entry.addressBlocks.map((prefix) => indexBlock(prefix, entry)))
  .sort((a, b) => b.prefixLength - a.prefixLength || (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))

interface SpaceEntry {
  /** Designation (IPv4) or description (IPv6). */
  name: string
  reserved: boolean
  multicast: boolean
}

const SPACE: IndexedBlock<SpaceEntry>[] = [
  ...IPV4_ADDRESS_SPACE.entries.map((e) =>
    indexBlock(e.prefix, { name: e.designation, reserved: e.status === 'RESERVED', multicast: e.designation === 'Multicast' }),
  ),
  ...IPV6_ADDRESS_SPACE.entries.map((e) =>
    indexBlock(e.prefix, {
      name: e.description,
      reserved: e.description.startsWith('Reserved'),
      multicast: e.description === 'Multicast',
    }),
  ),
]

/** An address or a CIDR block (told apart by `prefixLength`). */
export type IpTarget = IpAddress | Cidr

function rangeOf(target: IpTarget): { version: IpVersion; start: bigint; end: bigint } {
  if ('prefixLength' in target) {
    return {
      version: target.version,
      start: target.network,
      end: target.network | hostMask(target.version, target.prefixLength),
    }
  }
  return { version: target.version, start: target.value, end: target.value }
}

export interface SpecialPurposeMatch {
  prefix: string
  entry: SpecialPurposeEntry
}

export interface SpecialPurposeLookup {
  /** Registry blocks containing the whole target, most specific first. */
  matches: SpecialPurposeMatch[]
  /** Registry blocks strictly inside a CIDR target, in address order (always empty for an address). */
  within: SpecialPurposeMatch[]
}

/**
 * Special-purpose registry entries for an address or block. An address or block
 * can sit in several nested entries (192.0.0.9 is in 192.0.0.9/32 and
 * 192.0.0.0/24); the first match is the one whose flags apply, since the registry
 * defines wider entries as overridden by more specific ones.
 */
export function lookupSpecialPurpose(target: IpTarget): SpecialPurposeLookup {
  const { version, start, end } = rangeOf(target)
  const matches: SpecialPurposeMatch[] = []
  const within: IndexedBlock<SpecialPurposeEntry>[] = []
  for (const b of SPECIAL) {
    if (b.version !== version) continue
    if (b.start <= start && end <= b.end) matches.push({ prefix: b.prefix, entry: b.entry })
    else if (start <= b.start && b.end <= end) within.push(b)
  }
  within.sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : x.prefixLength - y.prefixLength))
  return { matches, within: within.map((b) => ({ prefix: b.prefix, entry: b.entry })) }
}

/**
 * 'multicast', 'public' (ordinary unicast space: IPv4 /8s allocated to RIRs or
 * legacy holders, IPv6 2000::/3 outside special blocks), 'reserved' (IANA-reserved
 * space with no special-purpose entry, e.g. IPv6 4000::/3) and 'mixed' (a block
 * spanning differently classed space, e.g. ::/0) complete the registry classes.
 */
export type AddressClass = SpecialPurposeClass | 'multicast' | 'public' | 'mixed'

export interface AddressClassification {
  class: AddressClass
  /** The registry's name for the deciding block ("Private-Use", "Multicast", "APNIC"). */
  name: string
  /** The deciding block; null for 'mixed' and for a block spanning several agreeing ones. */
  prefix: string | null
  registry: 'special-purpose' | 'address-space' | null
}

/**
 * The short class of an address or block: its most specific special-purpose
 * block, else its address-space block. A CIDR wider than one address-space block
 * still gets a class when every block it spans agrees (224.0.0.0/4 is 'multicast',
 * sixteen /8s in the registry); otherwise it is 'mixed'.
 */
export function classify(target: IpTarget): AddressClassification {
  const { matches } = lookupSpecialPurpose(target)
  const top = matches[0]
  if (top) return { class: top.entry.class, name: top.entry.name, prefix: top.prefix, registry: 'special-purpose' }
  const space = addressSpaceOf(target)
  if (space) return { class: spaceClass(space.entry), name: space.entry.name, prefix: space.prefix, registry: 'address-space' }
  const { version, start, end } = rangeOf(target)
  const inside = SPACE.filter((b) => b.version === version && start <= b.start && b.end <= end)
  const first = inside[0]
  if (first && inside.every((b) => spaceClass(b.entry) === spaceClass(first.entry) && b.entry.name === first.entry.name)) {
    return { class: spaceClass(first.entry), name: first.entry.name, prefix: null, registry: 'address-space' }
  }
  return { class: 'mixed', name: 'spans differently classed registry blocks', prefix: null, registry: null }
}

function spaceClass(entry: SpaceEntry): AddressClass {
  return entry.multicast ? 'multicast' : entry.reserved ? 'reserved' : 'public'
}

function addressSpaceOf(target: IpTarget): IndexedBlock<SpaceEntry> | undefined {
  const { version, start, end } = rangeOf(target)
  let best: IndexedBlock<SpaceEntry> | undefined
  for (const b of SPACE) {
    if (b.version === version && b.start <= start && end <= b.end && (!best || b.prefixLength > best.prefixLength)) {
      best = b
    }
  }
  return best
}

/** The registry dates and sources behind lookups, for API metadata. */
export const REGISTRY_SOURCES = [IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE, IPV4_ADDRESS_SPACE, IPV6_ADDRESS_SPACE].map(
  (r) => ({ id: r.id, title: r.title, source: r.source, updated: r.updated }),
)

/** For bogon.ts: the most specific registry blocks containing an address. */
export function specialBlocksOf(address: IpAddress): readonly SpecialPurposeMatch[] {
  return lookupSpecialPurpose(address).matches
}

export function addressSpaceEntryOf(address: IpAddress): { prefix: string; name: string; reserved: boolean } | null {
  const b = addressSpaceOf(address)
  return b ? { prefix: b.prefix, name: b.entry.name, reserved: b.entry.reserved || b.entry.multicast } : null
}
