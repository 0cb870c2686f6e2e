import type { Cidr, IpAddress } from '../../runtime/ip/ip-types.ts'
import { parseCidr } from '../../runtime/ip/parse-cidr.ts'
import { prefixMask } from '../../runtime/ip/bits.ts'
import type { AnycastEntry } from './anycast-data.ts'
import { ANYCAST_PREFIXES } from './anycast-data.ts'

export const ANYCAST_BASIS =
  'on the bundled list of documented anycast services (root servers, AS112, large public resolvers; plugins/routing/anycast-data.ts); false means not on the list, not proven unicast'

const LIST: ReadonlyArray<{ cidr: Cidr; entry: AnycastEntry }> = ANYCAST_PREFIXES.map((entry) => {
  const parsed = parseCidr(entry.prefix)
  if (!parsed.ok || parsed.value.hostBitsSet) throw new Error(`anycast-data.ts: ${entry.prefix} is not a network prefix`)
  return { cidr: parsed.value, entry }
})

export interface AnycastVerdict {
  anycast: boolean
  prefix: string | null
  service: string | null
  source: string | null
  basis: string
}

export function anycastOf(address: IpAddress): AnycastVerdict {
  for (const { cidr, entry } of LIST) {
    if (cidr.version === address.version && (address.value & prefixMask(cidr.version, cidr.prefixLength)) === cidr.network) {
      return { anycast: true, prefix: entry.prefix, service: entry.service, source: entry.source, basis: ANYCAST_BASIS }
    }
  }
  return { anycast: false, prefix: null, service: null, source: null, basis: ANYCAST_BASIS }
}
