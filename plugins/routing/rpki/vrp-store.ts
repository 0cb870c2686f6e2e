import type { Logger } from 'pino'
import { UnavailableError } from '../../../runtime/errors.ts'
import { dropExpired } from './vrp-expiry.ts'
import { VrpIndex } from './vrp-index.ts'
import type { ParsedVrps } from './vrp-json.ts'
import { parseVrpJsonInSlices } from './vrp-json.ts'
import type { Validators, VrpSource } from './vrp-source.ts'

// The VRP set the service validates against: loaded at start in the background,
// refreshed periodically, swapped in whole when a new one is ready. Requests
// always use the set in hand and never wait for a refresh; a failed refresh keeps
// the last good set (and says so in answers). Until a first set is loaded, RPKI
// answers are 503 with the reason.
//
// Readiness: failing while the first load is under way (an orchestrator should
// not send RPKI traffic to an instance that cannot answer it), but only for that
// first attempt: if the source cannot be had, the instance reports ready and
// degraded, so one dead VRP mirror does not keep the whole API out of service.
//
// Expiry: VRPs whose `expires` has passed are dropped when a set is loaded, and a
// kept set is filtered again (in the background, like a refresh) when the
// earliest expiry among its VRPs passes — at most once per pruneMinIntervalMs, so
// an export whose VRPs expire a few at a time costs one rebuild a minute, not
// one per VRP. A VRP may thus be used up to that long (plus the rebuild) after
// it expired. A set whose VRPs have all expired answers 503, as no set does.

export interface LoadedVrps {
  index: VrpIndex
  source: string
  /** When this set was loaded (ms since epoch). */
  loadedAt: number
  /** When the export says it was generated, ISO 8601. */
  generatedAt: string | null
  builtBy: string | null
  asnStyle: string
  bytes: number
  loadMs: number
  rejectedSamples: string[]
  validators: Validators
  /** VRPs of the export dropped because they had expired, at load and since. */
  expiredDropped: number
  /** When the next kept VRP expires (ms since epoch); null when none of them does. */
  nextExpiryAt: number | null
  /** The kept VRPs as columns, to filter again when nextExpiryAt passes; null when nothing can expire. */
  live: ParsedVrps | null
}

export interface VrpStatus {
  set: LoadedVrps | null
  /** Last time the source answered (a new set, or "unchanged"). */
  checkedAt: number | null
  lastError: { message: string; at: number } | null
  failures: number
  loading: boolean
  nextAttemptAt: number | null
}

export interface VrpStoreOptions {
  source: VrpSource
  log: Logger
  /** Time between refreshes of a good set. */
  refreshMs?: number
  /** First retry after a failure; doubles up to refreshMs. */
  retryMs?: number
  /** Deadline of one fetch. */
  timeoutMs?: number
  /** A set generated longer ago than this is flagged stale. */
  staleAfterMs?: number
  /** Least time between two expiry filterings of a kept set. */
  pruneMinIntervalMs?: number
  /** The service clock (ms since epoch) for expiry, ages and schedules. */
  now: () => number
}

const MINUTE = 60_000

export class VrpStore {
  private set: LoadedVrps | null = null
  private checkedAt: number | null = null
  private lastError: { message: string; at: number } | null = null
  private failures = 0
  private attempts = 0
  private inFlight: Promise<boolean> | null = null
  private timer: NodeJS.Timeout | null = null
  private nextAttemptAt: number | null = null
  private closed = false
  private pruning: Promise<boolean> | null = null
  private expiryTimer: NodeJS.Timeout | null = null
  private lastPruneAt = Number.NEGATIVE_INFINITY
  private readonly abort = new AbortController()
  private readonly refreshMs: number
  private readonly retryMs: number
  private readonly timeoutMs: number
  readonly staleAfterMs: number
  private readonly pruneMinIntervalMs: number
  /** The store's clock, ms since the epoch (answers compute ages with it). */
  readonly now: () => number

  constructor(private readonly options: VrpStoreOptions) {
    this.refreshMs = options.refreshMs ?? 10 * MINUTE
    this.retryMs = options.retryMs ?? MINUTE
    this.timeoutMs = options.timeoutMs ?? 2 * MINUTE
    this.staleAfterMs = options.staleAfterMs ?? 24 * 60 * MINUTE
    this.pruneMinIntervalMs = options.pruneMinIntervalMs ?? MINUTE
    this.now = options.now
  }

  get source(): string {
    return this.options.source.location
  }

  /** Starts the first load and the refresh schedule; returns at once. */
  start(): void {
    void this.refresh()
  }

  /** The set to validate with; null before the first load and when all its VRPs have expired. */
  current(): LoadedVrps | null {
    const set = this.set
    if (set === null) return null
    // Timers can be late (a busy loop, a suspended VM): a request past the expiry starts the filtering itself.
    if (set.nextExpiryAt !== null && this.pruning === null && this.pruneDue(set, this.now())) void this.prune()
    return set.index.stats.vrps === 0 && set.expiredDropped > 0 ? null : set
  }

  status(): VrpStatus {
    return {
      set: this.set,
      checkedAt: this.checkedAt,
      lastError: this.lastError,
      failures: this.failures,
      loading: this.inFlight !== null,
      nextAttemptAt: this.nextAttemptAt,
    }
  }

  /** The set to validate with, or a 503 saying why there is none. */
  require(): LoadedVrps {
    const set = this.current()
    if (set) return set
    const details = {
      data: 'vrps',
      source: this.source,
      ...(this.lastError ? { last_error: this.lastError.message } : {}),
      ...(this.nextAttemptAt !== null ? { next_attempt_in_s: Math.max(0, Math.ceil((this.nextAttemptAt - this.now()) / 1000)) } : {}),
    }
    if (this.set) {
      const refresh = this.lastError ? `; refreshing it fails (${this.lastError.message})` : '; no newer export has arrived yet'
      throw new UnavailableError(
        `RPKI validation is unavailable: every VRP of the set loaded ${new Date(this.set.loadedAt).toISOString()} from ${this.source} has expired${refresh}.`,
        { ...details, expired_dropped: this.set.expiredDropped },
      )
    }
    if (this.lastError === null) {
      throw new UnavailableError(`RPKI validation is not available yet: the VRP set from ${this.source} is still loading.`, details)
    }
    throw new UnavailableError(
      `RPKI validation is unavailable: no VRP set could be loaded from ${this.source} (${this.lastError.message}); retrying in the background.`,
      details,
    )
  }

  /** For api.readiness: throws while the first attempt runs; degraded (a string) without a set after it. */
  readiness(): void | string {
    if (this.set && this.current() === null) return `every VRP of the set loaded ${new Date(this.set.loadedAt).toISOString()} has expired; /api/rpki answers 503 until ${this.source} delivers a newer one`
    if (this.set) {
      return this.lastError && this.lastError.at > this.set.loadedAt
        ? `serving the VRP set loaded ${new Date(this.set.loadedAt).toISOString()}; refreshing from ${this.source} fails: ${this.lastError.message}`
        : undefined
    }
    if (this.attempts === 0 || (this.attempts === 1 && this.inFlight)) throw new Error(`loading VRPs from ${this.source}`)
    return `no VRP set (${this.lastError?.message ?? 'not loaded'}); /api/rpki answers 503 until ${this.source} can be loaded`
  }

  /** One fetch-and-swap, shared by concurrent callers; true when a new set was swapped in. */
  refresh(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false)
    if (!this.inFlight) {
      this.attempts++
      this.inFlight = this.load().finally(() => {
        this.inFlight = null
        this.schedule()
      })
    }
    return this.inFlight
  }

  close(): void {
    this.closed = true
    this.abort.abort(new Error('the service is shutting down'))
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.expiryTimer) clearTimeout(this.expiryTimer)
    this.expiryTimer = null
  }

  /**
   * Drops the VRPs of the kept set that have expired since it was loaded or last
   * filtered, rebuilding the index in slices. Shared by concurrent callers; true
   * when a filtered set was swapped in. Runs on its own timer; callable by tests.
   */
  prune(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false)
    if (!this.pruning) {
      this.pruning = this.pruneOnce().finally(() => {
        this.pruning = null
        this.armExpiry()
      })
    }
    return this.pruning
  }

  private async pruneOnce(): Promise<boolean> {
    const set = this.set
    const at = this.now()
    if (set === null || !this.pruneDue(set, at)) return false
    this.lastPruneAt = at
    const live = dropExpired(set.live!, at)
    const index = await VrpIndex.buildInSlices(live.parsed)
    // A refresh may have swapped in a newer set meanwhile: that one was filtered on load.
    if (this.closed || this.set !== set) return false
    this.set = { ...set, index, live: live.nextExpiryAt === null ? null : live.parsed, expiredDropped: set.expiredDropped + live.expired, nextExpiryAt: live.nextExpiryAt }
    const log = live.expired > 0 && index.stats.vrps === 0 ? 'warn' : 'info'
    this.options.log[log]({ source: this.source, expired: live.expired, kept: index.stats.vrps, next_expiry: live.nextExpiryAt === null ? null : new Date(live.nextExpiryAt).toISOString() }, 'expired VRPs dropped from the kept set')
    return true
  }

  private pruneDue(set: LoadedVrps, now: number): boolean {
    return set.live !== null && set.nextExpiryAt !== null && now >= set.nextExpiryAt && now - this.lastPruneAt >= this.pruneMinIntervalMs
  }

  /** Sets the timer for the next expiry filtering of the current set. */
  private armExpiry(): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer)
    this.expiryTimer = null
    const next = this.set?.nextExpiryAt ?? null
    if (this.closed || next === null) return
    const now = this.now()
    const delay = Math.max(0, next - now, this.lastPruneAt + this.pruneMinIntervalMs - now)
    // setTimeout holds at most ~24.8 days; a later expiry is re-armed when this fires.
    this.expiryTimer = setTimeout(() => void this.prune(), Math.min(delay, 2 ** 31 - 1))
    this.expiryTimer.unref()
  }

  private schedule(): void {
    if (this.closed) return
    if (this.timer) clearTimeout(this.timer)
    const delay = this.failures === 0 ? this.refreshMs : Math.min(this.refreshMs, this.retryMs * 2 ** (this.failures - 1))
    this.nextAttemptAt = this.now() + delay
    this.timer = setTimeout(() => void this.refresh(), delay)
    // A refresh timer must never keep a finished process (tests, CLI tools) alive.
    this.timer.unref()
  }

  private async load(): Promise<boolean> {
    const started = performance.now()
    const { source, log } = this.options
    // A timer and a controller rather than AbortSignal.timeout, which AbortSignal.any
    // holds so weakly on Node 20 that it can be collected before it fires.
    const late = new AbortController()
    const timer = setTimeout(() => late.abort(new Error(`${source.location} did not deliver the VRPs within ${this.timeoutMs} ms`)), this.timeoutMs)
    try {
      const signal = AbortSignal.any([this.abort.signal, late.signal])
      const fetched = await source.fetch(this.set?.validators ?? null, signal)
      const at = this.now()
      if (!fetched.changed) {
        this.checkedAt = at
        this.failures = 0
        this.lastError = null
        log.debug({ source: source.location }, 'VRP set unchanged')
        return false
      }
      const parsed = await parseVrpJsonInSlices(fetched.body)
      const live = dropExpired(parsed, this.now())
      if (live.expired > 0 && live.expired === parsed.v4.n + parsed.v6.n) {
        const generated = parsed.metadata.generatedAt ? `generated ${parsed.metadata.generatedAt}` : 'with no generation time'
        throw new Error(`every one of the export's ${live.expired} VRPs has expired (${generated}): the validator behind it seems to have stopped`)
      }
      const index = await VrpIndex.buildInSlices(live.parsed)
      if (index.stats.vrps === 0 && this.set && this.set.index.stats.vrps > 0) {
        throw new Error(`the new export has no VRPs; keeping the ${this.set.index.stats.vrps} loaded ones`)
      }
      if (this.closed) return false
      this.set = {
        index,
        source: source.location,
        loadedAt: at,
        generatedAt: parsed.metadata.generatedAt,
        builtBy: parsed.metadata.builtBy,
        asnStyle: parsed.asnStyle,
        bytes: fetched.body.length,
        loadMs: Math.round(performance.now() - started),
        rejectedSamples: parsed.rejectedSamples,
        validators: fetched.validators,
        expiredDropped: live.expired,
        nextExpiryAt: live.nextExpiryAt,
        live: live.nextExpiryAt === null ? null : live.parsed,
      }
      this.armExpiry()
      this.checkedAt = at
      this.failures = 0
      this.lastError = null
      log.info({ source: source.location, ...index.stats, expired: live.expired, generated_at: parsed.metadata.generatedAt, load_ms: this.set.loadMs, bytes: fetched.body.length }, 'VRP set loaded')
      if (parsed.rejected > 0) log.warn({ rejected: parsed.rejected, samples: parsed.rejectedSamples }, 'VRP export had entries that are not valid VRPs')
      return true
    } catch (error) {
      if (this.closed) return false
      this.failures++
      this.lastError = { message: (error as Error).message, at: this.now() }
      // The first failure of a run is worth a warning; the retries after it, debug.
      const level = this.failures === 1 ? 'warn' : 'debug'
      log[level]({ source: source.location, err: (error as Error).message, failures: this.failures, keeping: this.set ? this.set.index.stats.vrps : 0 }, 'VRP set could not be loaded')
      return false
    } finally {
      clearTimeout(timer)
    }
  }
}
