import { readFile } from 'node:fs/promises'
import type { CountryResponse } from 'maxmind'
import { Reader } from 'maxmind'
import { formatIpv4Number, formatIpv6Groups } from '../../../runtime/ip/format.ts'
import { ipv4Walker, ipv6Walker } from './mmdb-ipv4-walk.ts'

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
  readonly #walk: (address: number) => number
  readonly #walk6: ((w0: number, w1: number, w2: number, w3: number) => number) | null
  /** Country code (or null) by the data record an IPv4 walk ends on. */
  readonly #byRecord = new Map<number, string | null>()

  constructor(
    private readonly reader: Reader<CountryRecord>,
    readonly info: CountryDatabaseInfo,
    readonly loadMs: number,
    file: Uint8Array,
  ) {
    this.#walk = ipv4Walker(file, reader.metadata)
    this.#walk6 = reader.metadata.ipVersion === 6 ? ipv6Walker(file, reader.metadata) : null
  }

  /** When the database was built (its metadata's build epoch). */
  get builtAt(): Date {
    return this.info.builtAt
  }

  /** Country code of an address in text form, or null when the database has none. */
  lookup(ip: string): string | null {
    const record = this.reader.get(ip)
    return record?.country_code ?? record?.country?.iso_code ?? null
  }

  /**
   * The same for an IPv4 address as an unsigned 32-bit number, without text:
   * the tree walked here, the record decoded by the reader once per record
   * (bulk lookups; ~10x faster than lookup(), mmdb-ipv4-walk.ts).
   */
  lookupIpv4(address: number): string | null {
    const record = this.#walk(address)
    if (record === 0) return null
    const code = this.#byRecord.get(record)
    // The address's text only when the record is new (no closure per lookup: a bulk list makes 100,000).
    return code !== undefined ? code : this.#decode(record, formatIpv4Number(address))
  }

  /**
   * The same for an IPv6 address as eight 16-bit groups (the bulk path's parse),
   * without text. An IPv4-only database has no IPv6 data: null, as lookup() of
   * IPv6 text would be if the reader did not refuse it.
   */
  lookupIpv6(groups: Uint16Array): string | null {
    if (this.#walk6 === null) return null
    const record = this.#walk6(wordAt(groups, 0), wordAt(groups, 2), wordAt(groups, 4), wordAt(groups, 6))
    if (record === 0) return null
    const code = this.#byRecord.get(record)
    return code !== undefined ? code : this.#decode(record, formatIpv6Groups(groups))
  }

  /** The country of a data record a walk ended on, decoded by the reader from an address's text, kept by the record. */
  #decode(record: number, text: string): string | null {
    const code = this.lookup(text)
    // Bounded like the reader's cache: an operator's city-level file has many records.
    if (this.#byRecord.size < MAX_CACHED_RECORDS) this.#byRecord.set(record, code)
    return code
  }
}

/** Groups i and i+1 as one unsigned 32-bit word. */
const wordAt = (groups: Uint16Array, i: number): number => (((groups[i] as number) << 16) | (groups[i + 1] as number)) >>> 0

/**
 * Decoded records kept by their offset in the file. A country database has a few
 * hundred distinct records, and without a cache the reader decodes one (a new
 * object) on every lookup: 0.9 µs of a 1.4 µs lookup (100,000 random IPv4 in
 * 75-150 ms without, 46 ms with; bulk lookups, /api/ip/bulk). Bounded for an
 * operator's city-level file, whose records are many: past the bound the rest
 * are decoded as before. The records are shared, so never changed by a reader.
 */
const MAX_CACHED_RECORDS = 10_000

function recordCache(): { get(key: string | number): unknown; set(key: string | number, value: unknown): void } {
  const records = new Map<string | number, unknown>()
  return {
    get: (key) => records.get(key),
    set: (key, value) => {
      if (records.size < MAX_CACHED_RECORDS) records.set(key, value)
    },
  }
}

export async function loadCountryDatabase(path: string): Promise<CountryDatabase> {
  const started = performance.now()
  const file = await readFile(path)
  const reader = new Reader<CountryRecord>(file, { cache: recordCache() })
  const { databaseType, buildEpoch } = reader.metadata
  // mmdb-lib types it as a string; the format (and every reader's result) has a language -> text map.
  const description = reader.metadata.description as unknown as Record<string, string> | string | undefined
  const text = typeof description === 'string' ? description : (description?.en ?? Object.values(description ?? {})[0])
  const info = { databaseType, builtAt: buildEpoch, description: text || null }
  return new CountryDatabase(reader, info, Math.round(performance.now() - started), file)
}
