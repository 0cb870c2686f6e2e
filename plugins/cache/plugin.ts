import type { Call, MaybePromise } from '../../runtime/call.ts'
import { defineLayer, isPending } from '../../runtime/call.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { toSeconds } from '../../runtime/duration.ts'
import { ApiError } from '../../runtime/errors.ts'
import { questionKey } from '../../runtime/question-key.ts'
import type { CacheEntry, CacheStore } from './cache-store.ts'
import { createMemoryStore } from './cache-store.ts'
import { createRedisStore } from './redis-store.ts'

interface Resolved {
  data: unknown
  ttl: number
}

/**
 * private, not public: an answer names the caller's tier (meta.tier) and carries
 * its RateLimit-* headers, so a shared cache (a proxy, a CDN) must not hand one
 * caller's copy to another; the caller's own cache (browser, client library)
 * keeps it. public with Vary: x-api-key would split shared caches per key and
 * still give every anonymous caller behind one proxy the first one's limits.
 */
const freshFor = (seconds: number): string => `private, max-age=${seconds}`

/** Upstream trouble (502 and the request deadline's 504) may be answered from stale data. */
const upstreamTrouble = (error: unknown) => error instanceof ApiError && (error.code === 'upstream_error' || error.code === 'timeout')

export default definePlugin({
  name: 'cache',
  setup(api) {
    const clock = api.clock
    const local = createMemoryStore(api.config.cacheMaxEntries, clock)
    const store: CacheStore = api.redis && api.config.cacheMaxEntries > 0 ? createRedisStore(api.redis, local, clock) : local
    const staleMs = api.config.staleIfErrorSeconds * 1000
    // Identical misses in flight share one resolver call (per process).
    const inflight = new Map<string, Promise<Resolved>>()

    api.layer(
      defineLayer({
        name: 'cache',
        stage: 'cache',
        forEndpoint: (endpoint) => {
          if (endpoint.cache === false) return undefined
          const ttlSeconds = toSeconds(endpoint.cache.ttl)
          // A miss: one resolver call for all identical requests in flight.
          const miss = async (call: Call, next: () => MaybePromise<unknown>, key: string, entry: CacheEntry | undefined): Promise<unknown> => {
            let flight = inflight.get(key)
            if (flight === undefined) {
              flight = (async (): Promise<Resolved> => {
                const data = await next()
                // A resolver may only lower the TTL (e.g. to a DNS record's TTL).
                const ttl = Math.max(0, Math.floor(Math.min(ttlSeconds, call.ttl ?? ttlSeconds)))
                if (ttl > 0) {
                  const expiresAt = clock.now() + ttl * 1000
                  await store.set(key, { data, expiresAt, staleUntil: expiresAt + staleMs })
                }
                return { data, ttl }
              })()
              inflight.set(key, flight)
              const done = () => inflight.delete(key)
              flight.then(done, done)
            }
            try {
              const { data, ttl } = await flight
              call.cache = 'miss'
              call.maxAge = ttl
              call.headers['cache-control'] = ttl > 0 ? freshFor(ttl) : 'no-store'
              return data
            } catch (error) {
              // stale-if-error: yesterday's answer, marked as such, beats a 502.
              if (entry === undefined || !upstreamTrouble(error)) throw error
              call.cache = 'hit'
              call.stale = { reason: (error as ApiError).message, expired_at: new Date(entry.expiresAt).toISOString() }
              call.maxAge = 0
              call.headers['cache-control'] = 'private, max-age=0, must-revalidate'
              return entry.data
            }
          }
          // A fresh entry answers at once; from the memory store that is synchronous.
          const lookup = (call: Call, next: () => MaybePromise<unknown>, key: string, entry: CacheEntry | undefined): MaybePromise<unknown> => {
            const now = clock.now()
            if (entry !== undefined && entry.expiresAt > now) {
              const remaining = Math.floor((entry.expiresAt - now) / 1000)
              call.cache = 'hit'
              call.maxAge = remaining
              call.headers['cache-control'] = freshFor(remaining)
              return entry.data
            }
            return miss(call, next, key, entry)
          }
          return (call, next) => {
            const key = questionKey(call)
            const entry = store.get(key)
            return isPending(entry) ? entry.then((found) => lookup(call, next, key, found)) : lookup(call, next, key, entry)
          }
        },
      }),
    )
  },
})
