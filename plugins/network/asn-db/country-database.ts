import { readFile } from 'node:fs/promises'
import type { CountryResponse } from 'maxmind'
import { Reader } from 'maxmind'

/**
 * Either record shape: @ip-location-db's bare `country_code`, or MaxMind's nested
 * `country.iso_code` (GeoLite2/GeoIP2 Country and City, and most mmdb files made to
 * look like them). The intersection only satisfies maxmind's Response constraint.
 */
type CountryRecord = CountryResponse & { country_code?: string }

/** What the database says about itself (its metadata section), for provenance. */
export interface CountryDatabaseInfo {
  /** e.g. "GeoLite2-Country", "country ipvAll". */
  databaseType: string
  /** When the database was built (its metadata's build epoch). */
  builtAt: Date
  /** English description when it has one, else any language's. */
  description: string | null
}

/**
 * IP -> ISO 3166-1 alpha-2 country from a MaxMind-format database. The file is
 * read into memory once (7.8 MB for the packaged IPv4+IPv6 one, ~30 ms) instead of
 * maxmind.open(), which would also start a file watcher.
 */
export class CountryDatabase {
  constructor(
    private readonly reader: Reader<CountryRecord>,
    readonly info: CountryDatabaseInfo,
    readonly loadMs: number,
  ) {}

  /** When the database was built (its metadata's build epoch). */
  get builtAt(): Date {
    return this.info.builtAt
  }

  /** Country code of an address in text form, or null when the database has none. */
  lookup(ip: string): string | null {
    const record = this.reader.get(ip)
    return record?.country_code ?? record?.country?.iso_code ?? null
  }
}

export async function loadCountryDatabase(path: string): Promise<CountryDatabase> {
  const started = performance.now()
  const reader = new Reader<CountryRecord>(await readFile(path))
  const { databaseType, buildEpoch } = reader.metadata
  // mmdb-lib types it as a string; the format (and every reader's result) has a language -> text map.
  const description = reader.metadata.description as unknown as Record<string, string> | string | undefined
  const text = typeof description === 'string' ? description : (description?.en ?? Object.values(description ?? {})[0])
  const info = { databaseType, builtAt: buildEpoch, description: text || null }
  return new CountryDatabase(reader, info, Math.round(performance.now() - started))
}
