import { accessSync, constants, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import type { CountryDatabaseInfo } from './asn-db/country-database.ts'

/**
 * Where the offline IP data lives. The defaults are the npm packages the service
 * depends on; an operator's own copies (e.g. the newer GitHub releases of
 * ip-location-db, which its README recommends, or a MaxMind GeoLite2 Country file)
 * replace them through INFRALENS_ASN_IPV4_CSV + INFRALENS_ASN_IPV6_CSV and
 * INFRALENS_COUNTRY_MMDB.
 */
export interface IpDataFiles {
  asnIpv4: string
  asnIpv6: string
  countryMmdb: string
  /** The operator's files rather than the packages' (their provenance is stated differently). */
  operatorAsn?: boolean
  operatorCountry?: boolean
}

export interface IpDataOverrides {
  asnIpv4Csv: string | undefined
  asnIpv6Csv: string | undefined
  countryMmdb: string | undefined
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

function readable(file: string, variable: string): string {
  try {
    accessSync(file, constants.R_OK)
  } catch (error) {
    throw new Error(`${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  return file
}

/**
 * The packaged files with the operator's in their place. Checked at start-up (a
 * missing file stops it, as a wrong anchors file does): the data itself loads on
 * first use, too late to learn the path was mistyped.
 */
export function ipDataFiles(overrides: IpDataOverrides): IpDataFiles {
  const files = packagedIpDataFiles()
  const { asnIpv4Csv, asnIpv6Csv, countryMmdb } = overrides
  if ((asnIpv4Csv === undefined) !== (asnIpv6Csv === undefined)) {
    throw new Error('INFRALENS_ASN_IPV4_CSV and INFRALENS_ASN_IPV6_CSV go together: set both (the two files of one ip-location-db release) or neither')
  }
  if (asnIpv4Csv !== undefined && asnIpv6Csv !== undefined) {
    files.asnIpv4 = readable(asnIpv4Csv, 'INFRALENS_ASN_IPV4_CSV')
    files.asnIpv6 = readable(asnIpv6Csv, 'INFRALENS_ASN_IPV6_CSV')
    files.operatorAsn = true
  }
  if (countryMmdb !== undefined) {
    files.countryMmdb = readable(countryMmdb, 'INFRALENS_COUNTRY_MMDB')
    files.operatorCountry = true
  }
  return files
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

const OPERATOR_LICENCE = 'not known to the service: the operator supplied this file; its supplier\'s terms apply'

/** The operator's CSVs say nothing about themselves: the newer file's modification time dates them. */
export function operatorAsnDataSource(files: IpDataFiles, modified: Date): DataSource {
  return {
    name: `operator-supplied ASN data (${basename(files.asnIpv4)}, ${basename(files.asnIpv6)})`,
    version: null,
    date: modified.toISOString().slice(0, 10),
    licence: OPERATOR_LICENCE,
    attribution: '',
    url: '',
    notes: ['set by INFRALENS_ASN_IPV4_CSV and INFRALENS_ASN_IPV6_CSV; dated by the files\' modification time'],
  }
}

/** An operator's mmdb names and dates itself in its metadata. */
export function operatorCountryDataSource(info: CountryDatabaseInfo): DataSource {
  return {
    name: info.databaseType,
    version: null,
    date: info.builtAt.toISOString().slice(0, 10),
    licence: OPERATOR_LICENCE,
    attribution: info.description ?? '',
    url: '',
    notes: [`set by INFRALENS_COUNTRY_MMDB; database type "${info.databaseType}", built ${info.builtAt.toISOString()} (mmdb metadata)`],
  }
}

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

export function countryDataSource(info: CountryDatabaseInfo): DataSource {
  const version = packageVersion(COUNTRY_PACKAGE)
  return {
    name: COUNTRY_PACKAGE,
    version,
    date: Number.isNaN(info.builtAt.getTime()) ? (versionDate(version) ?? 'unknown') : info.builtAt.toISOString().slice(0, 10),
    licence: 'CC-BY-4.0',
    attribution: 'the NRO (nro.net), from RIR WHOIS data, geofeeds and ASN data',
    url: 'https://github.com/sapics/ip-location-db/tree/main/geo-whois-asn-country',
    notes: [
      'package.json declares CC0-1.0, but the data notice it ships (NRO_LICENSE) is CC BY 4.0, so attribution is given',
      'country of registration or geofeed, not a geolocation of the host',
      `database type "${info.databaseType}", built ${Number.isNaN(info.builtAt.getTime()) ? 'at an unknown time' : info.builtAt.toISOString()} (mmdb metadata)`,
      NPM_COPY_WARNING,
    ],
  }
}
