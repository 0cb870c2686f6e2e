import { stat } from 'node:fs/promises'
import type { Logger } from 'pino'
import type { AsnDatabase } from './asn-db/asn-database.ts'
import type { CountryDatabase } from './asn-db/country-database.ts'
import { loadCountryDatabase } from './asn-db/country-database.ts'
import { loadAsnDatabase } from './asn-db/load-asn-database.ts'
import type { DataSource, IpDataFiles } from './ip-data-files.ts'
import { asnDataSource, countryDataSource, operatorAsnDataSource, operatorCountryDataSource } from './ip-data-files.ts'

export interface IpDataSets {
  asn: AsnDatabase
  country: CountryDatabase
  sources: { asn: DataSource; country: DataSource }
}

type State =
  | { kind: 'idle' }
  | { kind: 'loading'; since: number; promise: Promise<IpDataSets> }
  | { kind: 'ready'; data: IpDataSets }
  | { kind: 'failed'; at: number; error: Error }

/** After a failed load, callers get the same error for this long instead of a re-read of 40 MB per request. */
const RETRY_AFTER_MS = 30_000

/**
 * The offline ASN and country data, loaded on first use: the first /api/ip call,
 * or the first readiness check. A serving process runs its readiness checks
 * before it listens (runtime/warm-up.ts), so `npm start` loads it at start-up;
 * processes that never answer an IP question (most test apps, CLI tools) never
 * pay its ~0.4 s and ~15 MB.
 */
export class IpDataLoader {
  private state: State = { kind: 'idle' }

  constructor(
    private readonly files: IpDataFiles,
    private readonly log: Logger,
  ) {}

  get(): Promise<IpDataSets> {
    const s = this.state
    if (s.kind === 'ready') return Promise.resolve(s.data)
    if (s.kind === 'loading') return s.promise
    if (s.kind === 'failed' && performance.now() - s.at < RETRY_AFTER_MS) return Promise.reject(s.error)
    return this.start()
  }

  /** For api.readiness: throws until the data is loaded (starting the load if nobody has). */
  check(): void {
    const s = this.state
    if (s.kind === 'ready') return
    if (s.kind === 'loading') throw new Error(`loading ASN and country data (started ${Math.round(performance.now() - s.since)} ms ago)`)
    if (s.kind === 'failed' && performance.now() - s.at < RETRY_AFTER_MS) throw new Error(`ASN and country data failed to load: ${s.error.message}`)
    this.start().catch(() => {
      // Logged in start(); the next probe reports it.
    })
    throw new Error('loading ASN and country data (just started)')
  }

  private start(): Promise<IpDataSets> {
    const since = performance.now()
    const promise = this.load().then(
      (data) => {
        this.state = { kind: 'ready', data }
        this.log.info({ asn: data.asn.stats, country_ms: data.country.loadMs, total_ms: Math.round(performance.now() - since) }, 'IP data loaded')
        return data
      },
      (error: unknown) => {
        const err = error instanceof Error ? error : new Error(String(error))
        this.state = { kind: 'failed', at: performance.now(), error: err }
        this.log.error({ err }, 'IP data failed to load')
        throw err
      },
    )
    this.state = { kind: 'loading', since, promise }
    return promise
  }

  private async load(): Promise<IpDataSets> {
    const [asn, country] = await Promise.all([
      loadAsnDatabase({ ipv4: this.files.asnIpv4, ipv6: this.files.asnIpv6 }),
      loadCountryDatabase(this.files.countryMmdb),
    ])
    const files = this.files
    let asnSource = asnDataSource()
    if (files.operatorAsn) {
      const [v4, v6] = await Promise.all([stat(files.asnIpv4), stat(files.asnIpv6)])
      asnSource = operatorAsnDataSource(files, v4.mtime > v6.mtime ? v4.mtime : v6.mtime)
    }
    const countrySource = files.operatorCountry ? operatorCountryDataSource(country.info) : countryDataSource(country.info)
    return { asn, country, sources: { asn: asnSource, country: countrySource } }
  }
}
