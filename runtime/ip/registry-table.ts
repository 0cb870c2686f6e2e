import { IPV4_ADDRESS_SPACE, IPV6_ADDRESS_SPACE } from './address-space-data.ts'
import { hostMask } from './bits.ts'
import { bogonCheck } from './bogon.ts'
import type { IpAddress, IpVersion } from './ip-types.ts'
import { parseCidr } from './parse-cidr.ts'
import type { AddressClass } from './special-purpose.ts'
import { classify } from './special-purpose.ts'
import { IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE } from './special-purpose-data.ts'

// The IANA class and bogon verdict of an address in a few comparisons, for bulk
// callers (POST /api/ip/bulk: 100,000 addresses). classify() and bogonCheck()
// walk every registry block with bigint comparisons (~2 µs an address, measured);
// here the registries' block boundaries cut the address space into intervals
// inside which both verdicts cannot change (every block either contains an
// interval or misses it), each interval's verdict is worked out once by those
// same functions, and a lookup is a binary search over the boundaries (plain
// numbers for IPv4). test/network/registry-table.test.ts holds the table to
// classify() and bogonCheck() on random and boundary addresses.
//
// One exception: in 6to4 (2002::/16), Teredo (2001::/32) and the NAT64
// well-known prefix (64:ff9b::/96) the bogon verdict depends on the IPv4 address
// carried inside, not on the block: those intervals are marked and their
// addresses asked bogonCheck() itself.

export interface RegistryVerdict {
  class: AddressClass
  bogon: boolean
}

interface FamilyTable<N> {
  /** Sorted starts of the intervals; the first is 0. */
  starts: N[]
  /** The verdict of each interval; undefined where it depends on the embedded IPv4 address. */
  verdicts: Array<RegistryVerdict | undefined>
  classes: AddressClass[]
}

function blocksOf(version: IpVersion): string[] {
  const special = version === 4 ? IPV4_SPECIAL_PURPOSE : IPV6_SPECIAL_PURPOSE
  const space = version === 4 ? IPV4_ADDRESS_SPACE : IPV6_ADDRESS_SPACE
  return [...special.entries.flatMap((e) => e.addressBlocks), ...space.entries.map((e) => e.prefix)].filter((p) => p.includes(':') === (version === 6))
}

/** Blocks whose bogon verdict reads the embedded IPv4 address (bogon.ts, rule 2). */
const EMBEDDING = ['2002::/16', '2001::/32', '64:ff9b::/96']

function build(version: IpVersion): FamilyTable<bigint> {
  const top = version === 4 ? (1n << 32n) - 1n : (1n << 128n) - 1n
  const cuts = new Set<bigint>([0n])
  const ranges = (prefixes: readonly string[]) =>
    prefixes.map((prefix) => {
      const parsed = parseCidr(prefix)
      // The data modules are generated from these same parsers; a failure here is a bug.
      if (!parsed.ok) throw new Error(`bad registry prefix ${prefix}: ${parsed.error.reason}`)
      const { network, prefixLength } = parsed.value
      return { start: network, end: network | hostMask(version, prefixLength) }
    })
  for (const { start, end } of ranges(blocksOf(version))) {
    cuts.add(start)
    if (end < top) cuts.add(end + 1n)
  }
  const embedding = version === 6 ? ranges(EMBEDDING) : []
  const starts = [...cuts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const verdicts: Array<RegistryVerdict | undefined> = []
  const classes: AddressClass[] = []
  for (const start of starts) {
    const address: IpAddress = { version, value: start }
    const cls = classify(address).class
    classes.push(cls)
    const embedded = embedding.some((r) => r.start <= start && start <= r.end)
    verdicts.push(embedded ? undefined : Object.freeze({ class: cls, bogon: bogonCheck(address).bogon }))
  }
  return { starts, verdicts, classes }
}

let v4: FamilyTable<number> | undefined
let v6: FamilyTable<bigint> | undefined

function table4(): FamilyTable<number> {
  if (v4 === undefined) {
    const built = build(4)
    v4 = { ...built, starts: built.starts.map(Number) }
  }
  return v4
}

function table6(): FamilyTable<bigint> {
  return (v6 ??= build(6))
}

/** Index of the interval holding `value`: the last start <= value. */
function intervalOf<N extends number | bigint>(starts: readonly N[], value: N): number {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (starts[mid]! <= value) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** The verdict of an IPv4 address given as an unsigned 32-bit number (no allocation). */
export function ipv4RegistryVerdict(address: number): RegistryVerdict {
  const t = table4()
  return t.verdicts[intervalOf(t.starts, address)]!
}

/** The class (classify().class) and the bogon verdict (bogonCheck().bogon) of an address. */
export function registryVerdict(address: IpAddress): RegistryVerdict {
  if (address.version === 4) return ipv4RegistryVerdict(Number(address.value))
  const t = table6()
  const i = intervalOf(t.starts, address.value)
  return t.verdicts[i] ?? { class: t.classes[i]!, bogon: bogonCheck(address).bogon }
}
