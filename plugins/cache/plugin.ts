import { defineLayer } from '../../runtime/call.ts'
import { definePlugin } from '../../runtime/define-plugin.ts'
import { toSeconds } from '../../runtime/duration.ts'
import { cacheKey } from './cache-key.ts'
import type { CacheStore } from './cache-store.ts'
import { createMemoryStore } from './cache-store.ts'
import { createRedisStore } from './redis-store.ts'

interface Resolved {
  data: unknown
  ttl: number
}

export default definePlugin({
  name: 'cache',
  setup(api) {
    const local = createMemoryStore(api.config.cacheMaxEntries)
    const store: CacheStore = api.redis && api.config.cacheMaxEntries > 0 ? createRedisStore(api.redis, local) : local
    // Identical misses in flight share one resolver call (per process).
    const inflight = new Map<string, Promise<Resolved>>()

    api.layer(
      defineLayer({
        name: 'cache',
        stage: 'cache',
        forEndpoint: (endpoint) => {
          if (endpoint.cache === false) return undefined
          const ttlSeconds = toSeconds(endpoint.cache.ttl)
          return async (call, next) => {
            const key = cacheKey(endpoint.name, call.input)
            const entry = await store.get(key)
            if (entry !== undefined) {
              const remaining = Math.max(0, Math.floor((entry.expiresAt - Date.now()) / 1000))
              call.cache = 'hit'
              call.maxAge = remaining
              call.headers['cache-control'] = `public, max-age=${remaining}`
              return entry.data
            }
            let flight = inflight.get(key)
            if (flight === undefined) {
              flight = (async (): Promise<Resolved> => {
                const data = await next()
                // A resolver may only lower the TTL (e.g. to a DNS record's TTL).
                const ttl = Math.max(0, Math.floor(Math.min(ttlSeconds, call.ttl ?? ttlSeconds)))
                if (ttl > 0) await store.set(key, { data, expiresAt: Date.now() + ttl * 1000 })
                return { data, ttl }
              })()
              inflight.set(key, flight)
              const done = () => inflight.delete(key)
              flight.then(done, done)
            }
            const { data, ttl } = await flight
            call.cache = 'miss'
            call.maxAge = ttl
            call.headers['cache-control'] = ttl > 0 ? `public, max-age=${ttl}` : 'no-store'
            return data
          }
        },
      }),
    )
  },
})
