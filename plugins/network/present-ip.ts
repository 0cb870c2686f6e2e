import type { z } from 'zod'
import type { AsnMatch } from './asn-db/asn-database.ts'
import type { EmbeddedIpv4 } from '../../runtime/ip/embedded-ipv4.ts'
import { describeIp } from '../../runtime/ip/describe-ip.ts'
import { formatIp } from '../../runtime/ip/format.ts'
import type { IpAddress } from '../../runtime/ip/ip-types.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import type { DataSource } from './ip-data-files.ts'
import type { IpDataSets } from './ip-data.ts'
import type { DataSourceData, EmbeddedIpv4Data, IpData } from '../../registry/network/schemas/network-data.ts'
import { presentClassification, presentSpecialPurpose } from './present-registry.ts'

const DAY_MS = 86_400_000

/**
 * The address whose ASN and country answer for this one. An IPv4-mapped or NAT64
 * address is that IPv4 host written in IPv6, so the IPv4 address answers; a
 * 6to4 or Teredo address answers for itself when the IPv6 data has its range,
 * else for the IPv4 address it carries. The deprecated IPv4-compatible form
 * (::a.b.c.d) is never routed and answers for itself.
 */
export function lookupOrder(address: IpAddress, embedded: EmbeddedIpv4 | null): IpAddress[] {
  if (!embedded || embedded.kind === 'compatible') return [address]
  const v4 = parseIp(embedded.ipv4)
  if (!v4.ok) return [address]
  return embedded.kind === 'mapped' || embedded.kind === 'nat64' ? [v4.value] : [address, v4.value]
}

function presentEmbedded(e: EmbeddedIpv4 | null): z.input<typeof EmbeddedIpv4Data> {
  if (!e) return null
  if (e.kind !== 'teredo') return { ...e }
  const { clientPort, ...rest } = e
  return { ...rest, client_port: clientPort }
}

function presentSource(source: DataSource, now: number): z.input<typeof DataSourceData> {
  const date = Date.parse(`${source.date}T00:00:00Z`)
  return { ...source, notes: [...source.notes], age_days: Number.isNaN(date) ? -1 : Math.floor((now - date) / DAY_MS) }
}

export function presentIp(address: IpAddress, data: IpDataSets, now: number): z.input<typeof IpData> {
  const d = describeIp(address)
  let asn: z.input<typeof IpData>['asn'] = null
  let country: z.input<typeof IpData>['country'] = null
  for (const target of lookupOrder(address, d.embeddedIpv4)) {
    const text = formatIp(target)
    const match: AsnMatch | null = asn === null ? data.asn.lookup(target) : null
    if (match) asn = { number: match.asn, name: match.name, range: { start: match.rangeStart, end: match.rangeEnd }, looked_up: text }
    const code: string | null = country === null ? data.country.lookup(text) : null
    if (code) country = { code, looked_up: text }
  }
  return {
    ip: d.address,
    version: d.version,
    compressed: d.address,
    expanded: d.expanded,
    mixed: d.mixed,
    decimal: d.decimal,
    hex: d.hex,
    binary: d.binary,
    reverse_pointer: d.reversePointer,
    ipv4_mapped: d.ipv4Mapped,
    embedded_ipv4: presentEmbedded(d.embeddedIpv4),
    classification: presentClassification(d.classification),
    special_purpose: d.specialPurpose.map(presentSpecialPurpose),
    bogon: { ...d.bogon },
    asn,
    country,
    data_source: { asn: presentSource(data.sources.asn, now), country: presentSource(data.sources.country, now) },
  }
}
