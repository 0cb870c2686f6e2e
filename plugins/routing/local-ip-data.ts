import type { Logger } from 'pino'
import { embeddedIpv4 } from '../network/ip/embedded-ipv4.ts'
import { formatIp } from '../network/ip/format.ts'
import type { IpAddress } from '../network/ip/ip-types.ts'
import { parseIp } from '../network/ip/parse.ts'
import { IpDataLoader } from '../network/ip-data.ts'
import { packagedIpDataFiles } from '../network/ip-data-files.ts'

// The hook to the bundled offline IP -> ASN / country data of plugins/network
// (asn-db, ip-location-db). The network plugin keeps its loader to itself, so
// this is a second loader over the same files, loaded on the first intelligence
// question (~0.4 s, ~15 MB). When plugins/network exposes its loader (e.g. as an
// upstream), this file is the one place to switch to it.

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

export function createLocalIpData(log: Logger): LocalIpData {
  let loader: IpDataLoader | null = null
  return {
    async lookup(address) {
      loader ??= new IpDataLoader(packagedIpDataFiles(), log)
      const data = await loader.get()
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
