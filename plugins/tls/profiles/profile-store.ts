import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Logger } from 'pino'
import type { GuardedNetwork } from '../../../runtime/net/guarded-network.ts'
import type { Guidelines } from './guidelines.ts'
import { parseGuidelines } from './guidelines.ts'

// Where the TLS profiles come from: Mozilla's guidelines JSON at a URL
// (INFRALENS_TLS_PROFILES_URL, through the guarded network like every upstream
// of the service: its circuit breaker, no private address unless the operator
// allows them) or a file the operator provides (INFRALENS_TLS_PROFILES_FILE,
// which wins). Nothing is bundled: the project may not ship Mozilla's file.
//
// Loaded when an analysis first needs it, then kept for a day; a failed load is
// not tried again for five minutes (analyses in between say why there is
// none), and a failed refresh keeps the document in hand. Concurrent analyses
// share one load. An analysis never fails for want of the document: its
// compliance part says "unavailable" with the reason.

export interface ProfileSourceConfig {
  url: string
  file: string | undefined
}

export interface LoadedGuidelines {
  guidelines: Guidelines
  /** The URL or file path the document came from. */
  source: string
  source_kind: 'url' | 'file'
  /** When it was read (the service clock), ISO 8601. */
  fetched_at: string
  sha256: string
}

export type ProfilesAnswer = { ok: true; loaded: LoadedGuidelines; refresh_error: string | null } | { ok: false; reason: string }

export interface ProfileStoreOptions {
  source: ProfileSourceConfig
  network: GuardedNetwork
  log: Logger
  now: () => number
  /** Deadline of one load. */
  timeoutMs: number
  ttlMs?: number
  retryMs?: number
}

/** Guideline documents are about 10 KB; anything past this is not one. */
const MAX_BYTES = 1024 * 1024
const MAX_REDIRECTS = 3
const DAY = 86_400_000

export function defineProfileStore(o: ProfileStoreOptions) {
  const ttlMs = o.ttlMs ?? DAY
  const retryMs = o.retryMs ?? 5 * 60_000
  const kind: 'url' | 'file' = o.source.file ? 'file' : 'url'
  const location = o.source.file ? resolve(o.source.file) : o.source.url
  let loaded: LoadedGuidelines | null = null
  let loadedAt = 0
  let failure: { message: string; at: number } | null = null
  let inFlight: Promise<void> | null = null

  async function fetchUrl(signal: AbortSignal): Promise<Buffer> {
    let url = o.source.url
    for (let hop = 0; ; hop++) {
      const res = await o.network.request(url, { headers: { accept: 'application/json' }, timeoutMs: o.timeoutMs, maxBytes: MAX_BYTES, upstream: 'tls-profiles', signal })
      const next = res.headers.location
      if (res.status >= 300 && res.status < 400 && typeof next === 'string' && hop < MAX_REDIRECTS) {
        // Each hop goes through the guard again: a redirect to a private address is refused like the URL itself.
        const target = new URL(next, url)
        if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error(`${url} redirects to ${target.protocol} (only http and https are followed)`)
        url = target.toString()
        continue
      }
      if (res.status !== 200) throw new Error(`${url} answered HTTP ${res.status}`)
      return res.body
    }
  }

  async function readLocal(signal: AbortSignal): Promise<Buffer> {
    const info = await stat(location)
    if (info.size > MAX_BYTES) throw new Error(`${location} is ${info.size} bytes, more than ${MAX_BYTES}`)
    return readFile(location, { signal })
  }

  async function load(): Promise<void> {
    const late = new AbortController()
    const timer = setTimeout(() => late.abort(new Error(`no answer within ${o.timeoutMs} ms`)), o.timeoutMs)
    try {
      const body = kind === 'file' ? await readLocal(late.signal) : await fetchUrl(late.signal)
      const guidelines = parseGuidelines(body.toString('utf8'))
      const at = o.now()
      loaded = { guidelines, source: location, source_kind: kind, fetched_at: new Date(at).toISOString(), sha256: createHash('sha256').update(body).digest('hex') }
      loadedAt = at
      failure = null
      o.log.info({ source: location, version: guidelines.version, profiles: guidelines.profiles.map((p) => p.name) }, 'TLS profiles loaded')
    } catch (error) {
      const message = (error as Error).message
      failure = { message: `${location}: ${message}`, at: o.now() }
      o.log.warn({ source: location, err: message, keeping: loaded?.guidelines.version ?? null }, 'TLS profiles could not be loaded')
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    location,
    kind,
    /** The document to check against, loading it first when there is none or it is a day old. */
    async get(signal: AbortSignal): Promise<ProfilesAnswer> {
      const now = o.now()
      const fresh = loaded !== null && now - loadedAt < ttlMs
      const resting = failure !== null && now - failure.at < retryMs
      if (!fresh && !resting) {
        inFlight ??= load().finally(() => (inFlight = null))
        const pending = inFlight
        // A request that is gone does not wait (the load goes on for the next one).
        if (!signal.aborted) {
          await new Promise<void>((done) => {
            const stop = () => done()
            signal.addEventListener('abort', stop, { once: true })
            void pending.finally(() => {
              signal.removeEventListener('abort', stop)
              done()
            })
          })
        }
      }
      if (loaded) return { ok: true, loaded, refresh_error: failure && failure.at >= loadedAt ? failure.message : null }
      if (failure) return { ok: false, reason: `the TLS profiles could not be loaded from ${failure.message}` }
      return { ok: false, reason: `the TLS profiles from ${location} are still loading` }
    },
  }
}

export type ProfileStore = ReturnType<typeof defineProfileStore>
