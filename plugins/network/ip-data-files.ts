import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * Where the offline IP data lives. The defaults are the npm packages the service
 * depends on; an operator's own copies (e.g. the newer GitHub releases of
 * ip-location-db, which its README recommends) would replace these paths once
 * runtime/config.ts has variables for them (proposed: INFRALENS_ASN_IPV4_CSV,
 * INFRALENS_ASN_IPV6_CSV, INFRALENS_COUNTRY_MMDB).
 */
export interface IpDataFiles {
  asnIpv4: string
  asnIpv6: string
  countryMmdb: string
}

/** Provenance of one data set, as the API states it. */
export interface DataSource {
  name: string
  version: string | null
  /** YYYY-MM-DD the data was generated. */
  date: string
  licence: string
  attribution: string
  url: string
  notes: string[]
}

const require = createRequire(import.meta.url)

const ASN_PACKAGE = '@ip-location-db/asn'
const COUNTRY_PACKAGE = '@ip-location-db/geo-whois-asn-country-mmdb'

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`))
}

export function packagedIpDataFiles(): IpDataFiles {
  const asn = packageDir(ASN_PACKAGE)
  return {
    asnIpv4: join(asn, 'asn-ipv4-num.csv'),
    asnIpv6: join(asn, 'asn-ipv6-num.csv'),
    countryMmdb: join(packageDir(COUNTRY_PACKAGE), 'geo-whois-asn-country.mmdb'),
  }
}

/** ip-location-db versions end in the build time: 2.3.2026061719 is 2026-06-17 19h UTC. */
export function versionDate(version: string): string | null {
  const m = /\.(\d{4})(\d{2})(\d{2})\d{2}$/.exec(version)
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null
}

function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string }).version
}

const NPM_COPY_WARNING =
  'the upstream README warns that the data published to npm has known errors and recommends its GitHub releases instead'

export function asnDataSource(): DataSource {
  const version = packageVersion(ASN_PACKAGE)
  return {
    name: ASN_PACKAGE,
    version,
    date: versionDate(version) ?? 'unknown',
    licence: 'CC-BY-4.0',
    attribution: 'RouteViews (routeviews.org), DB-IP (https://db-ip.com) and the NRO (nro.net)',
    url: 'https://github.com/sapics/ip-location-db/tree/main/asn',
    notes: [
      'IPv4: RouteViews, then the five RIRs, then DB-IP IP to ASN Lite; IPv6: the RIRs, then DB-IP; names mostly from DB-IP',
      NPM_COPY_WARNING,
    ],
  }
}

export function countryDataSource(builtAt: Date | null): DataSource {
  const version = packageVersion(COUNTRY_PACKAGE)
  return {
    name: COUNTRY_PACKAGE,
    version,
    date: builtAt ? builtAt.toISOString().slice(0, 10) : (versionDate(version) ?? 'unknown'),
    licence: 'CC-BY-4.0',
    attribution: 'the NRO (nro.net), from RIR WHOIS data, geofeeds and ASN data',
    url: 'https://github.com/sapics/ip-location-db/tree/main/geo-whois-asn-country',
    notes: [
      'package.json declares CC0-1.0, but the data notice it ships (NRO_LICENSE) is CC BY 4.0, so attribution is given',
      'country of registration or geofeed, not a geolocation of the host',
      NPM_COPY_WARNING,
    ],
  }
}
