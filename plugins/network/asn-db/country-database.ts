import { readFile } from 'node:fs/promises'
import type { CountryResponse } from 'maxmind'
import { Reader } from 'maxmind'

/**
 * The record shape of @ip-location-db's country mmdb files: a bare
 * `country_code`, not MaxMind's nested `country.iso_code` (the intersection only
 * satisfies maxmind's Response constraint).
 */
type CountryRecord = CountryResponse & { country_code?: string }

/**
 * IP -> ISO 3166-1 alpha-2 country from a MaxMind-format database. The file is
 * read into memory once (7.8 MB for the packaged IPv4+IPv6 one, ~30 ms) instead of
 * maxmind.open(), which would also start a file watcher.
 */
export class CountryDatabase {
  constructor(
    private readonly reader: Reader<CountryRecord>,
    /** When the database was built (its metadata's build epoch). */
    readonly builtAt: Date,
    readonly loadMs: number,
  ) {}

  /** Country code of an address in text form, or null when the database has none. */
  lookup(ip: string): string | null {
    return this.reader.get(ip)?.country_code ?? null
  }
}

export async function loadCountryDatabase(path: string): Promise<CountryDatabase> {
  const started = performance.now()
  const reader = new Reader<CountryRecord>(await readFile(path))
  return new CountryDatabase(reader, reader.metadata.buildEpoch, Math.round(performance.now() - started))
}
