import { embeddedIpv4 } from '../../runtime/ip/embedded-ipv4.ts'
import { formatIp } from '../../runtime/ip/format.ts'
import type { IpAddress } from '../../runtime/ip/ip-types.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import type { IpDataSets } from '../network/surface.ts'

// The offline IP -> ASN / country data of plugins/network (asn-db,
// ip-location-db, or the operator's own files), read through the network
// plugin's loader, which it shares as the `ipData` upstream: one copy in memory
// (a second loader cost ~60 MB of RSS), one configuration, loaded on first use.

/** The network plugin's loader (IpDataLoader): the data sets, loading them on first use. */
export interface IpDataSource {
  get(): Promise<IpDataSets>
}

export interface LocalIpFacts {
  asn: { number: number; name: string; range: { start: string; end: string }; source: string } | null
  country: { code: string; source: string } | null
}

export interface LocalIpData {
  lookup(address: IpAddress): Promise<LocalIpFacts>
}

/** IPv4-mapped and NAT64 addresses are IPv4 hosts written in IPv6: their IPv4 address answers. */
function target(address: IpAddress): IpAddress {
  const e = embeddedIpv4(address)
  if (!e || (e.kind !== 'mapped' && e.kind !== 'nat64')) return address
  const v4 = parseIp(e.ipv4)
  return v4.ok ? v4.value : address
}

export function createLocalIpData(source: IpDataSource): LocalIpData {
  return {
    async lookup(address) {
      const data = await source.get()
      const t = target(address)
      const match = data.asn.lookup(t)
      const code = data.country.lookup(formatIp(t))
      return {
        asn: match
          ? { number: match.asn, name: match.name, range: { start: match.rangeStart, end: match.rangeEnd }, source: `${data.sources.asn.name} ${data.sources.asn.version ?? ''}`.trim() }
          : null,
        country: code ? { code, source: `${data.sources.country.name} ${data.sources.country.version ?? ''}`.trim() } : null,
      }
    },
  }
}
